// Stacker: a row of blocks slides back and forth; stop it on top of the row below.
// Whatever overhangs falls off; reach the top row to clear the level.
// Keyboard: Space / Enter / Down. Mouse/touch: tap anywhere.
(function () {
  "use strict";

  const W = 480, H = 720, ROWS = 15;

  // Painted once into a sprite and blitted 1:1 (smoothing off): per-frame gradients are slow in software.
  const { sprite, scaleOf } = CrumbGame; // static art painted once, at the drawing scale

  /** "#rrggbb" for a hue ramp (the runtime's colour helpers take hex). */
  function hslHex(h, sat, l) {
    const f = (n) => {
      const k = (n + h / 30) % 12, a = sat * Math.min(l, 1 - l);
      const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
      return Math.round(v * 255).toString(16).padStart(2, "0");
    };
    return "#" + f(0) + f(8) + f(4);
  }

  function tick(s, api) { return Math.max(0.045, 0.15 - s.row * 0.0075) / api.speed; }

  function newRow(s, api) {
    const below = s.stack[s.stack.length - 1];
    let w = below ? below.w : s.startW;
    if (s.row >= 10) w = Math.min(w, 1); else if (s.row >= 5) w = Math.min(w, 2);
    const fromLeft = s.row % 2 === 0;
    s.mover = { x: fromLeft ? 0 : s.cols - w, w, dir: fromLeft ? 1 : -1, t: 0 };
    s.rowTime = 0;
    void api;
  }

  function overlapOf(s) {
    const m = s.mover, below = s.stack[s.stack.length - 1];
    if (!below) return { x: m.x, w: m.w };
    const a = Math.max(m.x, below.x), b = Math.min(m.x + m.w, below.x + below.w);
    return { x: a, w: Math.max(0, b - a) };
  }

  function drop(s, api) {
    const m = s.mover;
    if (!m) return;
    const ov = overlapOf(s);
    // the part hanging over falls
    for (let c = m.x; c < m.x + m.w; c++) {
      if (c < ov.x || c >= ov.x + ov.w) s.debris.push({ c, row: s.row, y: 0, v: 0, t: 0 });
    }
    if (ov.w === 0) {
      s.misses++; s.flash = 0.4;
      s.msg = { text: "Missed!", t: 1, col: api.pal.danger };
      api.loseLife();
      if (api.phase === "playing") newRow(s, api);   // same row again
      return;
    }
    const perfect = ov.w === m.w;
    s.stack.push({ x: ov.x, w: ov.w, glow: 0.3 });
    const pts = 10 * (s.row + 1) + (perfect && s.row > 0 ? 20 : 0);
    api.addScore(pts);
    if (perfect && s.row > 0) { s.perfects++; s.msg = { text: "PERFECT +" + pts, t: 1, col: api.pal.accent2 }; }
    s.row++;
    if (s.row >= s.rows) { levelDone(s, api); return; }
    newRow(s, api);
  }

  function levelDone(s, api) {
    s.mover = null;
    const levels = api.cfg.levels;
    if (levels && api.level < levels) {
      api.setLevel(api.level + 1);
      s.msg = { text: "Level " + api.level + "!", t: 1.4, col: api.pal.accent2 };
      s.restartT = 1.2;
    } else if (levels) {
      api.setLevel(api.level + 1);          // past the last level: the runtime declares the win
    } else {
      api.win();
    }
  }

  CrumbGame.register({
    genre: "stacker",
    size: [480, 720],
    controls: "Space / tap to stop the row \u00b7 reach the top",

    init(api) {
      const cols = Math.max(5, Math.min(11, (api.cfg && api.cfg.grid) || 7));
      const rows = ROWS;
      const cell = Math.floor(Math.min((W - 60) / cols, (H - api.top - 110) / rows));
      const s = { cols, rows, cell, ox: Math.round((W - cols * cell) / 2), oy: api.top + 46,
        stack: [], row: 0, mover: null, startW: Math.min(3, cols - 2), debris: [], misses: 0, perfects: 0,
        msg: null, flash: 0, restartT: 0, rowTime: 0, clock: 0 };
      newRow(s, api);
      return s;
    },

    update(s, dt, input, api) {
      s.clock += dt;
      if (s.restartT > 0) {
        s.restartT -= dt;
        if (s.restartT <= 0) { s.stack = []; s.row = 0; newRow(s, api); }
      } else if (s.mover) {
        let pressed = input.clicks.length > 0;
        for (const k of input.pressed) if (k === " " || k === "Enter" || k === "ArrowDown" || k === "s") pressed = true;
        if (pressed) drop(s, api);
      }
      const m = s.mover;
      if (m && api.phase === "playing") {
        s.rowTime += dt;
        m.t += dt;
        const step = tick(s, api);
        while (m.t >= step) {
          m.t -= step;
          if (m.x + m.dir < 0 || m.x + m.w + m.dir > s.cols) m.dir = -m.dir;
          m.x += m.dir;
        }
      }
      for (const d of s.debris) { d.v += 30 * dt; d.y += d.v * dt; d.t += dt; }
      s.debris = s.debris.filter((d) => d.t < 1.2);
      for (const r of s.stack) if (r.glow > 0) r.glow = Math.max(0, r.glow - dt);
      if (s.flash > 0) s.flash -= dt;
      if (s.msg) { s.msg.t -= dt; if (s.msg.t <= 0) s.msg = null; }
    },

    draw(g, s, api) {
      const pal = api.pal, cell = s.cell, ox = s.ox, oy = s.oy, tw = s.cols * cell, th = s.rows * cell;
      const rowY = (row) => oy + (s.rows - 1 - row) * cell;
      g.imageSmoothingEnabled = false;
      g.drawImage(sprite("cabinet" + s.cols + pal.bg, W, H, scaleOf(g), (cg) => {
        const bg = cg.createLinearGradient(0, 0, 0, H);
        bg.addColorStop(0, api.mix(pal.bg, "#0f2a4a", 0.5)); bg.addColorStop(1, pal.bg);
        cg.fillStyle = bg; cg.fillRect(0, 0, W, H);
        cg.fillStyle = "rgba(0,0,0,0.45)"; cg.strokeStyle = api.alpha(pal.accent, 0.5); cg.lineWidth = 2;
        api.roundRect(cg, ox - 10, oy - 10, tw + 20, th + 20, 12); cg.fill(); cg.stroke();
        api.text(cg, "\u2605 TOP \u2605", W / 2, oy - 26, 16, pal.accent2, "center");
        for (let r = 0; r < s.rows; r++) for (let c = 0; c < s.cols; c++) {
          cg.fillStyle = "rgba(255,255,255,0.045)";
          api.roundRect(cg, ox + c * cell + 3, rowY(r) + 3, cell - 6, cell - 6, 6); cg.fill();
        }
      }), 0, 0, W, H);
      g.imageSmoothingEnabled = true;
      if (s.flash > 0) { g.fillStyle = api.alpha(pal.danger, s.flash * 0.5); g.fillRect(0, 0, W, H); }
      // prize row
      g.fillStyle = api.alpha(pal.accent2, 0.12 + 0.06 * Math.sin(s.clock * 4));
      g.fillRect(ox, oy, tw, cell);
      const block = (c, y, col, glow, alpha) => {
        g.save(); g.globalAlpha = alpha == null ? 1 : alpha;
        if (glow) { g.shadowColor = col; g.shadowBlur = glow; }
        const grd = g.createLinearGradient(0, y, 0, y + cell);
        grd.addColorStop(0, api.mix(col, "#ffffff", 0.35)); grd.addColorStop(1, col);
        g.fillStyle = grd; api.roundRect(g, ox + c * cell + 2, y + 2, cell - 4, cell - 4, 7); g.fill();
        g.shadowBlur = 0;
        g.fillStyle = "rgba(255,255,255,0.3)"; api.roundRect(g, ox + c * cell + 6, y + 5, cell - 12, cell * 0.2, 4); g.fill();
        g.restore();
      };
      const rowColor = (r) => hslHex(190 + 150 * r / (s.rows - 1), 0.85, 0.62);
      s.stack.forEach((row, r) => {
        for (let c = row.x; c < row.x + row.w; c++) block(c, rowY(r), rowColor(r), row.glow > 0 ? 30 * row.glow / 0.3 : 0);
      });
      if (s.mover) {
        const m = s.mover, below = s.stack[s.stack.length - 1];
        if (below) {           // guide lines over the row below
          g.strokeStyle = "rgba(255,255,255,0.18)"; g.setLineDash([4, 6]); g.lineWidth = 1.5;
          for (const x of [below.x, below.x + below.w]) { g.beginPath(); g.moveTo(ox + x * cell, rowY(s.row)); g.lineTo(ox + x * cell, rowY(s.row - 1)); g.stroke(); }
          g.setLineDash([]);
        }
        for (let c = m.x; c < m.x + m.w; c++) block(c, rowY(s.row), rowColor(s.row), 18);
      }
      for (const d of s.debris) block(d.c, rowY(d.row) + d.y * cell, pal.danger, 0, Math.max(0, 1 - d.t / 1.2));
      if (s.msg) {
        g.globalAlpha = Math.min(1, s.msg.t * 2);
        g.save(); g.shadowColor = "rgba(0,0,0,0.8)"; g.shadowBlur = 6;
        api.text(g, s.msg.text, W / 2, oy + th / 2, 34, s.msg.col, "center");
        g.restore();
        g.globalAlpha = 1;
      }
      api.text(g, "Row " + Math.min(s.row + 1, s.rows) + " / " + s.rows, W / 2, oy + th + 28, 18, pal.fg, "center");
    },

    hook(s) {
      let hint = [];
      if (s.mover && s.restartT <= 0) {
        const ov = overlapOf(s);
        // stop when nothing would fall off; after a while, take any overlap rather than wait forever
        if (ov.w === s.mover.w || (ov.w > 0 && s.rowTime > 2)) hint = [{ type: "key", key: " " }];
      }
      return {
        hint, row: s.row, rows: s.rows, width: s.mover ? s.mover.w : 0, height: s.stack.length,
        misses: s.misses, perfects: s.perfects, grid: s.cols,
      };
    },
  });
})();
