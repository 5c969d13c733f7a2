// Whack-a-mole: hit the moles before they duck back down; golden moles are worth more.
// Mouse/touch: tap a mole. Keyboard: 1-9 hit a hole (reading order), or arrows + Space.
(function () {
  "use strict";

  const W = 480, H = 640, RISE_S = 0.12;

  // Painted once into a sprite and blitted 1:1 (smoothing off): per-frame gradients are slow in software.
  const { sprite, scaleOf } = CrumbGame; // static art painted once, at the drawing scale

  function holeAt(s, x, y) {
    let best = -1, bd = Infinity;
    s.holes.forEach((h, i) => {
      const dx = x - h.x, dy = y - (h.y - s.r * 0.5), d = dx * dx + dy * dy;
      if (d < bd && Math.abs(dx) < s.cell / 2 && y > h.y - s.r * 1.9 && y < h.y + s.r * 0.7) { bd = d; best = i; }
    });
    return best;
  }

  function popUp(s, api) {
    const free = s.holes.map((h, i) => (h.state === "down" ? i : -1)).filter((i) => i >= 0);
    const up = s.holes.length - free.length;
    if (!free.length || up >= s.maxUp) return;
    const h = s.holes[free[api.randInt(free.length)]];
    const t = api.time;
    h.state = "up"; h.k = 0; h.gold = api.rng() < 0.12;
    h.stay = Math.max(0.65, 1.5 - 0.012 * t) / api.speed * (h.gold ? 0.7 : 1);
    s.spawned++;
  }

  function whack(s, i, api, px, py) {
    s.hammer = { x: px, y: py, t: 0.15 };
    s.swings++;
    if (i < 0) return;
    const h = s.holes[i];
    if (h.state !== "up") { s.combo = 0; return; }
    h.state = "hit"; h.hitT = 0.35;
    s.combo++; s.hits++;
    const pts = (h.gold ? 50 : 10) + 2 * Math.min(10, s.combo - 1);
    api.addScore(pts);
    s.floats.push({ text: "+" + pts, x: h.x, y: h.y - s.r * 1.6, t: 0, gold: h.gold });
    for (let k = 0; k < 8; k++) s.stars.push({ x: h.x, y: h.y - s.r, a: k / 8 * Math.PI * 2, t: 0 });
  }

  CrumbGame.register({
    genre: "whack",
    size: [480, 640],
    controls: "Tap the moles \u00b7 keys 1-9 or arrows + Space",

    init(api) {
      const n = Math.max(2, Math.min(5, (api.cfg && api.cfg.grid) || 3));
      const top = api.top + 70, cell = Math.min((W - 20) / n, (H - top - 10) / n);
      const ox = (W - cell * n) / 2;
      const holes = [];
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
        holes.push({ x: ox + (c + 0.5) * cell, y: top + (r + 0.72) * cell, state: "down", k: 0, stay: 0, gold: false, hitT: 0 });
      }
      return { n, cell, r: cell * 0.34, holes, spawnT: 0.3, maxUp: Math.min(3, n * n - 1), combo: 0, hits: 0, misses: 0, swings: 0,
        spawned: 0, cur: Math.floor(n * n / 2), keys: false, hammer: null, floats: [], stars: [] };
    },

    update(s, dt, input, api) {
      const n = s.n;
      for (const key of input.pressed) {
        const num = parseInt(key, 10);
        if (num >= 1 && num <= s.holes.length) { s.keys = true; s.cur = num - 1; const h = s.holes[s.cur]; whack(s, s.cur, api, h.x, h.y - s.r); continue; }
        const d = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[key];
        if (d) {
          s.keys = true;
          const r = Math.max(0, Math.min(n - 1, Math.floor(s.cur / n) + d[0])), c = Math.max(0, Math.min(n - 1, s.cur % n + d[1]));
          s.cur = r * n + c;
        } else if (key === " " || key === "Enter") { s.keys = true; const h = s.holes[s.cur]; whack(s, s.cur, api, h.x, h.y - s.r); }
      }
      for (const c of input.clicks) { s.keys = false; whack(s, holeAt(s, c.x, c.y), api, c.x, c.y); }

      s.spawnT -= dt;
      if (s.spawnT <= 0) {
        popUp(s, api);
        s.spawnT = Math.max(0.3, 0.9 - 0.01 * api.time) / api.speed * (0.7 + api.rng() * 0.6);
      }
      for (const h of s.holes) {
        if (h.state === "up") {
          h.k = Math.min(1, h.k + dt / RISE_S);
          h.stay -= dt;
          if (h.stay <= 0) {
            h.state = "hiding"; s.misses++; s.combo = 0;
            if (api.cfg.lives) api.loseLife();
          }
        } else if (h.state === "hiding") {
          h.k -= dt / RISE_S;
          if (h.k <= 0) { h.k = 0; h.state = "down"; }
        } else if (h.state === "hit") {
          h.hitT -= dt;
          if (h.hitT <= 0.15) h.k = Math.max(0, h.hitT / 0.15);
          if (h.hitT <= 0) { h.k = 0; h.state = "down"; }
        }
      }
      if (s.hammer) { s.hammer.t -= dt; if (s.hammer.t <= 0) s.hammer = null; }
      for (const f of s.floats) f.t += dt;
      s.floats = s.floats.filter((f) => f.t < 0.9);
      for (const q of s.stars) q.t += dt;
      s.stars = s.stars.filter((q) => q.t < 0.5);
    },

    draw(g, s, api) {
      const pal = api.pal, R = s.r;
      g.imageSmoothingEnabled = false;
      g.drawImage(sprite("lawn" + s.n, W, H, scaleOf(g), (cg) => {
        const sky = cg.createLinearGradient(0, 0, 0, H);
        sky.addColorStop(0, "#5fb04a"); sky.addColorStop(1, "#2f7a32");
        cg.fillStyle = sky; cg.fillRect(0, 0, W, H);
        // grass tufts, fixed pattern
        cg.strokeStyle = "rgba(20,70,20,0.35)"; cg.lineWidth = 2;
        for (let i = 0; i < 70; i++) {
          const x = (i * 97) % W, y = api.top + 20 + ((i * 53) % (H - api.top - 20));
          if (s.holes.some((h) => Math.abs(x - h.x) < R * 1.6 && y > h.y - R * 2.2 && y < h.y + R * 0.8)) continue;
          cg.beginPath(); cg.moveTo(x, y); cg.lineTo(x - 3, y - 8); cg.moveTo(x + 3, y); cg.lineTo(x + 5, y - 9); cg.stroke();
        }
      }), 0, 0, W, H);
      g.imageSmoothingEnabled = true;
      api.text(g, "Combo x" + Math.max(1, s.combo), 20, api.top + 32, 20, s.combo > 1 ? "#fff59d" : "#f1f8e9", "left");
      api.text(g, "Missed " + s.misses, W - 20, api.top + 32, 20, "#f1f8e9", "right");

      s.holes.forEach((h, i) => {
        // hole
        g.fillStyle = "#3b2414"; g.beginPath(); g.ellipse(h.x, h.y, R * 1.25, R * 0.45, 0, 0, Math.PI * 2); g.fill();
        g.fillStyle = "#1a0e06"; g.beginPath(); g.ellipse(h.x, h.y + 2, R * 1.05, R * 0.34, 0, 0, Math.PI * 2); g.fill();
        if (h.k > 0) {
          const rise = h.k * R * 1.5;
          g.save();
          g.beginPath(); g.rect(h.x - R * 1.5, h.y - R * 3, R * 3, R * 3); g.ellipse(h.x, h.y, R * 1.05, R * 0.34, 0, 0, Math.PI); g.clip();
          const by = h.y + R * 0.9 - rise;
          const body = g.createRadialGradient(h.x - R * 0.3, by - R * 0.5, R * 0.1, h.x, by, R * 1.1);
          if (h.gold) { body.addColorStop(0, "#fff7c2"); body.addColorStop(1, "#d99a00"); }
          else { body.addColorStop(0, "#b5835a"); body.addColorStop(1, "#6b4226"); }
          g.fillStyle = body; g.beginPath(); g.ellipse(h.x, by, R * 0.85, R * 1.05, 0, 0, Math.PI * 2); g.fill();
          // face
          const hit = h.state === "hit";
          g.strokeStyle = "#1b1b1b"; g.fillStyle = "#1b1b1b"; g.lineWidth = 2.5;
          for (const sx of [-1, 1]) {
            const ex = h.x + sx * R * 0.32, ey = by - R * 0.35;
            if (hit) { g.beginPath(); g.moveTo(ex - 5, ey - 5); g.lineTo(ex + 5, ey + 5); g.moveTo(ex + 5, ey - 5); g.lineTo(ex - 5, ey + 5); g.stroke(); }
            else { g.beginPath(); g.arc(ex, ey, R * 0.1, 0, Math.PI * 2); g.fill(); g.fillStyle = "#fff"; g.beginPath(); g.arc(ex + 2, ey - 2, R * 0.035, 0, Math.PI * 2); g.fill(); g.fillStyle = "#1b1b1b"; }
          }
          g.fillStyle = h.gold ? "#fff1d0" : "#e8c9a8"; g.beginPath(); g.ellipse(h.x, by, R * 0.42, R * 0.28, 0, 0, Math.PI * 2); g.fill();
          g.fillStyle = "#ff7aa2"; g.beginPath(); g.ellipse(h.x, by - R * 0.1, R * 0.14, R * 0.1, 0, 0, Math.PI * 2); g.fill();
          g.fillStyle = "#fff"; g.fillRect(h.x - R * 0.1, by + R * 0.06, R * 0.09, R * 0.14); g.fillRect(h.x + R * 0.01, by + R * 0.06, R * 0.09, R * 0.14);
          g.restore();
        }
        // front lip of the hole
        g.strokeStyle = "#7a4a25"; g.lineWidth = R * 0.16;
        g.beginPath(); g.ellipse(h.x, h.y, R * 1.18, R * 0.4, 0, 0.05, Math.PI - 0.05); g.stroke();
        if (s.keys && i === s.cur) {
          g.strokeStyle = "#fff59d"; g.lineWidth = 3; g.setLineDash([8, 6]);
          g.beginPath(); g.ellipse(h.x, h.y - R * 0.5, R * 1.45, R * 1.45, 0, 0, Math.PI * 2); g.stroke(); g.setLineDash([]);
        }
        if (s.n <= 3) api.text(g, String(i + 1), h.x + R * 1.3, h.y + R * 0.45, 13, "rgba(255,255,255,0.55)", "center");
      });
      for (const q of s.stars) {
        const d = 20 + q.t * 90;
        g.globalAlpha = 1 - q.t / 0.5; g.fillStyle = "#fff59d";
        g.beginPath(); g.arc(q.x + Math.cos(q.a) * d, q.y + Math.sin(q.a) * d * 0.6, 4, 0, Math.PI * 2); g.fill();
      }
      g.globalAlpha = 1;
      for (const f of s.floats) {
        g.globalAlpha = 1 - f.t / 0.9;
        g.save(); g.shadowColor = "rgba(0,0,0,0.7)"; g.shadowBlur = 4;
        api.text(g, f.text, f.x, f.y - 40 * f.t, f.gold ? 30 : 24, f.gold ? "#ffd54f" : "#ffffff", "center");
        g.restore();
      }
      g.globalAlpha = 1;
      if (s.hammer) {
        const k = s.hammer.t / 0.15, a = -0.9 * k;
        g.save(); g.translate(s.hammer.x + 20, s.hammer.y + 10); g.rotate(a);
        g.fillStyle = "#8d5a2b"; g.fillRect(-4, 0, 8, 60);
        const hg = g.createLinearGradient(-26, -18, 26, 18);
        hg.addColorStop(0, "#d7dde8"); hg.addColorStop(1, "#7b8699");
        g.fillStyle = hg; api.roundRect(g, -28, -22, 56, 30, 8); g.fill();
        g.restore();
      }
      void pal;
    },

    hook(s) {
      let best = -1;
      s.holes.forEach((h, i) => { if (h.state === "up" && (best < 0 || h.stay < s.holes[best].stay)) best = i; });
      const hint = [];
      if (best >= 0) {
        const h = s.holes[best];
        hint.push({ type: "click", x: +(h.x / W).toFixed(4), y: +((h.y - s.r * 0.6) / H).toFixed(4) });
      }
      return {
        hint, combo: s.combo, hits: s.hits, misses: s.misses, swings: s.swings, cursor: s.cur + 1,
        molesUp: s.holes.filter((h) => h.state === "up").length, holes: s.holes.length, grid: s.n,
        up: s.holes.map((h, i) => (h.state === "up" ? i + 1 : 0)).filter(Boolean),   // hole numbers (keys 1-9)
      };
    },
  });
})();
