// Match-3: swap neighbouring gems to line up three or more; cascades chain into combos.
// Mouse/touch: tap a gem then a neighbour, or drag a gem onto a neighbour.
// Keyboard: arrows move the cursor, Space picks a gem up, an arrow then swaps it that way.
(function () {
  "use strict";

  // [light, dark] per gem kind; shapes keep kinds apart for colour-blind players too.
  const GEMS = [
    ["#ff8a8a", "#d11a3a"], // circle
    ["#ffe27a", "#e08a00"], // diamond
    ["#8af5a0", "#14a34a"], // hexagon
    ["#8ac8ff", "#1d5fd6"], // rounded square
    ["#e2a0ff", "#8a2ad6"], // triangle
    ["#a0fff4", "#0fa6a0"], // star
    ["#ffb0dc", "#d6338a"], // ring
  ];
  const DIRS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0],
    a: [0, -1], d: [0, 1], w: [-1, 0], s: [1, 0] };
  const SWAP_S = 0.16, CLEAR_S = 0.24, IDLE_HINT_S = 5;

  const W = 480, H = 720, TOP = 132;

  // ------------------------------------------------------------ board logic (no drawing)

  function gem(s, t, dy) { return { t, id: s.nextId++, dy: dy || 0, v: 0 }; }

  function kindAt(s, r, c) {
    const row = s.grid[r]; const g = row && row[c];
    return g ? g.t : -1;
  }

  /** True when the gem at (r, c) sits in a horizontal or vertical run of three or more. */
  function inRun(s, r, c) {
    const t = kindAt(s, r, c);
    if (t < 0) return false;
    let h = 1, v = 1;
    for (let k = c - 1; kindAt(s, r, k) === t; k--) h++;
    for (let k = c + 1; kindAt(s, r, k) === t; k++) h++;
    for (let k = r - 1; kindAt(s, k, c) === t; k--) v++;
    for (let k = r + 1; kindAt(s, k, c) === t; k++) v++;
    return h >= 3 || v >= 3;
  }

  /** Every run of 3+ on the board: [{cells: [[r, c], ...]}]. */
  function findRuns(s) {
    const n = s.n, runs = [];
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n;) {
        const t = kindAt(s, r, c); let e = c + 1;
        while (e < n && t >= 0 && kindAt(s, r, e) === t) e++;
        if (t >= 0 && e - c >= 3) { const cells = []; for (let k = c; k < e; k++) cells.push([r, k]); runs.push({ cells }); }
        c = e;
      }
    }
    for (let c = 0; c < n; c++) {
      for (let r = 0; r < n;) {
        const t = kindAt(s, r, c); let e = r + 1;
        while (e < n && t >= 0 && kindAt(s, e, c) === t) e++;
        if (t >= 0 && e - r >= 3) { const cells = []; for (let k = r; k < e; k++) cells.push([k, c]); runs.push({ cells }); }
        r = e;
      }
    }
    return runs;
  }

  function swapCells(s, a, b) {
    const t = s.grid[a[0]][a[1]]; s.grid[a[0]][a[1]] = s.grid[b[0]][b[1]]; s.grid[b[0]][b[1]] = t;
  }

  /** validMoves, computed once per board version (the hook and the idle help both ask every frame). */
  function movesNow(s) {
    if (!s.mc || s.mc.ver !== s.ver) s.mc = { ver: s.ver, moves: validMoves(s) };
    return s.mc.moves;
  }

  /** Swaps that make a match, best first (most gems lined up). */
  function validMoves(s) {
    const n = s.n, moves = [];
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      for (const [dr, dc] of [[0, 1], [1, 0]]) {
        const r2 = r + dr, c2 = c + dc;
        if (r2 >= n || c2 >= n || kindAt(s, r, c) === kindAt(s, r2, c2)) continue;
        swapCells(s, [r, c], [r2, c2]);
        if (inRun(s, r, c) || inRun(s, r2, c2)) {
          const gain = findRuns(s).reduce((k, run) => k + run.cells.length, 0);
          moves.push({ a: [r, c], b: [r2, c2], gain });
        }
        swapCells(s, [r, c], [r2, c2]);
      }
    }
    moves.sort((x, y) => y.gain - x.gain);
    return moves;
  }

  /** Fill the board so that nothing is matched yet and at least one move exists. */
  function deal(s, api) {
    s.ver++;
    for (let tries = 0; tries < 200; tries++) {
      s.grid = [];
      for (let r = 0; r < s.n; r++) {
        s.grid.push([]);
        for (let c = 0; c < s.n; c++) {
          let t;
          do { t = api.randInt(s.kinds); } while (
            (c >= 2 && kindAt(s, r, c - 1) === t && kindAt(s, r, c - 2) === t) ||
            (r >= 2 && kindAt(s, r - 1, c) === t && kindAt(s, r - 2, c) === t));
          s.grid[r].push(gem(s, t, 0));
        }
      }
      if (validMoves(s).length) return;
    }
  }

  /** Shuffle the gems in place until the board has no match and has a move (no gem is lost). */
  function reshuffle(s, api) {
    s.ver++;
    const all = [];
    for (const row of s.grid) for (const g of row) all.push(g);
    for (let tries = 0; tries < 200; tries++) {
      for (let i = all.length - 1; i > 0; i--) { const j = api.randInt(i + 1); [all[i], all[j]] = [all[j], all[i]]; }
      for (let r = 0; r < s.n; r++) for (let c = 0; c < s.n; c++) s.grid[r][c] = all[r * s.n + c];
      if (!findRuns(s).length && validMoves(s).length) break;
    }
    if (findRuns(s).length || !validMoves(s).length) deal(s, api);
    for (const row of s.grid) for (const g of row) g.pop = 0.35;
    s.banner = { text: "Reshuffle!", t: 1.2 };
    s.reshuffles++;
  }

  // ------------------------------------------------------------ turn flow

  function adjacent(a, b) { return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1; }
  function same(a, b) { return !!a && !!b && a[0] === b[0] && a[1] === b[1]; }

  function startSwap(s, a, b) {
    s.sel = null; s.idle = 0;
    s.mode = "swap"; s.anim = { a, b, t: 0, back: false };
  }

  function settle(s, api) {
    s.mode = "idle";
    if (s.movesLeft === 0) { s.banner = { text: "Out of moves", t: 3 }; api.lose(); return; }
    if (!validMoves(s).length) reshuffle(s, api);
  }

  function resolve(s, api) {
    const runs = findRuns(s);
    if (!runs.length) { settle(s, api); return; }
    s.chain++;
    s.bestCombo = Math.max(s.bestCombo, s.chain);
    const mult = s.comboBonus ? s.chain : 1;
    const clear = new Map();
    let pts = 0, sx = 0, sy = 0;
    for (const run of runs) {
      const len = run.cells.length;
      pts += len * 10 + (len >= 5 ? 50 : len === 4 ? 20 : 0);
      for (const [r, c] of run.cells) clear.set(r * s.n + c, [r, c]);
    }
    for (const [r, c] of clear.values()) {
      sx += c; sy += r;
      const g = s.grid[r][c];
      for (let k = 0; k < 7; k++) {
        const a = api.rng() * Math.PI * 2, sp = 60 + api.rng() * 160;
        s.parts.push({ x: s.ox + (c + 0.5) * s.cell, y: s.oy + (r + 0.5) * s.cell, vx: Math.cos(a) * sp,
          vy: Math.sin(a) * sp - 60, life: 0.5 + api.rng() * 0.3, col: GEMS[g.t][0] });
      }
    }
    const gained = pts * mult;
    api.addScore(gained);
    s.lastGain = gained;
    const cx = s.ox + (sx / clear.size + 0.5) * s.cell, cy = s.oy + (sy / clear.size + 0.5) * s.cell;
    s.floats.push({ text: "+" + gained, x: cx, y: cy, t: 0, col: "#fff" });
    if (s.chain >= 2) {
      s.flash = { text: s.comboBonus ? "COMBO x" + mult : "CASCADE x" + s.chain, t: 0 };
    }
    s.clearing = [...clear.values()];
    s.mode = "clear"; s.anim = { t: 0 };
  }

  function collapse(s, api) {
    s.ver++;
    for (const [r, c] of s.clearing) s.grid[r][c] = null;
    s.clearing = [];
    for (let c = 0; c < s.n; c++) {
      let write = s.n - 1;
      for (let r = s.n - 1; r >= 0; r--) {
        const g = s.grid[r][c];
        if (!g) continue;
        if (write !== r) { s.grid[write][c] = g; s.grid[r][c] = null; g.dy -= write - r; g.v = 0; }
        write--;
      }
      const empty = write + 1;
      for (let r = write; r >= 0; r--) s.grid[r][c] = gem(s, api.randInt(s.kinds), -empty - 0.3);
    }
    s.mode = "fall";
  }

  function cellAt(s, x, y) {
    const c = Math.floor((x - s.ox) / s.cell), r = Math.floor((y - s.oy) / s.cell);
    return r >= 0 && c >= 0 && r < s.n && c < s.n ? [r, c] : null;
  }

  function tapCell(s, cell) {
    if (!cell) { s.sel = null; return; }
    if (!s.sel) { s.sel = cell; return; }
    if (same(s.sel, cell)) { s.sel = null; return; }
    if (adjacent(s.sel, cell)) { startSwap(s, s.sel, cell); return; }
    s.sel = cell;
  }

  // ------------------------------------------------------------ drawing helpers

  function gemPath(g, t, x, y, r) {
    g.beginPath();
    if (t === 0 || t === 6) { g.arc(x, y, r, 0, Math.PI * 2); }
    else if (t === 1) { g.moveTo(x, y - r * 1.08); g.lineTo(x + r * 0.9, y); g.lineTo(x, y + r * 1.08); g.lineTo(x - r * 0.9, y); g.closePath(); }
    else if (t === 2) { for (let k = 0; k < 6; k++) { const a = Math.PI / 6 + k * Math.PI / 3; g.lineTo(x + Math.cos(a) * r, y + Math.sin(a) * r); } g.closePath(); }
    else if (t === 3) { g.roundRect(x - r * 0.86, y - r * 0.86, r * 1.72, r * 1.72, r * 0.32); }
    else if (t === 4) { g.moveTo(x, y - r * 1.02); g.lineTo(x + r * 0.98, y + r * 0.72); g.lineTo(x - r * 0.98, y + r * 0.72); g.closePath(); }
    else if (t === 5) { for (let k = 0; k < 10; k++) { const a = -Math.PI / 2 + k * Math.PI / 5, q = k % 2 ? r * 0.5 : r * 1.05; g.lineTo(x + Math.cos(a) * q, y + Math.sin(a) * q); } g.closePath(); }
  }

  // Gems are painted once per kind and size into a sprite; per-frame gradients and shadows are
  // what make a software-rendered canvas slow (QA runs headless, without a GPU).
  const { sprite } = CrumbGame; // static art painted once, at the drawing scale

  function blitGem(g, t, x, y, r, sc, alpha) {
    const scale = Math.round(Math.abs(g.getTransform().a) * 100) / 100 || 1;
    const half = r * 1.35;
    const img = sprite("gem" + t + ":" + r, half * 2, half * 2, scale, (cg) => paintGem(cg, t, half, half, r, 1));
    const hw = half * sc;
    if (alpha < 1) g.globalAlpha = alpha;
    if (sc !== 1) g.imageSmoothingEnabled = true;
    g.drawImage(img, x - hw, y - hw, hw * 2, hw * 2);
    if (sc !== 1) g.imageSmoothingEnabled = false;
    if (alpha < 1) g.globalAlpha = 1;
  }

  function paintGem(g, t, x, y, r, alpha) {
    const [light, dark] = GEMS[t];
    g.save();
    g.globalAlpha = alpha;
    g.shadowColor = "rgba(0,0,0,0.35)"; g.shadowBlur = r * 0.3; g.shadowOffsetY = r * 0.12;
    const grd = g.createRadialGradient(x - r * 0.35, y - r * 0.4, r * 0.1, x, y, r * 1.1);
    grd.addColorStop(0, "#ffffff"); grd.addColorStop(0.18, light); grd.addColorStop(1, dark);
    gemPath(g, t, x, y, r);
    g.fillStyle = grd; g.fill();
    g.shadowColor = "transparent";
    g.lineWidth = Math.max(1.5, r * 0.08); g.strokeStyle = "rgba(255,255,255,0.55)"; g.stroke();
    if (t === 6) { g.beginPath(); g.arc(x, y, r * 0.42, 0, Math.PI * 2); g.fillStyle = dark; g.fill(); g.stroke(); }
    g.beginPath(); g.ellipse(x - r * 0.28, y - r * 0.4, r * 0.32, r * 0.16, -0.5, 0, Math.PI * 2);
    g.fillStyle = "rgba(255,255,255,0.55)"; g.fill();
    g.restore();
  }

  function pill(g, api, x, y, w, h, label, value, col) {
    const scale = Math.round(Math.abs(g.getTransform().a) * 100) / 100 || 1;
    g.drawImage(sprite(["pill", w, h, label, value, col].join(":"), w + 4, h + 4, scale, (cg) => {
      cg.translate(2 - x, 2 - y); paintPill(cg, api, x, y, w, h, label, value, col);
    }), x - 2, y - 2, w + 4, h + 4);
  }

  function paintPill(g, api, x, y, w, h, label, value, col) {
    g.save();
    g.fillStyle = "rgba(255,255,255,0.08)"; g.strokeStyle = "rgba(255,255,255,0.18)"; g.lineWidth = 1.5;
    g.beginPath(); g.roundRect(x, y, w, h, h / 2); g.fill(); g.stroke();
    api.text(g, label, x + 18, y + h / 2, 15, "rgba(255,255,255,0.7)", "left");
    api.text(g, value, x + w - 18, y + h / 2, 22, col, "right");
    g.restore();
  }

  function ease(k) { return k < 0.5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2; }

  // ------------------------------------------------------------ genre

  CrumbGame.register({
    genre: "match3",
    size: [480, 720],
    controls: "Tap a gem, then a neighbour (or drag it) \u00b7 Arrows + Space",

    init(api) {
      const cfg = api.cfg || {};
      const n = Math.max(5, Math.min(10, cfg.grid || 8));
      const cell = Math.floor((W - 24) / n);
      const extras = (cfg.extras || []).join(" ").toLowerCase();
      const s = {
        n, cell, ox: Math.round((W - n * cell) / 2), oy: TOP, nextId: 1,
        kinds: n <= 6 ? 5 : 6,
        grid: [], ver: 0, mc: null, mode: "idle", anim: null, sel: null, cur: [Math.floor(n / 2), Math.floor(n / 2)], keys: false,
        chain: 0, bestCombo: 0, lastGain: 0, comboBonus: /combo/.test(extras),
        movesLeft: cfg.moves || null, moves: 0, reshuffles: 0,
        clearing: [], parts: [], floats: [], flash: null, banner: null, idle: 0,
        drag: null, dragUsed: false, swallowSwipe: 0, wasDown: false, clock: 0,
      };
      deal(s, api);
      return s;
    },

    update(s, dt, input, api) {
      s.clock += dt;
      // pointer gesture tracking (drag a gem onto a neighbour)
      const p = input.pointer || { x: 0, y: 0, down: false };
      if (p.down && !s.wasDown) { s.dragUsed = false; s.swallowSwipe = 0; s.drag = { cell: cellAt(s, p.x, p.y), x: p.x, y: p.y }; }
      if (!p.down) s.drag = null;
      s.wasDown = !!p.down;

      if (s.mode === "idle") {
        s.idle += dt;
        for (const k of input.pressed || []) {
          const key = k.length === 1 ? k.toLowerCase() : k;
          const d = DIRS[key];
          if (d && !p.down && s.clock < s.swallowSwipe) { s.swallowSwipe = 0; continue; }  // the swipe key of a touch drag
          if (d) {
            s.keys = true;
            if (s.sel) {
              const to = [s.sel[0] + d[0], s.sel[1] + d[1]];
              if (to[0] >= 0 && to[1] >= 0 && to[0] < s.n && to[1] < s.n) { s.cur = to; startSwap(s, s.sel, to); break; }
            } else {
              s.cur = [Math.max(0, Math.min(s.n - 1, s.cur[0] + d[0])), Math.max(0, Math.min(s.n - 1, s.cur[1] + d[1]))];
            }
          } else if (key === " " || key === "Enter") {
            s.keys = true; tapCell(s, s.cur);
            if (s.mode !== "idle") break;
          } else if (key === "Escape") { s.sel = null; }
        }
        for (const c of input.clicks || []) {
          if (s.mode !== "idle") break;
          s.keys = false;
          tapCell(s, cellAt(s, c.x, c.y));
        }
        if (s.mode === "idle" && s.drag && s.drag.cell && !s.dragUsed) {
          const dx = p.x - s.drag.x, dy = p.y - s.drag.y, lim = s.cell * 0.45;
          if (Math.abs(dx) > lim || Math.abs(dy) > lim) {
            const d = Math.abs(dx) > Math.abs(dy) ? [0, Math.sign(dx)] : [Math.sign(dy), 0];
            const a = s.drag.cell, b = [a[0] + d[0], a[1] + d[1]];
            s.dragUsed = true; s.swallowSwipe = s.clock + 1;
            if (b[0] >= 0 && b[1] >= 0 && b[0] < s.n && b[1] < s.n) startSwap(s, a, b);
          }
        }
      } else if (s.mode === "swap") {
        s.anim.t += dt / SWAP_S;
        if (s.anim.t >= 1) {
          const { a, b } = s.anim;
          s.ver++;
          if (!s.anim.back) {
            swapCells(s, a, b);
            if (inRun(s, a[0], a[1]) || inRun(s, b[0], b[1])) {
              s.moves++; s.chain = 0;
              if (s.movesLeft != null) s.movesLeft--;
              s.anim = null; resolve(s, api);
            } else {
              swapCells(s, a, b);
              s.anim = { a, b, t: 0, back: true };
              s.shake = 0.25;
            }
          } else { s.anim = null; s.mode = "idle"; }
        }
      } else if (s.mode === "clear") {
        s.anim.t += dt / CLEAR_S;
        if (s.anim.t >= 1) { s.anim = null; collapse(s, api); }
      } else if (s.mode === "fall") {
        let moving = false;
        for (const row of s.grid) for (const g of row) {
          if (g.dy < 0) { g.v += 70 * dt; g.dy = Math.min(0, g.dy + g.v * dt); moving = true; if (g.dy === 0) g.land = 0.15; }
        }
        if (!moving) resolve(s, api);
      }

      for (const row of s.grid) for (const g of row) if (g) {
        if (g.pop > 0) g.pop = Math.max(0, g.pop - dt);
        if (g.land > 0) g.land = Math.max(0, g.land - dt);
      }
      for (const q of s.parts) { q.x += q.vx * dt; q.y += q.vy * dt; q.vy += 420 * dt; q.life -= dt; }
      s.parts = s.parts.filter((q) => q.life > 0);
      for (const f of s.floats) f.t += dt;
      s.floats = s.floats.filter((f) => f.t < 1);
      if (s.flash) { s.flash.t += dt; if (s.flash.t > 1.2) s.flash = null; }
      if (s.banner) { s.banner.t -= dt; if (s.banner.t <= 0) s.banner = null; }
      if (s.shake > 0) s.shake = Math.max(0, s.shake - dt);
    },

    draw(g, s, api) {
      // Sprites are painted at the canvas's pixel scale and blitted 1:1; smoothing would resample
      // every blit (measured: about 4x the frame cost in headless Chromium). Scaled blits turn it on.
      g.imageSmoothingEnabled = false;
      const pal = api.pal, n = s.n, cell = s.cell, size = n * cell;
      const scale = Math.round(Math.abs(g.getTransform().a) * 100) / 100 || 1;
      g.drawImage(sprite("backdrop" + n + pal.bg, W, H, scale, (cg) => {
        const bg = cg.createLinearGradient(0, 0, 0, H);
        bg.addColorStop(0, pal.bg); bg.addColorStop(1, "#1a0f33");
        cg.fillStyle = bg; cg.fillRect(0, 0, W, H);
        const glow = cg.createRadialGradient(W / 2, s.oy + size / 2, 40, W / 2, s.oy + size / 2, size * 0.8);
        glow.addColorStop(0, "rgba(140,90,255,0.22)"); glow.addColorStop(1, "rgba(140,90,255,0)");
        cg.fillStyle = glow; cg.fillRect(0, 0, W, H);
        // board panel and checkerboard
        cg.fillStyle = "rgba(10,6,30,0.55)"; cg.strokeStyle = "rgba(255,255,255,0.16)"; cg.lineWidth = 2;
        cg.beginPath(); cg.roundRect(s.ox - 8, s.oy - 8, size + 16, size + 16, 16); cg.fill(); cg.stroke();
        for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
          cg.fillStyle = (r + c) % 2 ? "rgba(255,255,255,0.05)" : "rgba(255,255,255,0.09)";
          cg.beginPath(); cg.roundRect(s.ox + c * cell + 2, s.oy + r * cell + 2, cell - 4, cell - 4, 8); cg.fill();
        }
        api.text(cg, "Swap neighbours \u00b7 tap, drag or Space + arrows", W / 2, s.oy + size + 70, 14 / Math.max(1, (api.cfg.textScale || 1) * 0.85), "rgba(255,255,255,0.5)", "center");
      }), 0, 0, W, H);

      const mult = s.comboBonus ? Math.max(1, s.chain) : 1;
      const py = Math.min(api.top + 14, TOP - 56);
      pill(g, api, 12, py, 216, 48, s.comboBonus ? "COMBO" : "CHAIN", "x" + (s.comboBonus ? mult : Math.max(1, s.chain)), mult > 1 ? pal.accent2 : "#fff");
      pill(g, api, 252, py, 216, 48, "MOVES", s.movesLeft == null ? "\u221e" : String(s.movesLeft),
        s.movesLeft != null && s.movesLeft <= 3 ? pal.danger : "#fff");

      const shake = s.shake > 0 ? Math.sin(s.shake * 80) * 4 * s.shake / 0.25 : 0;
      g.save();
      g.translate(shake, 0);
      // idle help: after a few seconds, a move glows
      let help = null;
      if (s.mode === "idle" && s.idle > IDLE_HINT_S) { const m = movesNow(s)[0]; if (m) help = m; }
      const pulse = 0.5 + 0.5 * Math.sin(s.clock * 6);
      if (help) {
        for (const [r, c] of [help.a, help.b]) {
          g.fillStyle = `rgba(255,255,255,${0.1 + 0.15 * pulse})`;
          g.beginPath(); g.roundRect(s.ox + c * cell + 2, s.oy + r * cell + 2, cell - 4, cell - 4, 8); g.fill();
        }
      }
      if (s.sel) {
        const [r, c] = s.sel;
        g.strokeStyle = "#fff"; g.lineWidth = 3; g.shadowColor = pal.accent; g.shadowBlur = 12;
        g.beginPath(); g.roundRect(s.ox + c * cell + 3, s.oy + r * cell + 3, cell - 6, cell - 6, 10); g.stroke();
        g.shadowBlur = 0;
      }
      if (s.keys) {
        const [r, c] = s.cur;
        g.setLineDash([6, 5]); g.strokeStyle = pal.accent; g.lineWidth = 2.5;
        g.beginPath(); g.roundRect(s.ox + c * cell + 1, s.oy + r * cell + 1, cell - 2, cell - 2, 10); g.stroke();
        g.setLineDash([]);
      }
      // gems, clipped to the board so new ones slide in from above it
      g.save();
      g.beginPath(); g.rect(s.ox - 6, s.oy - 6, size + 12, size + 12); g.clip();
      const clearing = new Set(s.clearing.map(([r, c]) => r * n + c));
      const rad = cell * 0.36;
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
        const gm = s.grid[r][c];
        if (!gm) continue;
        let x = c, y = r + gm.dy, sc = 1, alpha = 1;
        if (s.mode === "swap" && s.anim) {
          const { a, b, back } = s.anim, k = ease(Math.min(1, s.anim.t)), f = back ? 1 - k : k;
          if (same([r, c], a)) { x = c + (b[1] - a[1]) * f; y = r + (b[0] - a[0]) * f; sc = 1 + 0.12 * Math.sin(Math.PI * k); }
          else if (same([r, c], b)) { x = c + (a[1] - b[1]) * f; y = r + (a[0] - b[0]) * f; }
        }
        if (clearing.has(r * n + c) && s.anim) { const k = s.anim.t; sc = 1 + 0.3 * k - 1.3 * k * k; alpha = 1 - k * 0.6; }
        if (s.sel && same(s.sel, [r, c])) sc *= 1.06 + 0.04 * pulse;
        if (gm.pop > 0) sc *= 1 - gm.pop;
        if (gm.land > 0) sc *= 1 + 0.08 * Math.sin(gm.land / 0.15 * Math.PI);
        if (sc <= 0.02) continue;
        const px = s.ox + (x + 0.5) * cell, py = s.oy + (y + 0.5) * cell;
        blitGem(g, gm.t, px, py, rad, sc, alpha);
        if (clearing.has(r * n + c) && s.anim) {
          g.fillStyle = `rgba(255,255,255,${0.7 * (1 - s.anim.t)})`;
          g.beginPath(); g.arc(px, py, rad * (1 + s.anim.t), 0, Math.PI * 2); g.fill();
        }
      }
      g.restore();
      for (const q of s.parts) {
        g.globalAlpha = Math.max(0, Math.min(1, q.life * 2)); g.fillStyle = q.col;
        g.beginPath(); g.arc(q.x, q.y, 3.2, 0, Math.PI * 2); g.fill();
      }
      g.globalAlpha = 1;
      for (const f of s.floats) {
        g.globalAlpha = 1 - f.t;
        api.text(g, f.text, f.x + 2, f.y - 50 * f.t + 2, 26, "rgba(0,0,0,0.7)", "center");
        api.text(g, f.text, f.x, f.y - 50 * f.t, 26, f.col, "center");
      }
      g.globalAlpha = 1;
      g.restore();

      if (s.flash) {
        const k = s.flash.t, scale = k < 0.15 ? 0.6 + k / 0.15 * 0.6 : 1.2 - Math.min(0.2, (k - 0.15));
        g.save();
        g.globalAlpha = k > 0.9 ? Math.max(0, 1 - (k - 0.9) / 0.3) : 1;
        g.translate(W / 2, s.oy + size / 2); g.scale(scale, scale);
        g.fillStyle = "rgba(12,6,32,0.78)"; g.strokeStyle = pal.accent2; g.lineWidth = 3;
        g.font = "600 " + Math.round(46 * (api.cfg.textScale || 1)) + "px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
        const want = g.measureText(s.flash.text).width;        // the font api.text will use
        const fit = Math.min(1, (W / 1.2 - 64) / want), bw = Math.max(240, 48 + want * fit);
        g.beginPath(); g.roundRect(-bw / 2, -40, bw, 80, 40); g.fill(); g.stroke();
        api.text(g, s.flash.text, 0, 2, 46 * fit, pal.accent2, "center");
        g.restore();
      }
      if (s.banner) {
        g.save(); g.globalAlpha = Math.min(1, s.banner.t * 2);
        g.fillStyle = "rgba(0,0,0,0.55)"; g.fillRect(0, s.oy + size / 2 - 34, W, 68);
        api.text(g, s.banner.text, W / 2, s.oy + size / 2, 36, "#fff", "center");
        g.restore();
      }
      // footer
      const fy = s.oy + size + 40;
      const best = "Best combo x" + Math.max(1, s.bestCombo);
      g.drawImage(sprite(best, W, 32, scale, (cg) => api.text(cg, best, W / 2, 16, 20, "rgba(255,255,255,0.85)", "center")), 0, fy - 16, W, 32);
      g.imageSmoothingEnabled = true;
    },

    hook(s, api) {
      let hint = [];
      const moves = s.mode === "idle" ? movesNow(s) : [];
      if (moves.length) {
        const m = moves[0];
        const at = ([r, c]) => ({ type: "click", x: +((s.ox + (c + 0.5) * s.cell) / W).toFixed(4), y: +((s.oy + (r + 0.5) * s.cell) / H).toFixed(4) });
        if (s.sel && same(s.sel, m.a)) hint = [at(m.b)];
        else if (s.sel) hint = [at(s.sel), at(m.a), at(m.b)];
        else hint = [at(m.a), at(m.b)];
      }
      return {
        hint,
        combo: s.chain,
        multiplier: s.comboBonus ? Math.max(1, s.chain) : 1,
        comboBonus: s.comboBonus,
        bestCombo: s.bestCombo,
        movesLeft: s.movesLeft,
        movesMade: s.moves,
        reshuffles: s.reshuffles,
        validMoves: moves.length,
        busy: s.mode !== "idle",
        selected: s.sel ? [s.sel[0], s.sel[1]] : null,
        cursor: [s.cur[0], s.cur[1]],
        grid: s.n,
        board: s.grid.map((row) => row.map((g) => (g ? g.t : -1))),
        // where cell (row 0, col 0) is and how far apart cells are, in canvas fractions
        cells: { x: +((s.ox + s.cell / 2) / W).toFixed(4), y: +((s.oy + s.cell / 2) / H).toFixed(4), dx: +(s.cell / W).toFixed(4), dy: +(s.cell / H).toFixed(4) },
      };
    },
  });
})();
