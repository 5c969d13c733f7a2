// 2048: slide every tile one way; equal tiles merge and add their value to the score.
// Keyboard: arrows / WASD. Touch: swipe. Mouse: click a side of the board or an arrow button.
(function () {
  "use strict";

  const W = 480, H = 640, SLIDE_S = 0.1;
  const DIRS = { left: [0, -1], right: [0, 1], up: [-1, 0], down: [1, 0] };
  const KEYS = { left: "ArrowLeft", right: "ArrowRight", up: "ArrowUp", down: "ArrowDown" };
  const RAMP = ["#3a4766", "#4d5f8c", "#f59e0b", "#f97316", "#ef4444", "#e11d48", "#facc15", "#eab308",
    "#84cc16", "#22d3ee", "#8b5cf6", "#ec4899", "#f8fafc"];

  function tileColor(v) { return RAMP[Math.min(RAMP.length - 1, Math.round(Math.log2(v)) - 1)]; }

  // Painted once into sprites: per-frame gradients and shadows make a software canvas slow.
  const { sprite, scaleOf } = CrumbGame; // static art painted once, at the drawing scale

  function emptyCells(grid) {
    const out = [];
    grid.forEach((row, r) => row.forEach((t, c) => { if (!t) out.push([r, c]); }));
    return out;
  }

  /** Slide the values of grid toward dir; returns {grid, moved, gain, moves:[{from,to,merge}]} without touching s. */
  function slide(vals, dir) {
    const n = vals.length, [dr, dc] = DIRS[dir];
    const out = vals.map((row) => row.map(() => 0));
    const moves = [];
    let moved = false, gain = 0;
    for (let line = 0; line < n; line++) {
      // cells of this line, from the edge we slide toward
      const cells = [];
      for (let k = 0; k < n; k++) {
        const i = dr === 1 || dc === 1 ? n - 1 - k : k;
        cells.push(dr !== 0 ? [i, line] : [line, i]);
      }
      let w = 0, lastMergeable = -1;
      for (const [r, c] of cells) {
        const v = vals[r][c];
        if (!v) continue;
        if (lastMergeable >= 0 && out[cells[lastMergeable][0]][cells[lastMergeable][1]] === v) {
          const [tr, tc] = cells[lastMergeable];
          out[tr][tc] = v * 2; gain += v * 2; moved = true;
          moves.push({ from: [r, c], to: [tr, tc], merge: true });
          lastMergeable = -1;
        } else {
          const [tr, tc] = cells[w];
          out[tr][tc] = v;
          if (tr !== r || tc !== c) moved = true;
          moves.push({ from: [r, c], to: [tr, tc], merge: false });
          lastMergeable = w; w++;
        }
      }
    }
    return { vals: out, moved, gain, moves };
  }

  function values(s) { return s.grid.map((row) => row.map((t) => (t ? t.v : 0))); }

  function spawn(s, api) {
    const free = emptyCells(s.grid);
    if (!free.length) return;
    const [r, c] = free[api.randInt(free.length)];
    s.grid[r][c] = { id: s.nextId++, v: api.rng() < 0.9 ? 2 : 4, r, c, pr: r, pc: c, born: 0.15 + SLIDE_S, bump: 0 };   // pops in once the slide is over
  }

  function canMove(s) {
    const v = values(s);
    return Object.keys(DIRS).some((d) => slide(v, d).moved);
  }

  function move(s, dir, api) {
    const res = slide(values(s), dir);
    if (!res.moved) { s.nudge = { dir, t: 0.12 }; return; }
    const old = s.grid, n = s.n;
    const grid = old.map((row) => row.map(() => null));
    s.ghosts = [];
    for (const m of res.moves) {
      const t = old[m.from[0]][m.from[1]];
      t.pr = m.from[0]; t.pc = m.from[1]; t.r = m.to[0]; t.c = m.to[1];
      if (m.merge) {
        s.ghosts.push(t);                                  // slides in, then disappears
        const host = grid[m.to[0]][m.to[1]];
        host.v *= 2; host.bump = 0.16;
        s.maxTile = Math.max(s.maxTile, host.v);
      } else {
        grid[m.to[0]][m.to[1]] = t;
      }
    }
    // host tiles show their new value only once the slide ends; remember the old one for the slide
    for (const g of s.ghosts) { const host = grid[g.r][g.c]; if (host.shown == null) host.shown = host.v / 2; }
    s.grid = grid; s.anim = 0; s.moves++;
    if (res.gain) {
      api.addScore(res.gain);
      s.floats = [{ text: "+" + res.gain, t: 0 }];
    }
    spawn(s, api);
    if (s.maxTile >= s.winTile) { s.banner = 2; api.win(); return; }
    if (!canMove(s)) {
      api.loseLife();                     // ends the round unless the spec gave lives
      if (api.phase !== "playing") { s.stuck = true; return; }
      for (const row of s.grid) row.fill(null);
      spawn(s, api); spawn(s, api);
      s.floats = [{ text: "Life lost \u2013 new board", t: 0 }];
    }
    void n;
  }

  /** The move a helper would make now: most merged points, then most free cells. */
  function bestDir(s) {
    const v = values(s);
    let best = null, bestScore = -1;
    for (const d of ["down", "left", "right", "up"]) {
      const res = slide(v, d);
      if (!res.moved) continue;
      const free = res.vals.flat().filter((x) => !x).length;
      const sc = res.gain * 4 + free + (d === "up" ? -3 : 0);
      if (sc > bestScore) { bestScore = sc; best = d; }
    }
    return best;
  }

  function layout(s, api) {
    const size = Math.min(W - 40, H - api.top - 190);
    s.board = { x: Math.round((W - size) / 2), y: api.top + 70, size };
    s.cell = size / s.n;
    const by = s.board.y + size + 22, bw = 84, gap = 14, total = bw * 4 + gap * 3;
    s.buttons = ["left", "up", "down", "right"].map((d, i) => ({ d, x: (W - total) / 2 + i * (bw + gap), y: by, w: bw, h: 56 }));
  }

  function arrow(g, dir, x, y, r, col) {
    const a = { right: 0, down: Math.PI / 2, left: Math.PI, up: -Math.PI / 2 }[dir];
    g.save(); g.translate(x, y); g.rotate(a);
    g.beginPath(); g.moveTo(r, 0); g.lineTo(-r * 0.6, -r * 0.8); g.lineTo(-r * 0.6, r * 0.8); g.closePath();
    g.fillStyle = col; g.fill(); g.restore();
  }

  function ease(k) { return 1 - (1 - k) * (1 - k); }

  CrumbGame.register({
    genre: "slide2048",
    size: [480, 640],
    controls: "Arrows / WASD / swipe \u00b7 or click a side of the board",

    init(api) {
      const n = Math.max(3, Math.min(8, (api.cfg && api.cfg.grid) || 4));
      const s = { n, grid: [], nextId: 1, anim: 1, ghosts: [], floats: [], maxTile: 2, moves: 0,
        winTile: n <= 3 ? 512 : 2048, banner: 0, nudge: null, stuck: false };
      for (let r = 0; r < n; r++) s.grid.push(new Array(n).fill(null));
      layout(s, api);
      spawn(s, api); spawn(s, api);
      for (const row of s.grid) for (const t of row) if (t) t.born = 0;   // shown at once, also behind the title
      s.maxTile = Math.max(...values(s).flat());
      return s;
    },

    update(s, dt, input, api) {
      const dirOf = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down",
        a: "left", d: "right", w: "up", s: "down", A: "left", D: "right", W: "up", S: "down" };
      const wanted = [];
      for (const k of input.pressed) if (dirOf[k]) wanted.push(dirOf[k]);
      for (const c of input.clicks) {
        const b = s.buttons.find((q) => c.x >= q.x && c.x <= q.x + q.w && c.y >= q.y && c.y <= q.y + q.h);
        if (b) { wanted.push(b.d); b.flash = 0.15; continue; }
        const B = s.board, dx = c.x - (B.x + B.size / 2), dy = c.y - (B.y + B.size / 2);
        if (Math.abs(dx) > B.size * 0.7 || Math.abs(dy) > B.size * 0.7) continue;
        wanted.push(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up"));
      }
      for (const d of wanted) {
        if (api.phase !== "playing") break;
        s.anim = 1; s.ghosts = [];           // finish the previous slide (and pop-ins) at once
        for (const row of s.grid) for (const t of row) if (t) { t.shown = null; t.born = 0; t.bump = 0; }
        move(s, d, api);
      }
      if (s.anim < 1) {
        s.anim = Math.min(1, s.anim + dt / SLIDE_S);
        if (s.anim >= 1) { s.ghosts = []; for (const row of s.grid) for (const t of row) if (t) t.shown = null; }
      }
      for (const row of s.grid) for (const t of row) if (t) {
        if (t.born > 0) t.born = Math.max(0, t.born - dt);
        if (t.bump > 0 && s.anim >= 1) t.bump = Math.max(0, t.bump - dt);
      }
      for (const b of s.buttons) if (b.flash > 0) b.flash -= dt;
      for (const f of s.floats) f.t += dt;
      s.floats = s.floats.filter((f) => f.t < 0.9);
      if (s.nudge) { s.nudge.t -= dt; if (s.nudge.t <= 0) s.nudge = null; }
    },

    draw(g, s, api) {
      // Sprites are painted at the canvas's pixel scale and blitted 1:1; smoothing would resample
      // every blit (measured: about 4x the frame cost in headless Chromium). Scaled blits turn it on.
      g.imageSmoothingEnabled = false;
      const pal = api.pal, B = s.board, n = s.n, cell = s.cell, pad = Math.max(4, cell * 0.07);
      const bg = g.createLinearGradient(0, 0, 0, H);
      bg.addColorStop(0, pal.bg); bg.addColorStop(1, api.mix(pal.bg, "#0b2a3a", 0.6));
      g.fillStyle = bg; g.fillRect(0, 0, W, H);

      // info row
      api.text(g, "BEST TILE", 24, api.top + 22, 13, pal.fg, "left");
      api.text(g, String(s.maxTile), 24, api.top + 46, 24, tileColor(s.maxTile), "left");
      api.text(g, "GOAL", W - 24, api.top + 22, 13, pal.fg, "right");
      api.text(g, String(s.winTile), W - 24, api.top + 46, 24, pal.text, "right");
      for (const f of s.floats) {
        g.globalAlpha = 1 - f.t / 0.9;
        api.text(g, f.text, W / 2, api.top + 40 - 30 * f.t, 24, pal.accent2, "center");
      }
      g.globalAlpha = 1;

      let nx = 0, ny = 0;
      if (s.nudge) { const [dr, dc] = DIRS[s.nudge.dir], k = Math.sin(s.nudge.t / 0.12 * Math.PI) * 6; nx = dc * k; ny = dr * k; }
      g.save(); g.translate(nx, ny);
      g.fillStyle = "rgba(255,255,255,0.07)"; g.strokeStyle = "rgba(255,255,255,0.14)"; g.lineWidth = 2;
      api.roundRect(g, B.x - 8, B.y - 8, B.size + 16, B.size + 16, 16); g.fill(); g.stroke();
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
        g.fillStyle = "rgba(255,255,255,0.06)";
        api.roundRect(g, B.x + c * cell + pad, B.y + r * cell + pad, cell - 2 * pad, cell - 2 * pad, cell * 0.12); g.fill();
      }
      const k = ease(s.anim);
      const drawTile = (t, v) => {
        const r = t.pr + (t.r - t.pr) * k, c = t.pc + (t.c - t.pc) * k;
        let sc = 1;
        if (t.born > 0) sc = Math.max(0, 1 - t.born / 0.15);
        if (t.bump > 0) sc = 1 + 0.12 * Math.sin((1 - t.bump / 0.16) * Math.PI);
        const x = B.x + (c + 0.5) * cell, y = B.y + (r + 0.5) * cell, half = (cell / 2 - pad) * sc;
        if (half <= 1) return;
        const full = cell / 2 - pad, m = 20, size = 2 * (full + m);
        const img = sprite("tile" + v + ":" + cell, size, size, scaleOf(g), (cg) => {
          cg.translate(size / 2, size / 2);
          const col = tileColor(v);
          const grd = cg.createLinearGradient(0, -full, 0, full);
          grd.addColorStop(0, api.mix(col, "#ffffff", 0.22)); grd.addColorStop(1, col);
          cg.shadowColor = v >= 128 ? col : "rgba(0,0,0,0.35)"; cg.shadowBlur = v >= 128 ? 18 : 8; cg.shadowOffsetY = v >= 128 ? 0 : 3;
          api.roundRect(cg, -full, -full, full * 2, full * 2, cell * 0.12); cg.fillStyle = grd; cg.fill();
          cg.shadowColor = "transparent";
          const digits = String(v).length;
          const fs = Math.round(cell * (digits <= 2 ? 0.42 : digits === 3 ? 0.34 : 0.27));
          api.text(cg, String(v), 0, 1, fs / (api.cfg.textScale || 1), v <= 4 ? "#e8ecf8" : v >= 4096 ? "#1e293b" : "#ffffff", "center");
        });
        const hs = size / 2 * sc;
        g.imageSmoothingEnabled = sc !== 1;
        g.drawImage(img, x - hs, y - hs, hs * 2, hs * 2);
        g.imageSmoothingEnabled = false;
      };
      for (const t of s.ghosts) drawTile(t, t.v);
      for (const row of s.grid) for (const t of row) if (t) drawTile(t, t.shown != null ? t.shown : t.v);
      g.restore();

      for (const b of s.buttons) {
        g.fillStyle = b.flash > 0 ? api.alpha(pal.accent, 0.5) : "rgba(255,255,255,0.08)";
        g.strokeStyle = "rgba(255,255,255,0.2)"; g.lineWidth = 1.5;
        api.roundRect(g, b.x, b.y, b.w, b.h, 14); g.fill(); g.stroke();
        arrow(g, b.d, b.x + b.w / 2, b.y + b.h / 2, 12, pal.text);
      }
      if (s.stuck) {
        g.fillStyle = "rgba(0,0,0,0.5)"; g.fillRect(B.x - 8, B.y + B.size / 2 - 30, B.size + 16, 60);
        api.text(g, "No moves left", W / 2, B.y + B.size / 2, 28, pal.danger, "center");
      }
      g.imageSmoothingEnabled = true;
    },

    hook(s) {
      const d = bestDir(s);
      return {
        hint: d ? [{ type: "key", key: KEYS[d] }] : [],
        maxTile: s.maxTile, winTile: s.winTile, moves: s.moves, grid: s.n,
        emptyCells: emptyCells(s.grid).length, canMove: !s.stuck,
      };
    },
  });
})();
