// Simon: watch the pads light up, then repeat the sequence; it grows by one each round.
// Keyboard: arrows / WASD (or 1-4) press the pad on that side. Mouse/touch: tap a pad.
(function () {
  "use strict";

  const W = 480, H = 640;
  // up, right, down, left: the arrow keys map straight onto the pads
  const PADS = [
    { key: "ArrowUp", color: "#22c55e", tone: 392 },
    { key: "ArrowRight", color: "#ef4444", tone: 330 },
    { key: "ArrowDown", color: "#3b82f6", tone: 262 },
    { key: "ArrowLeft", color: "#facc15", tone: 196 },
  ];
  const KEYMAP = { ArrowUp: 0, ArrowRight: 1, ArrowDown: 2, ArrowLeft: 3, w: 0, d: 1, s: 2, a: 3, W: 0, D: 1, S: 2, A: 3, 1: 0, 2: 1, 3: 2, 4: 3 };

  // The wheel is painted once into sprites: per-frame gradients and glows make a software canvas slow.
  const { sprite } = CrumbGame; // static art painted once, at the drawing scale

  /** One pad, pointing up from the wheel centre at (0, 0). */
  function paintPad(g, api, s, col, on) {
    const mid = -Math.PI / 2, a0 = mid - Math.PI / 4 + 0.06, a1 = mid + Math.PI / 4 - 0.06;
    g.save();
    g.beginPath(); g.arc(0, 0, s.rOut, a0, a1); g.arc(0, 0, s.rIn + 10, a1, a0, true); g.closePath();
    const my = -(s.rIn + s.rOut) / 2;
    const grd = g.createRadialGradient(0, my, 10, 0, my, 150);
    if (on) { grd.addColorStop(0, "#ffffff"); grd.addColorStop(0.3, api.mix(col, "#ffffff", 0.4)); grd.addColorStop(1, col); g.shadowColor = col; g.shadowBlur = 40; }
    else { grd.addColorStop(0, api.mix(col, "#000000", 0.35)); grd.addColorStop(1, api.mix(col, "#000000", 0.6)); }
    g.fillStyle = grd; g.fill();
    g.restore();
    g.save(); g.translate(0, -(s.rOut - 40)); g.rotate(mid);     // arrow glyph: the key for this pad
    g.fillStyle = on ? "rgba(255,255,255,0.9)" : "rgba(255,255,255,0.28)";
    g.beginPath(); g.moveTo(12, 0); g.lineTo(-8, -11); g.lineTo(-8, 11); g.closePath(); g.fill();
    g.restore();
  }

  function paintHub(g, api, s, wrong) {
    const cx = s.cx, cy = s.cy;
    const hub = g.createRadialGradient(cx - 20, cy - 20, 5, cx, cy, s.rIn);
    hub.addColorStop(0, "#2a2f3d"); hub.addColorStop(1, "#12141b");
    g.fillStyle = wrong ? api.mix(api.pal.danger, "#12141b", 0.4) : hub;
    g.beginPath(); g.arc(cx, cy, s.rIn, 0, Math.PI * 2); g.fill();
    g.strokeStyle = "rgba(255,255,255,0.12)"; g.lineWidth = 3; g.stroke();
    api.text(g, "ROUND", cx, cy - 20, 13, api.pal.fg, "center");
  }

  function tempo(s, api) {
    const k = api.speed * (1 + 0.05 * Math.min(12, s.seq.length - 1));
    return { on: 0.45 / k, gap: 0.18 / k };
  }

  function light(s, i, t, api) { s.lit[i] = t; api.beep(PADS[i].tone); }

  function startWatch(s, delay) { s.mode = "watch"; s.play = { idx: 0, t: -delay, on: false }; s.step = 0; }

  function press(s, i, api) {
    if (s.mode !== "repeat") {           // say why nothing happens rather than ignore the player
      s.early++;
      s.msg = { text: "Watch first!", t: 0.7, col: api.pal.fg };
      return;
    }
    light(s, i, 0.22, api);
    if (i === s.seq[s.step]) {
      s.step++;
      api.addScore(1);
      if (s.step === s.seq.length) {
        const bonus = 10 * s.seq.length;
        api.addScore(bonus);
        s.best = Math.max(s.best, s.seq.length);
        s.msg = { text: "+" + bonus, t: 0.9, col: "#a7f3d0" };
        api.setLevel(s.seq.length + 1);
        if (api.phase !== "playing") return;
        s.seq.push(api.randInt(4));
        startWatch(s, 0.8);
      }
    } else {
      s.mistakes++; s.wrong = 0.6;
      s.msg = { text: "Oops!", t: 0.9, col: "#fecaca" };
      api.loseLife();
      if (api.phase === "playing") startWatch(s, 1.0);   // same sequence again
    }
  }

  function padAt(s, x, y) {
    const dx = x - s.cx, dy = y - s.cy, d = Math.hypot(dx, dy);
    if (d < s.rIn * 0.9 || d > s.rOut * 1.08) return -1;
    const a = Math.atan2(dy, dx);                   // 0 = right, pi/2 = down
    if (a >= -Math.PI * 3 / 4 && a < -Math.PI / 4) return 0;
    if (a >= -Math.PI / 4 && a < Math.PI / 4) return 1;
    if (a >= Math.PI / 4 && a < Math.PI * 3 / 4) return 2;
    return 3;
  }

  CrumbGame.register({
    genre: "simon",
    size: [480, 640],
    controls: "Watch, then repeat \u00b7 arrow keys or tap the pads",

    init(api) {
      const s = { seq: [api.randInt(4)], step: 0, mode: "watch", play: null, lit: [0, 0, 0, 0], best: 0, mistakes: 0, early: 0,
        wrong: 0, msg: null, cx: W / 2, cy: api.top + 60 + 230, rOut: 205, rIn: 78, clock: 0 };
      startWatch(s, 0.7);
      return s;
    },

    update(s, dt, input, api) {
      s.clock += dt;
      for (const k of input.pressed) if (k in KEYMAP) press(s, KEYMAP[k], api);
      for (const c of input.clicks) { const i = padAt(s, c.x, c.y); if (i >= 0) press(s, i, api); }
      if (s.mode === "watch" && s.play) {
        const p = s.play, tp = tempo(s, api);
        p.t += dt;
        if (!p.on && p.t >= 0) { light(s, s.seq[p.idx], tp.on, api); p.on = true; }
        if (p.on && p.t >= tp.on + tp.gap) {
          p.idx++; p.t = 0; p.on = false;
          if (p.idx >= s.seq.length) { s.mode = "repeat"; s.play = null; s.step = 0; }
        }
      }
      for (let i = 0; i < 4; i++) s.lit[i] = Math.max(0, s.lit[i] - dt);
      if (s.wrong > 0) s.wrong -= dt;
      if (s.msg) { s.msg.t -= dt; if (s.msg.t <= 0) s.msg = null; }
    },

    draw(g, s, api) {
      // Sprites are painted at the canvas's pixel scale and blitted 1:1; smoothing would resample
      // every blit (measured: about 4x the frame cost in headless Chromium). Scaled blits turn it on.
      g.imageSmoothingEnabled = false;
      const pal = api.pal, cx = s.cx, cy = s.cy;
      const scale = Math.round(Math.abs(g.getTransform().a) * 100) / 100 || 1;
      const M = 46, pw = 2 * (s.rOut * 0.72 + M), ph = s.rOut - s.rIn * 0.6 + 2 * M;
      // everything that does not change: one blit a frame
      g.drawImage(sprite("wheel" + pal.bg, W, H, scale, (cg) => {
        const bg = cg.createRadialGradient(cx, cy, 40, cx, cy, 420);
        bg.addColorStop(0, api.mix(pal.bg, "#ffffff", 0.08)); bg.addColorStop(1, pal.bg);
        cg.fillStyle = bg; cg.fillRect(0, 0, W, H);
        cg.save();
        cg.shadowColor = "rgba(0,0,0,0.6)"; cg.shadowBlur = 30;
        cg.fillStyle = "#0d0f16"; cg.beginPath(); cg.arc(cx, cy, s.rOut + 14, 0, Math.PI * 2); cg.fill();
        cg.restore();
        for (let i = 0; i < 4; i++) {
          cg.save(); cg.translate(cx, cy); cg.rotate(i * Math.PI / 2); paintPad(cg, api, s, PADS[i].color, false); cg.restore();
        }
        paintHub(cg, api, s, false);
      }), 0, 0, W, H);
      // a lit pad: painted once in place (no rotation at draw time), blitted over its bounding box
      for (let i = 0; i < 4; i++) {
        if (!(s.lit[i] > 0)) continue;
        const vert = i % 2 === 0, bw = vert ? pw : ph, bh = vert ? ph : pw;
        const bx = i === 0 || i === 2 ? cx - pw / 2 : i === 1 ? cx + s.rIn * 0.6 - M : cx - s.rOut - M;
        const by = i === 1 || i === 3 ? cy - pw / 2 : i === 0 ? cy - s.rOut - M : cy + s.rIn * 0.6 - M;
        const img = sprite("lit" + i, bw, bh, scale, (cg) => {
          cg.translate(cx - bx, cy - by); cg.rotate(i * Math.PI / 2); paintPad(cg, api, s, PADS[i].color, true);
        });
        g.drawImage(img, bx, by, bw, bh);
        g.drawImage(sprite("hub0", 2 * s.rIn + 8, 2 * s.rIn + 8, scale, (cg) => {
          cg.translate(s.rIn + 4 - cx, s.rIn + 4 - cy); paintHub(cg, api, s, false);
        }), cx - s.rIn - 4, cy - s.rIn - 4, 2 * s.rIn + 8, 2 * s.rIn + 8);   // the glow must not cover the hub
      }
      if (s.wrong > 0) {
        g.drawImage(sprite("hub1", 2 * s.rIn + 8, 2 * s.rIn + 8, scale, (cg) => {
          cg.translate(s.rIn + 4 - cx, s.rIn + 4 - cy); paintHub(cg, api, s, true);
        }), cx - s.rIn - 4, cy - s.rIn - 4, 2 * s.rIn + 8, 2 * s.rIn + 8);
      }
      api.text(g, String(s.seq.length), cx, cy + 12, 36, pal.text, "center");
      api.text(g, s.mode === "watch" ? "Watch\u2026" : "Your turn", W / 2, api.top + 30, 24,
        s.mode === "watch" ? pal.fg : pal.accent2, "center");
      // progress dots for the current sequence
      const n = s.seq.length, dotW = Math.min(18, (W - 60) / Math.max(1, n));
      for (let i = 0; i < n; i++) {
        g.fillStyle = s.mode === "repeat" && i < s.step ? pal.accent2 : "rgba(255,255,255,0.2)";
        g.beginPath(); g.arc(W / 2 - (n - 1) * dotW / 2 + i * dotW, api.top + 60, Math.min(6, dotW * 0.35), 0, Math.PI * 2); g.fill();
      }
      if (s.msg) {
        g.globalAlpha = Math.min(1, s.msg.t * 2);
        api.text(g, s.msg.text, cx, cy + s.rOut + 40 - (0.9 - s.msg.t) * 20, 28, s.msg.col, "center");
        g.globalAlpha = 1;
      }
      api.text(g, "Best " + s.best, W / 2, H - 24, 16, pal.fg, "center");
      g.imageSmoothingEnabled = true;
    },

    hook(s) {
      const hint = s.mode === "repeat" && s.step < s.seq.length ? [{ type: "key", key: PADS[s.seq[s.step]].key }] : [];
      return { hint, sequenceLength: s.seq.length, step: s.step, mode: s.mode, best: s.best, mistakes: s.mistakes, early: s.early };
    },
  });
})();
