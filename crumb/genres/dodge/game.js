/* Dodge: survive the falling hazards until the clock runs out; grab stars for points. */
(function () {
  var PR = 14, STAR_R = 11;

  function spawnHazard(s, api) {
    var r = 10 + api.randInt(3) * 6;
    var fromSide = s.t > 20 && api.rng() < 0.25;
    var v = (150 + Math.min(200, s.t * 5)) * api.speed * (0.8 + api.rng() * 0.5);
    if (fromSide) {
      var left = api.rng() < 0.5;
      s.haz.push({x: left ? -r : api.W + r, y: api.top + 40 + api.rng() * (api.H - api.top - 120), vx: left ? v : -v, vy: 0, r: r, spin: api.rng() * 6});
    } else {
      s.haz.push({x: r + api.rng() * (api.W - 2 * r), y: api.top - r, vx: (api.rng() - 0.5) * 60, vy: v, r: r, spin: api.rng() * 6});
    }
  }

  function spawnStar(s, api) {
    // Never on top of the player: a star should take a move to reach.
    for (var i = 0; i < 12; i++) {
      s.star = {x: 40 + api.rng() * (api.W - 80), y: api.top + 80 + api.rng() * (api.H - api.top - 180), age: 0};
      if (Math.hypot(s.star.x - s.x, s.star.y - s.y) > 120) return;
    }
  }

  // Would standing at (x, y) be hit within `ahead` seconds?
  function danger(s, x, y, ahead) {
    var worst = 0;
    for (var i = 0; i < s.haz.length; i++) {
      var h = s.haz[i];
      for (var t = 0; t <= ahead; t += 0.05) {
        var dx = h.x + h.vx * t - x, dy = h.y + h.vy * t - y, rr = h.r + PR + 10;
        if (dx * dx + dy * dy < rr * rr) { worst = Math.max(worst, 1 - t / (ahead + 0.01)); break; }
      }
    }
    return worst;
  }

  CrumbGame.register({
    genre: "dodge",
    size: [480, 720],
    survive: true,
    controls: "Arrows / WASD / drag to move · grab stars, dodge the rest",
    init: function (api) {
      var s = {x: api.W / 2, y: api.H - 110, t: 0, acc: 0, haz: [], star: null, stars: 0, inv: 0, push: {x: 0, y: 0, t: 0}, drag: null};
      spawnStar(s, api);
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      if (s.inv > 0) s.inv -= dt;
      var v = 300 * api.speed, mx = 0, my = 0;
      var K = {ArrowLeft: [-1, 0], a: [-1, 0], A: [-1, 0], ArrowRight: [1, 0], d: [1, 0], D: [1, 0],
               ArrowUp: [0, -1], w: [0, -1], W: [0, -1], ArrowDown: [0, 1], s: [0, 1], S: [0, 1]};
      for (var i = 0; i < input.pressed.length; i++) {
        var kk = K[input.pressed[i]];
        if (kk) { s.push = {x: kk[0], y: kk[1], t: 0.15}; }
      }
      if (s.push.t > 0) { s.push.t -= dt; mx += s.push.x; my += s.push.y; }
      input.held.forEach(function (key) { var k2 = K[key]; if (k2) { mx += k2[0]; my += k2[1]; } });
      if (mx || my) {
        var n = Math.hypot(mx, my); s.x += mx / n * v * dt; s.y += my / n * v * dt; s.drag = null;
      } else if (input.pointer.down) {
        s.drag = {x: input.pointer.x, y: input.pointer.y - 40};
      }
      for (var c = 0; c < input.clicks.length; c++) s.drag = {x: input.clicks[c].x, y: input.clicks[c].y};
      if (s.drag) {
        var dx = s.drag.x - s.x, dy = s.drag.y - s.y, d = Math.hypot(dx, dy), st = v * 1.3 * dt;
        if (d <= st) { s.x = s.drag.x; s.y = s.drag.y; if (!input.pointer.down) s.drag = null; }
        else { s.x += dx / d * st; s.y += dy / d * st; }
      }
      s.x = api.clamp(s.x, PR, api.W - PR); s.y = api.clamp(s.y, api.top + PR, api.H - PR);
      var rate = (1.2 + Math.min(3.5, s.t * 0.08)) * api.speed;
      s.acc += dt * rate;
      while (s.acc >= 1) { s.acc -= 1; spawnHazard(s, api); }
      for (var h = s.haz.length - 1; h >= 0; h--) {
        var z = s.haz[h];
        z.x += z.vx * dt; z.y += z.vy * dt; z.spin += dt * 3;
        if (z.y - z.r > api.H || z.x < -60 || z.x > api.W + 60) {
          s.haz.splice(h, 1);
          api.addScore(1);
          continue;
        }
        var ddx = z.x - s.x, ddy = z.y - s.y;
        if (s.inv <= 0 && ddx * ddx + ddy * ddy < (z.r + PR - 3) * (z.r + PR - 3)) {
          s.haz.splice(h, 1);
          api.burst(s.x, s.y, api.pal.danger, 26);
          if (api.loseLife()) s.inv = 1.5;
          else return;
        }
      }
      if (s.star) {
        s.star.age += dt;
        if (Math.hypot(s.star.x - s.x, s.star.y - s.y) < PR + STAR_R + 2) {
          s.stars++;
          api.burst(s.star.x, s.star.y, api.pal.accent2, 18);
          api.popup("+10", s.star.x, s.star.y - 14, api.pal.accent2);
          api.addScore(10);
          spawnStar(s, api);
        } else if (s.star.age > 7) spawnStar(s, api);
      }
    },
    draw: function (g, s, api) {
      var p = api.pal;
      var bg = g.createLinearGradient(0, 0, 0, api.H);
      bg.addColorStop(0, api.shade(p.bg, 18)); bg.addColorStop(1, api.shade(p.bg, -4));
      g.fillStyle = bg; g.fillRect(0, 0, api.W, api.H);
      g.strokeStyle = api.alpha(p.fg, 0.08); g.lineWidth = 1;
      var off = (s.t * 30) % 40;
      g.beginPath();
      for (var y = api.top + off; y < api.H; y += 40) { g.moveTo(0, y); g.lineTo(api.W, y); }
      for (var x = 0; x < api.W; x += 40) { g.moveTo(x, api.top); g.lineTo(x, api.H); }
      g.stroke();
      if (s.star) {
        var st = s.star, pulse = 1 + 0.12 * Math.sin(st.age * 8);
        g.save(); g.translate(st.x, st.y); g.rotate(st.age); g.scale(pulse, pulse);
        api.glow(g, 0, 0, STAR_R * 2.2, p.accent2); g.fillStyle = p.accent2;
        g.beginPath();
        for (var k = 0; k < 10; k++) {
          var rad = k % 2 ? STAR_R * 0.45 : STAR_R, a = k * Math.PI / 5 - Math.PI / 2;
          g.lineTo(Math.cos(a) * rad, Math.sin(a) * rad);
        }
        g.closePath(); g.fill(); g.restore();
      }
      for (var i = 0; i < s.haz.length; i++) {
        var z = s.haz[i];
        g.save(); g.translate(z.x, z.y); g.rotate(z.spin);
        var hg = g.createRadialGradient(-z.r * 0.3, -z.r * 0.3, 1, 0, 0, z.r);
        hg.addColorStop(0, api.shade(p.danger, 60)); hg.addColorStop(1, p.danger);
        g.fillStyle = hg;
        g.beginPath();
        for (var j = 0; j < 8; j++) {
          var ang = j * Math.PI / 4, rr = j % 2 ? z.r * 0.78 : z.r;
          g.lineTo(Math.cos(ang) * rr, Math.sin(ang) * rr);
        }
        g.closePath(); g.fill(); g.restore();
      }
      g.save();
      if (s.inv > 0 && Math.floor(s.inv * 12) % 2) g.globalAlpha = 0.3;
      api.glow(g, s.x, s.y, PR * 2.6, p.accent);
      var pg = g.createRadialGradient(s.x - 4, s.y - 4, 2, s.x, s.y, PR);
      pg.addColorStop(0, "#ffffff"); pg.addColorStop(1, p.accent);
      g.fillStyle = pg; g.beginPath(); g.arc(s.x, s.y, PR, 0, Math.PI * 2); g.fill();
      g.restore();
    },
    hook: function (s, api) {
      // Pick the move (or none) that keeps clear of hazards, preferring the star.
      var opts = [[null, 0, 0], ["ArrowLeft", -1, 0], ["ArrowRight", 1, 0], ["ArrowUp", 0, -1], ["ArrowDown", 0, 1]];
      var best = null, bestScore = -Infinity, step = 45;
      for (var i = 0; i < opts.length; i++) {
        var o = opts[i];
        var nx = api.clamp(s.x + o[1] * step, PR, api.W - PR), ny = api.clamp(s.y + o[2] * step, api.top + PR, api.H - PR);
        var sc = -danger(s, nx, ny, 0.6) * 100;
        if (s.star) sc -= Math.hypot(s.star.x - nx, s.star.y - ny) * 0.05;
        if (o[0] === null) sc -= 0.5;
        if (sc > bestScore) { bestScore = sc; best = o; }
      }
      return {hint: best && best[0] ? [{type: "key", key: best[0]}] : [], starsCollected: s.stars,
              hazards: s.haz.length, player: {x: Math.round(s.x), y: Math.round(s.y)},
              star: s.star ? {x: Math.round(s.star.x), y: Math.round(s.star.y)} : null};
    },
  });
})();
