// Clicker / idle: tap the orb for coins, spend coins on upgrades that tap harder or earn by themselves.
// The score is everything ever earned, so spending never lowers it.
// Mouse/touch: tap the orb, the upgrades and the bonus star. Keyboard: Space taps, 1-3 buy.
(function () {
  "use strict";

  const W = 480, H = 720;
  const UPGRADES = [
    { id: "power", name: "Stronger taps", info: "+1 per tap", cost: 15, grow: 1.5 },
    { id: "helper", name: "Helper", info: "+1 per second", cost: 25, grow: 1.35 },
    { id: "factory", name: "Factory", info: "+8 per second", cost: 220, grow: 1.4 },
  ];

  // Painted once into sprites: per-frame gradients and shadows make a software canvas slow.
  const { sprite, scaleOf } = CrumbGame; // static art painted once, at the drawing scale

  function costOf(s, i) { const u = UPGRADES[i]; return Math.round(u.cost * Math.pow(u.grow, s.owned[u.id])); }
  function perClick(s) { return 1 + s.owned.power; }
  function perSecond(s) { return s.owned.helper + 8 * s.owned.factory; }

  function earn(s, n, api) {
    s.coins += n;
    s.frac += n;
    const whole = Math.floor(s.frac);
    if (whole > 0) { s.frac -= whole; api.addScore(whole); }
  }

  function tapOrb(s, api) {
    const n = perClick(s);
    earn(s, n, api);
    s.taps++; s.pulse = 1;
    s.floats.push({ text: "+" + n, x: s.orb.x + (api.rng() - 0.5) * 120, y: s.orb.y - s.orb.r * 0.6, t: 0 });
  }

  function buy(s, i, api) {
    const c = costOf(s, i);
    if (s.coins < c) { s.rows[i].deny = 0.3; return; }
    s.coins -= c; s.owned[UPGRADES[i].id]++; s.rows[i].flash = 0.3;
    void api;
  }

  // a chocolate-chip cookie: a baked disc, a darker rim, chips and crumbs at fixed places
  const CHIPS = [[-0.42, -0.38, 0.15], [0.18, -0.52, 0.12], [0.5, -0.1, 0.14], [-0.08, -0.05, 0.13],
                 [-0.55, 0.18, 0.12], [0.25, 0.3, 0.15], [-0.2, 0.55, 0.11], [0.55, 0.42, 0.1], [0.05, 0.72, 0.08]];
  function drawCookie(cg, R, size) {
    cg.translate(size / 2, size / 2);
    cg.shadowColor = "rgba(60,30,10,0.5)"; cg.shadowBlur = 24;
    const body = cg.createRadialGradient(-R * 0.3, -R * 0.35, R * 0.1, 0, 0, R);
    body.addColorStop(0, "#f0c27b"); body.addColorStop(0.7, "#d99a4e"); body.addColorStop(1, "#a8672c");
    cg.fillStyle = body; cg.beginPath(); cg.arc(0, 0, R, 0, Math.PI * 2); cg.fill();
    cg.shadowColor = "transparent";
    cg.fillStyle = "#3d2314";
    for (const [x, y, q] of CHIPS) {
      cg.beginPath(); cg.ellipse(x * R, y * R, q * R, q * R * 0.8, x * 3, 0, Math.PI * 2); cg.fill();
    }
    cg.fillStyle = "rgba(255,236,200,0.35)";
    for (const [x, y] of CHIPS) { cg.beginPath(); cg.arc((x + 0.12) * R, (y - 0.16) * R, R * 0.03, 0, Math.PI * 2); cg.fill(); }
  }

  function inside(p, r) { return p.x >= r.x && p.x <= r.x + r.w && p.y >= r.y && p.y <= r.y + r.h; }

  function fmt(n) {
    n = Math.floor(n);
    if (n < 10000) return String(n);
    if (n < 1e6) return (n / 1000).toFixed(n < 1e5 ? 1 : 0) + "k";
    return (n / 1e6).toFixed(2) + "M";
  }

  CrumbGame.register({
    genre: "clicker",
    size: [480, 720],
    controls: "Tap the orb \u00b7 buy upgrades \u00b7 Space taps, 1-3 buy",

    init(api) {
      const rowsTop = 450, rh = 72;
      return {
        coins: 0, frac: 0, taps: 0, pulse: 0, spin: 0,
        owned: { power: 0, helper: 0, factory: 0 },
        orb: { x: W / 2, y: api.top + 225, r: 100 },
        rows: UPGRADES.map((u, i) => ({ x: 20, y: rowsTop + i * (rh + 12), w: W - 40, h: rh, flash: 0, deny: 0 })),
        floats: [], star: null, starT: 8, idleFrac: 0,
        // a cookie instead of the orb when the spec's extras ask ("cookie clicker", "click the cookie")
        cookie: !!(api.cfg && api.cfg.extras && api.cfg.extras.indexOf("cookies") >= 0),
      };
    },

    update(s, dt, input, api) {
      s.spin += dt;
      for (const k of input.pressed) {
        if (k === " " || k === "Enter") tapOrb(s, api);
        else if (k === "1" || k === "2" || k === "3") buy(s, +k - 1, api);
      }
      for (const c of input.clicks) {
        const st = s.star;
        if (st && Math.hypot(c.x - st.x, c.y - st.y) < 34) {
          const bonus = Math.max(25, perSecond(s) * 10);
          earn(s, bonus, api);
          s.floats.push({ text: "BONUS +" + fmt(bonus), x: Math.max(90, Math.min(W - 90, st.x)), y: st.y, t: 0, big: true });
          s.star = null;
          continue;
        }
        if (Math.hypot(c.x - s.orb.x, c.y - s.orb.y) <= s.orb.r * 1.1) { tapOrb(s, api); continue; }
        const i = s.rows.findIndex((r) => inside(c, r));
        if (i >= 0) buy(s, i, api);
      }
      const ps = perSecond(s);
      if (ps > 0) earn(s, ps * dt, api);
      // a bonus star drifts across now and then
      if (s.star) {
        s.star.t += dt; s.star.x += s.star.vx * dt; s.star.y = s.star.y0 + Math.sin(s.star.t * 3) * 14;
        if (s.star.t > 4 || s.star.x < -40 || s.star.x > W + 40) s.star = null;
      } else {
        s.starT -= dt;
        if (s.starT <= 0) {
          const left = api.rng() < 0.5;
          s.star = { x: left ? 30 : W - 30, y0: api.top + 60 + api.rng() * 60, y: 0, vx: left ? 90 : -90, t: 0 };
          s.starT = 10 + api.rng() * 8;
        }
      }
      s.pulse = Math.max(0, s.pulse - dt * 6);
      for (const r of s.rows) { r.flash = Math.max(0, r.flash - dt); r.deny = Math.max(0, r.deny - dt); }
      for (const f of s.floats) f.t += dt;
      s.floats = s.floats.filter((f) => f.t < (f.big ? 1.4 : 0.8));
      if (s.floats.length > 30) s.floats.splice(0, s.floats.length - 30);
    },

    draw(g, s, api) {
      // Sprites are painted at the canvas's pixel scale and blitted 1:1; smoothing would resample
      // every blit (measured: about 4x the frame cost in headless Chromium). Scaled blits turn it on.
      g.imageSmoothingEnabled = false;
      const pal = api.pal, o = s.orb;
      const bg = g.createLinearGradient(0, 0, 0, H);
      bg.addColorStop(0, pal.bg); bg.addColorStop(1, api.mix(pal.bg, "#3b1d5e", 0.55));
      g.fillStyle = bg; g.fillRect(0, 0, W, H);
      // wallet
      api.text(g, fmt(s.coins) + (Math.floor(s.coins) === 1 ? " coin" : " coins"), W / 2, api.top + 30, 30, pal.accent2, "center");
      api.text(g, fmt(perSecond(s)) + " per second \u00b7 " + perClick(s) + " per tap", W / 2, api.top + 62, 15, pal.fg, "center");
      // rays
      g.save(); g.translate(o.x, o.y); g.rotate(s.spin * 0.3);
      for (let i = 0; i < 12; i++) {
        g.rotate(Math.PI / 6);
        g.fillStyle = api.alpha(pal.accent2, 0.08);
        g.beginPath(); g.moveTo(0, 0); g.lineTo(-20, -o.r * 1.5); g.lineTo(20, -o.r * 1.5); g.closePath(); g.fill();
      }
      g.restore();
      // orb, or the cookie
      const r = o.r * (1 - 0.07 * s.pulse), m = 60, size = 2 * (o.r + m);
      const img = s.cookie ? sprite("cookie", size, size, scaleOf(g), (cg) => drawCookie(cg, o.r, size))
        : sprite("orb" + pal.accent2, size, size, scaleOf(g), (cg) => {
        const R = o.r;
        cg.translate(size / 2, size / 2);
        cg.shadowColor = pal.accent2; cg.shadowBlur = 40;
        const og = cg.createRadialGradient(-R * 0.35, -R * 0.4, R * 0.1, 0, 0, R);
        og.addColorStop(0, "#fffbe6"); og.addColorStop(0.35, api.mix(pal.accent2, "#ffffff", 0.3)); og.addColorStop(1, api.shade(pal.accent2, -80));
        cg.fillStyle = og; cg.beginPath(); cg.arc(0, 0, R, 0, Math.PI * 2); cg.fill();
        cg.shadowColor = "transparent";
        cg.strokeStyle = "rgba(255,255,255,0.6)"; cg.lineWidth = 4;
        cg.beginPath(); cg.arc(0, 0, R * 0.78, 0, Math.PI * 2); cg.stroke();
        cg.fillStyle = "rgba(255,255,255,0.45)"; cg.beginPath(); cg.ellipse(-R * 0.35, -R * 0.45, R * 0.3, R * 0.14, -0.6, 0, Math.PI * 2); cg.fill();
        api.text(cg, "TAP", 0, 4, 34, api.shade(pal.accent2, -120), "center");
        });
      const hs = size / 2 * (r / o.r);
      g.imageSmoothingEnabled = r !== o.r;
      g.drawImage(img, o.x - hs, o.y - hs, hs * 2, hs * 2);
      g.imageSmoothingEnabled = false;
      // bonus star
      if (s.star) {
        const st = s.star;
        g.save(); g.translate(st.x, st.y); g.rotate(st.t * 2);
        g.shadowColor = "#fff59d"; g.shadowBlur = 20; g.fillStyle = "#ffe066";
        g.beginPath();
        for (let k = 0; k < 10; k++) { const a = -Math.PI / 2 + k * Math.PI / 5, q = k % 2 ? 11 : 26; g.lineTo(Math.cos(a) * q, Math.sin(a) * q); }
        g.closePath(); g.fill(); g.restore();
      }
      // upgrades
      s.rows.forEach((row, i) => {
        const u = UPGRADES[i], c = costOf(s, i), can = s.coins >= c;
        const shake = row.deny > 0 ? Math.sin(row.deny * 60) * 5 : 0;
        const rg = g.createLinearGradient(row.x, row.y, row.x + row.w, row.y + row.h);
        rg.addColorStop(0, can ? api.alpha(pal.accent, 0.32) : "rgba(255,255,255,0.06)");
        rg.addColorStop(1, can ? api.alpha(pal.accent, 0.12) : "rgba(255,255,255,0.03)");
        g.fillStyle = row.flash > 0 ? api.alpha(pal.accent, 0.6) : rg;
        g.strokeStyle = can ? pal.accent : "rgba(255,255,255,0.15)"; g.lineWidth = 2;
        api.roundRect(g, row.x + shake, row.y, row.w, row.h, 16); g.fill(); g.stroke();
        api.text(g, String(i + 1), row.x + 28 + shake, row.y + row.h / 2, 22, can ? pal.accent : pal.fg, "center");
        api.text(g, u.name + "  \u00d7" + s.owned[u.id], row.x + 56 + shake, row.y + 26, 19, pal.text, "left");
        api.text(g, u.info, row.x + 56 + shake, row.y + 50, 14, pal.fg, "left");
        api.text(g, fmt(c), row.x + row.w - 18 + shake, row.y + row.h / 2, 22, can ? pal.accent2 : pal.fg, "right");
      });
      for (const f of s.floats) {
        const life = f.big ? 1.4 : 0.8;
        g.globalAlpha = Math.max(0, 1 - f.t / life);
        api.text(g, f.text, f.x, f.y - 60 * f.t, f.big ? 26 : 22, f.big ? "#fff59d" : pal.text, "center");
      }
      g.globalAlpha = 1;
      g.imageSmoothingEnabled = true;
    },

    hook(s, api) {
      const at = (x, y) => ({ type: "click", x: +(x / W).toFixed(4), y: +(y / H).toFixed(4) });
      const hint = [];
      if (s.star) hint.push(at(s.star.x + s.star.vx * 0.05, s.star.y));
      // buy the upgrade that pays back fastest, when affordable
      let best = -1, bestRate = 0;
      const value = [1 * 3, 1, 8];        // a tap upgrade is worth ~3 taps a second to an active player
      UPGRADES.forEach((u, i) => { const c = costOf(s, i); if (s.coins >= c && value[i] / c > bestRate) { bestRate = value[i] / c; best = i; } });
      if (best >= 0) hint.push(at(s.rows[best].x + s.rows[best].w / 2, s.rows[best].y + s.rows[best].h / 2));
      hint.push(at(s.orb.x, s.orb.y));
      void api;
      return {
        hint, coins: Math.floor(s.coins), perClick: perClick(s), perSecond: perSecond(s), taps: s.taps,
        upgrades: { power: s.owned.power, helper: s.owned.helper, factory: s.owned.factory },
        bonusVisible: !!s.star,
        draws: { cookies: s.cookie },
      };
    },
  });
})();
