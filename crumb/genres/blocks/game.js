// Falling blocks: steer and rotate the falling piece; full rows clear and score.
// Keyboard: Left/Right move, Up/X rotate, Down soft drop, Space hard drop.
// Mouse/touch: the side buttons, or tap the well (left/right of the piece moves, on it rotates, below drops).
(function () {
  "use strict";

  const W = 480, H = 720, COLS = 10, ROWS = 20, CELL = 30;
  const SHAPES = {
    I: [[0, 0, 0, 0], [1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]],
    O: [[1, 1], [1, 1]],
    T: [[0, 1, 0], [1, 1, 1], [0, 0, 0]],
    S: [[0, 1, 1], [1, 1, 0], [0, 0, 0]],
    Z: [[1, 1, 0], [0, 1, 1], [0, 0, 0]],
    J: [[1, 0, 0], [1, 1, 1], [0, 0, 0]],
    L: [[0, 0, 1], [1, 1, 1], [0, 0, 0]],
  };
  const TYPES = Object.keys(SHAPES);
  const COLORS = { I: "#22d3ee", O: "#facc15", T: "#a855f7", S: "#4ade80", Z: "#f43f5e", J: "#3b82f6", L: "#fb923c" };
  const LINE_POINTS = [0, 100, 300, 500, 800];
  const CLEAR_S = 0.22, LOCK_S = 0.3, DAS_S = 0.16, ARR_S = 0.05;

  function rotate(m) { const n = m.length; return m.map((row, r) => row.map((_, c) => m[n - 1 - c][r])); }

  function fits(board, m, x, y) {
    for (let r = 0; r < m.length; r++) for (let c = 0; c < m.length; c++) {
      if (!m[r][c]) continue;
      const bx = x + c, by = y + r;
      if (bx < 0 || bx >= COLS || by >= ROWS) return false;
      if (by >= 0 && board[by][bx]) return false;
    }
    return true;
  }

  function dropY(board, m, x, y) { while (fits(board, m, x, y + 1)) y++; return y; }

  function nextType(s, api) {
    if (!s.bag.length) { s.bag = TYPES.slice(); for (let i = 6; i > 0; i--) { const j = api.randInt(i + 1); [s.bag[i], s.bag[j]] = [s.bag[j], s.bag[i]]; } }
    return s.bag.pop();
  }

  function spawn(s, api) {
    const type = s.next; s.next = nextType(s, api);
    const m = SHAPES[type].map((row) => row.slice());
    s.piece = { type, m, rot: 0, x: Math.floor((COLS - m.length) / 2), y: type === "I" ? -1 : 0, id: ++s.pieces };
    s.lock = 0; s.fall = 0; s.plan = null;
    if (!fits(s.board, m, s.piece.x, s.piece.y)) topOut(s, api);
  }

  /** The stack reached the top: a life is lost (the round ends without lives); with lives left the well is emptied. */
  function topOut(s, api) {
    s.piece = null;
    api.loseLife();
    if (api.phase !== "playing") { s.topOut = true; return; }
    for (let r = 0; r < ROWS; r++) s.board[r].fill(0);
    s.floats.push({ text: "Life lost", y: s.wy + ROWS * CELL / 2, t: 0 });
    spawn(s, api);
  }

  /** Board after dropping m at column x: {lines, holes, height, bump}. */
  function evaluate(board, m, x) {
    if (!fits(board, m, x, -2)) return null;
    const y = dropY(board, m, x, -2);
    const b = board.map((row) => row.slice());
    for (let r = 0; r < m.length; r++) for (let c = 0; c < m.length; c++) if (m[r][c]) { if (y + r < 0) return null; b[y + r][x + c] = 1; }
    let lines = 0;
    for (let r = ROWS - 1; r >= 0; r--) if (b[r].every(Boolean)) { b.splice(r, 1); lines++; }
    while (b.length < ROWS) b.unshift(new Array(COLS).fill(0));
    const heights = [];
    let holes = 0;
    for (let c = 0; c < COLS; c++) {
      let top = ROWS;
      for (let r = 0; r < ROWS; r++) if (b[r][c]) { top = r; break; }
      heights.push(ROWS - top);
      for (let r = top + 1; r < ROWS; r++) if (!b[r][c]) holes++;
    }
    let bump = 0;
    for (let c = 0; c < COLS - 1; c++) bump += Math.abs(heights[c] - heights[c + 1]);
    const agg = heights.reduce((a, h) => a + h, 0);
    return -0.51 * agg + 0.76 * lines - 0.36 * holes - 0.18 * bump;
  }

  /** Where a tidy player would put the current piece: {rot, x}. */
  function plan(s) {
    const p = s.piece;
    let best = null;
    let m = p.m;
    for (let rot = 0; rot < 4; rot++) {
      for (let x = -3; x < COLS; x++) {
        const v = evaluate(s.board, m, x);
        if (v != null && (!best || v > best.v)) best = { rot, x, v };
      }
      m = rotate(m);
    }
    return best;
  }

  function tryMove(s, dx) {
    const p = s.piece;
    if (p && fits(s.board, p.m, p.x + dx, p.y)) { p.x += dx; s.lock = 0; return true; }
    return false;
  }

  function tryRotate(s) {
    const p = s.piece;
    if (!p || p.type === "O") return false;
    const m = rotate(p.m);
    for (const k of [0, -1, 1, -2, 2]) {
      if (fits(s.board, m, p.x + k, p.y)) { p.m = m; p.x += k; p.rot = (p.rot + 1) % 4; s.lock = 0; return true; }
    }
    return false;
  }

  function lockPiece(s, api) {
    const p = s.piece;
    for (let r = 0; r < p.m.length; r++) for (let c = 0; c < p.m.length; c++) {
      if (!p.m[r][c]) continue;
      if (p.y + r < 0) { topOut(s, api); return; }
      s.board[p.y + r][p.x + c] = p.type;
    }
    s.piece = null;
    const full = [];
    for (let r = 0; r < ROWS; r++) if (s.board[r].every(Boolean)) full.push(r);
    if (full.length) { s.clearing = { rows: full, t: 0 }; }
    else spawn(s, api);
  }

  function finishClear(s, api) {
    const rows = s.clearing.rows;
    for (const r of rows) { s.board.splice(r, 1); s.board.unshift(new Array(COLS).fill(0)); }
    s.clearing = null;
    const pts = LINE_POINTS[Math.min(4, rows.length)] * api.level;
    api.addScore(pts);
    s.lines += rows.length;
    s.floats.push({ text: rows.length === 4 ? "BLOCKS! +" + pts : "+" + pts, y: s.wy + rows[0] * CELL, t: 0 });
    const lvl = 1 + Math.floor(s.lines / 10);
    if (lvl > api.level) { api.setLevel(lvl); s.banner = 1.2; }
    if (api.phase === "playing") spawn(s, api);
  }

  function hardDrop(s, api) {
    const p = s.piece;
    const y = dropY(s.board, p.m, p.x, p.y);
    if (y > p.y) api.addScore(2 * (y - p.y));
    s.trail = { x: p.x, y0: p.y, y1: y, m: p.m, type: p.type, t: 0.15 };
    p.y = y;
    lockPiece(s, api);
  }

  function softStep(s, api, byPlayer) {
    const p = s.piece;
    if (fits(s.board, p.m, p.x, p.y + 1)) { p.y++; if (byPlayer) api.addScore(1); return true; }
    return false;
  }

  // Painted once into sprites: per-frame gradients and shadows make a software canvas slow.
  const { sprite, scaleOf } = CrumbGame; // static art painted once, at the drawing scale

  function drawCell(g, api, x, y, size, col, alpha) {
    if (size <= 0.5) return;
    const base = size > 24 ? CELL : 22;   // well cells and preview cells each get their own sprite
    const img = sprite("cell" + col + ":" + base, base, base, scaleOf(g), (cg) => {
      const grd = cg.createLinearGradient(0, 0, base, base);
      grd.addColorStop(0, api.mix(col, "#ffffff", 0.35)); grd.addColorStop(1, api.shade(col, -40));
      cg.fillStyle = grd; api.roundRect(cg, 1, 1, base - 2, base - 2, base * 0.18); cg.fill();
      cg.fillStyle = "rgba(255,255,255,0.28)"; api.roundRect(cg, 4, 3, base - 8, base * 0.22, base * 0.1); cg.fill();
    });
    if (alpha != null && alpha < 1) g.globalAlpha = alpha;
    g.imageSmoothingEnabled = size !== base;
    g.drawImage(img, x, y, size, size);
    g.imageSmoothingEnabled = false;
    if (alpha != null && alpha < 1) g.globalAlpha = 1;
  }

  function buttonsFor(s) {
    const x0 = s.wx + COLS * CELL + 22, bw = 56, gap = 12;
    const y0 = s.wy + ROWS * CELL - 2 * bw - gap;
    return [
      { act: "left", x: x0, y: y0, w: bw, h: bw, label: "\u25c0" },
      { act: "right", x: x0 + bw + gap, y: y0, w: bw, h: bw, label: "\u25b6" },
      { act: "rotate", x: x0, y: y0 + bw + gap, w: bw, h: bw, label: "\u27f3" },
      { act: "drop", x: x0 + bw + gap, y: y0 + bw + gap, w: bw, h: bw, label: "\u25bc" },
    ];
  }

  CrumbGame.register({
    genre: "blocks",
    size: [480, 720],
    controls: "Arrows move & rotate \u00b7 Space drops \u00b7 or tap",

    init(api) {
      const s = { board: [], bag: [], next: null, piece: null, pieces: 0, lines: 0, fall: 0, lock: 0,
        clearing: null, floats: [], banner: 0, trail: null, das: 0, dasKey: null, topOut: false, plan: null,
        wx: 18, wy: api.top + 18 };
      for (let r = 0; r < ROWS; r++) s.board.push(new Array(COLS).fill(0));
      s.buttons = buttonsFor(s);
      s.next = nextType(s, api);
      spawn(s, api);
      return s;
    },

    update(s, dt, input, api) {
      for (const f of s.floats) f.t += dt;
      s.floats = s.floats.filter((f) => f.t < 1.2);
      if (s.banner > 0) s.banner -= dt;
      if (s.trail) { s.trail.t -= dt; if (s.trail.t <= 0) s.trail = null; }
      for (const b of s.buttons) if (b.flash > 0) b.flash -= dt;
      if (s.clearing) { s.clearing.t += dt; if (s.clearing.t >= CLEAR_S) finishClear(s, api); return; }
      if (!s.piece) return;

      const acts = [];
      for (const k of input.pressed) {
        if (k === "ArrowLeft" || k === "a" || k === "A") acts.push("left");
        else if (k === "ArrowRight" || k === "d" || k === "D") acts.push("right");
        else if (k === "ArrowUp" || k === "x" || k === "X" || k === "w" || k === "W") acts.push("rotate");
        else if (k === "ArrowDown" || k === "s" || k === "S") acts.push("soft");
        else if (k === " " || k === "Enter") acts.push("drop");
      }
      for (const c of input.clicks) {
        const b = s.buttons.find((q) => c.x >= q.x && c.x <= q.x + q.w && c.y >= q.y && c.y <= q.y + q.h);
        if (b) { acts.push(b.act); b.flash = 0.12; continue; }
        const p = s.piece;
        if (c.x < s.wx || c.x > s.wx + COLS * CELL || c.y < s.wy || c.y > s.wy + ROWS * CELL) continue;
        const col = (c.x - s.wx) / CELL, row = (c.y - s.wy) / CELL;
        let minC = 9, maxC = 0, maxR = 0;
        p.m.forEach((rw, r) => rw.forEach((v, cc) => { if (v) { minC = Math.min(minC, p.x + cc); maxC = Math.max(maxC, p.x + cc); maxR = Math.max(maxR, p.y + r); } }));
        if (col < minC) acts.push("left");
        else if (col >= maxC + 1) acts.push("right");
        else if (row > maxR + 1.5) acts.push("drop");
        else acts.push("rotate");
      }
      for (const a of acts) {
        if (!s.piece) break;
        if (a === "left") tryMove(s, -1);
        else if (a === "right") tryMove(s, 1);
        else if (a === "rotate") { if (!tryRotate(s)) s.rotFail = s.piece.id; }
        else if (a === "soft") softStep(s, api, true);
        else if (a === "drop") hardDrop(s, api);
      }
      if (!s.piece || s.clearing) return;

      // auto-repeat while a direction is held
      const dir = input.held.has("ArrowLeft") || input.held.has("a") ? -1 : input.held.has("ArrowRight") || input.held.has("d") ? 1 : 0;
      if (dir && s.dasKey === dir) {
        s.das += dt;
        while (s.das > DAS_S + ARR_S) { s.das -= ARR_S; tryMove(s, dir); }
      } else { s.dasKey = dir; s.das = 0; }

      const soft = input.held.has("ArrowDown") || input.held.has("s");
      const interval = soft ? 0.04 : Math.max(0.05, 0.8 * Math.pow(0.85, api.level - 1)) / api.speed;
      s.fall += dt;
      while (s.fall >= interval && s.piece) {
        s.fall -= interval;
        if (!softStep(s, api, soft)) break;
      }
      if (s.piece && !fits(s.board, s.piece.m, s.piece.x, s.piece.y + 1)) {
        s.lock += dt;
        if (s.lock >= LOCK_S) lockPiece(s, api);
      } else s.lock = 0;
    },

    draw(g, s, api) {
      // Sprites are painted at the canvas's pixel scale and blitted 1:1; smoothing would resample
      // every blit (measured: about 4x the frame cost in headless Chromium). Scaled blits turn it on.
      g.imageSmoothingEnabled = false;
      const pal = api.pal, wx = s.wx, wy = s.wy, ww = COLS * CELL, wh = ROWS * CELL;
      const bg = g.createLinearGradient(0, 0, 0, H);
      bg.addColorStop(0, pal.bg); bg.addColorStop(1, api.mix(pal.bg, "#1e1b4b", 0.6));
      g.fillStyle = bg; g.fillRect(0, 0, W, H);
      // well
      g.fillStyle = "rgba(0,0,0,0.45)"; g.strokeStyle = api.alpha(pal.accent, 0.6); g.lineWidth = 2;
      api.roundRect(g, wx - 6, wy - 6, ww + 12, wh + 12, 10); g.fill(); g.stroke();
      g.strokeStyle = "rgba(255,255,255,0.05)"; g.lineWidth = 1;
      for (let c = 1; c < COLS; c++) { g.beginPath(); g.moveTo(wx + c * CELL, wy); g.lineTo(wx + c * CELL, wy + wh); g.stroke(); }
      for (let r = 1; r < ROWS; r++) { g.beginPath(); g.moveTo(wx, wy + r * CELL); g.lineTo(wx + ww, wy + r * CELL); g.stroke(); }
      const clearing = s.clearing ? new Set(s.clearing.rows) : null;
      for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) {
        const t = s.board[r][c];
        if (!t) continue;
        if (clearing && clearing.has(r)) {
          const k = s.clearing.t / CLEAR_S;
          g.fillStyle = `rgba(255,255,255,${1 - k})`; g.fillRect(wx + c * CELL, wy + r * CELL, CELL, CELL);
          drawCell(g, api, wx + c * CELL + CELL * k / 2, wy + r * CELL + CELL * k / 2, CELL * (1 - k), COLORS[t], 1 - k);
        } else drawCell(g, api, wx + c * CELL, wy + r * CELL, CELL, COLORS[t]);
      }
      const p = s.piece;
      g.save(); g.beginPath(); g.rect(wx, wy, ww, wh); g.clip();
      if (s.trail) {
        const tr = s.trail;
        g.fillStyle = api.alpha(COLORS[tr.type], 0.25 * tr.t / 0.15);
        tr.m.forEach((row, r) => row.forEach((v, c) => { if (v) g.fillRect(wx + (tr.x + c) * CELL + 3, wy + (tr.y0 + r) * CELL, CELL - 6, (tr.y1 - tr.y0) * CELL); }));
      }
      if (p) {
        const gy = dropY(s.board, p.m, p.x, p.y);
        p.m.forEach((row, r) => row.forEach((v, c) => {
          if (!v) return;
          g.strokeStyle = api.alpha(COLORS[p.type], 0.7); g.lineWidth = 2;
          api.roundRect(g, wx + (p.x + c) * CELL + 3, wy + (gy + r) * CELL + 3, CELL - 6, CELL - 6, 5); g.stroke();
        }));
        p.m.forEach((row, r) => row.forEach((v, c) => { if (v) drawCell(g, api, wx + (p.x + c) * CELL, wy + (p.y + r) * CELL, CELL, COLORS[p.type]); }));
      }
      g.restore();
      // side panel
      const sx = wx + ww + 22, pw = W - sx - 14;
      g.fillStyle = "rgba(255,255,255,0.06)"; api.roundRect(g, sx, wy, pw, 120, 12); g.fill();
      api.text(g, "NEXT", sx + pw / 2, wy + 18, 13, pal.fg, "center");
      if (s.next) {
        const m = SHAPES[s.next], cs = 22;
        let minR = 9, maxR = 0, minC = 9, maxC = 0;
        m.forEach((row, r) => row.forEach((v, c) => { if (v) { minR = Math.min(minR, r); maxR = Math.max(maxR, r); minC = Math.min(minC, c); maxC = Math.max(maxC, c); } }));
        const ox = sx + pw / 2 - (maxC - minC + 1) * cs / 2, oy = wy + 72 - (maxR - minR + 1) * cs / 2;
        m.forEach((row, r) => row.forEach((v, c) => { if (v) drawCell(g, api, ox + (c - minC) * cs, oy + (r - minR) * cs, cs, COLORS[s.next]); }));
      }
      const stat = (label, value, y) => {
        api.text(g, label, sx + pw / 2, y, 13, pal.fg, "center");
        api.text(g, String(value), sx + pw / 2, y + 26, 26, pal.text, "center");
      };
      stat("LINES", s.lines, wy + 150);
      stat("LEVEL", api.level, wy + 220);
      for (const b of s.buttons) {
        g.fillStyle = b.flash > 0 ? api.alpha(pal.accent, 0.55) : "rgba(255,255,255,0.09)";
        g.strokeStyle = "rgba(255,255,255,0.22)"; g.lineWidth = 1.5;
        api.roundRect(g, b.x, b.y, b.w, b.h, 12); g.fill(); g.stroke();
        api.text(g, b.label, b.x + b.w / 2, b.y + b.h / 2 + 1, 24, pal.text, "center");
      }
      for (const f of s.floats) {
        g.globalAlpha = Math.max(0, 1 - f.t / 1.2);
        api.text(g, f.text, wx + ww / 2, f.y - 40 * f.t, 26, pal.accent2, "center");
      }
      g.globalAlpha = 1;
      if (s.banner > 0) {
        g.fillStyle = "rgba(0,0,0,0.55)"; g.fillRect(wx, wy + wh / 2 - 30, ww, 60);
        api.text(g, "Level " + api.level, wx + ww / 2, wy + wh / 2, 30, pal.accent2, "center");
      }
      g.imageSmoothingEnabled = true;
    },

    hook(s) {
      let hint = [];
      const p = s.piece;
      if (p && !s.clearing) {
        if (!s.plan || s.plan.id !== p.id) { const best = plan(s); s.plan = best ? { id: p.id, rot: (p.rot + best.rot) % 4, x: best.x } : { id: p.id, rot: p.rot, x: p.x }; }
        const want = s.plan;
        let key = " ";
        if (want.rot !== p.rot && s.rotFail !== p.id) key = "ArrowUp";
        else if (want.x < p.x) key = "ArrowLeft";
        else if (want.x > p.x) key = "ArrowRight";
        hint = [{ type: "key", key }];
      }
      let height = 0;
      for (let r = 0; r < ROWS; r++) if (s.board[r].some(Boolean)) { height = ROWS - r; break; }
      return { hint, lines: s.lines, next: s.next, piece: p ? p.type : null, x: p ? p.x : null, y: p ? p.y : null,
        rotation: p ? p.rot : null, stackHeight: height, pieces: s.pieces };
    },
  });
})();
