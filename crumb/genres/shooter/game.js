/* Shooter: a formation of invaders marches down; move, fire, clear the wave before it lands. */
(function () {
  var SW = 40, SH = 30, EW = 34, EH = 24, BULLET_V = 620, COOL = 0.16;

  function shipY(api) { return api.H - 70; }

  function wave(s, api) {
    var rows = Math.min(5, 2 + s.wave), cols = 6;
    s.enemies = [];
    for (var r = 0; r < rows; r++) for (var c = 0; c < cols; c++) {
      s.enemies.push({x: 60 + c * 62, y: api.top + 40 + r * 46, row: r, phase: api.rng() * 6});
    }
    s.dir = 1; s.eShots = []; s.march = (40 + 14 * s.wave) * api.speed;
  }

  function fire(s, api) {
    if (s.cool > 0 || s.shots.length >= 4) return;
    s.shots.push({x: s.x, y: shipY(api) - SH / 2});
    s.cool = COOL;
    api.beep(880);
  }

  CrumbGame.register({
    genre: "shooter",
    size: [480, 720],
    controls: "← → / A D move · Space fires · drag or click to aim",
    init: function (api) {
      var s = {x: api.W / 2, tx: null, cool: 0, shots: [], wave: 1, inv: 0, t: 0, killed: 0, lastPtr: null, stars: []};
      for (var i = 0; i < 60; i++) s.stars.push({x: api.rng() * api.W, y: api.rng() * api.H, z: 0.3 + api.rng() * 0.7});
      wave(s, api);
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      if (s.cool > 0) s.cool -= dt;
      if (s.inv > 0) s.inv -= dt;
      var v = 380 * api.speed;
      for (var i = 0; i < input.pressed.length; i++) {
        var k = input.pressed[i];
        if (k === "ArrowLeft" || k === "a" || k === "A") { s.x -= 30; s.tx = null; }
        if (k === "ArrowRight" || k === "d" || k === "D") { s.x += 30; s.tx = null; }
        if (k === " " || k === "ArrowUp" || k === "w" || k === "W") fire(s, api);
      }
      if (input.held.has("ArrowLeft") || input.held.has("a") || input.held.has("A")) { s.x -= v * dt; s.tx = null; }
      if (input.held.has("ArrowRight") || input.held.has("d") || input.held.has("D")) { s.x += v * dt; s.tx = null; }
      if ((input.held.has(" ") || input.pointer.down) && s.cool <= 0) fire(s, api);
      if (s.lastPtr !== null && input.pointer.x !== s.lastPtr) s.tx = input.pointer.x;
      s.lastPtr = input.pointer.x;
      for (var c = 0; c < input.clicks.length; c++) { s.tx = input.clicks[c].x; fire(s, api); }
      if (s.tx !== null) { var d = s.tx - s.x, st = v * 1.4 * dt; s.x += Math.abs(d) < st ? d : (d > 0 ? st : -st); }
      s.x = api.clamp(s.x, SW / 2 + 6, api.W - SW / 2 - 6);
      for (var q = 0; q < s.stars.length; q++) { var star = s.stars[q]; star.y += 40 * star.z * dt; if (star.y > api.H) star.y -= api.H; }

      // Formation march: sideways, stepping down at the edges.
      var minX = Infinity, maxX = -Infinity, maxY = 0;
      for (var e = 0; e < s.enemies.length; e++) { minX = Math.min(minX, s.enemies[e].x); maxX = Math.max(maxX, s.enemies[e].x); maxY = Math.max(maxY, s.enemies[e].y); }
      var dx = s.dir * s.march * (1 + (1 - s.enemies.length / 30)) * dt, drop = 0;
      if ((s.dir > 0 && maxX + EW / 2 + dx > api.W - 10) || (s.dir < 0 && minX - EW / 2 + dx < 10)) { s.dir = -s.dir; dx = 0; drop = 18; }
      for (var f = 0; f < s.enemies.length; f++) { s.enemies[f].x += dx; s.enemies[f].y += drop; }
      if (maxY + EH / 2 >= shipY(api) - SH) {
        api.burst(s.x, shipY(api), api.pal.danger, 30);
        if (api.loseLife()) { wave(s, api); s.inv = 1.5; }
        return;
      }
      // Enemy fire: the lowest enemy of a random column shoots now and then.
      if (s.enemies.length && api.rng() < dt * (0.6 + 0.25 * s.wave) * api.speed) {
        var shooter = s.enemies[api.randInt(s.enemies.length)];
        s.eShots.push({x: shooter.x, y: shooter.y + EH / 2, vy: (200 + 20 * s.wave) * api.speed});
      }
      for (var b = s.shots.length - 1; b >= 0; b--) {
        var sh = s.shots[b];
        sh.y -= BULLET_V * dt;
        if (sh.y < api.top) { s.shots.splice(b, 1); continue; }
        for (var n = 0; n < s.enemies.length; n++) {
          var en = s.enemies[n];
          if (Math.abs(sh.x - en.x) < EW / 2 + 3 && Math.abs(sh.y - en.y) < EH / 2 + 6) {
            s.enemies.splice(n, 1); s.shots.splice(b, 1); s.killed++;
            var pts = 10 + (4 - Math.min(4, en.row)) * 5;
            api.burst(en.x, en.y, api.mix(api.pal.accent, api.pal.accent2, en.row / 4), 16);
            api.popup("+" + pts, en.x, en.y - 10, api.pal.text);
            api.addScore(pts);
            break;
          }
        }
      }
      for (var m = s.eShots.length - 1; m >= 0; m--) {
        var es = s.eShots[m];
        es.y += es.vy * dt;
        if (es.y > api.H) { s.eShots.splice(m, 1); continue; }
        if (s.inv <= 0 && Math.abs(es.x - s.x) < SW / 2 && Math.abs(es.y - shipY(api)) < SH / 2) {
          s.eShots.splice(m, 1);
          api.burst(s.x, shipY(api), api.pal.danger, 30);
          if (api.loseLife()) s.inv = 1.5;
          return;
        }
      }
      if (!s.enemies.length && api.phase === "playing") {
        s.wave++;
        api.setLevel(s.wave);
        if (api.phase === "playing") { wave(s, api); s.shots = []; }
      }
    },
    draw: function (g, s, api) {
      var p = api.pal;
      var bg = g.createRadialGradient(api.W / 2, api.H * 0.3, 40, api.W / 2, api.H * 0.5, api.H * 0.8);
      bg.addColorStop(0, api.shade(p.bg, 22)); bg.addColorStop(1, p.bg);
      g.fillStyle = bg; g.fillRect(0, 0, api.W, api.H);
      for (var i = 0; i < s.stars.length; i++) {
        var st = s.stars[i];
        g.fillStyle = api.alpha(p.fg, 0.25 + st.z * 0.6); g.fillRect(st.x, st.y, st.z * 2.4, st.z * 2.4);
      }
      // the invaders: aliens, a domed body on wriggling legs with two eyes
      for (var e = 0; e < s.enemies.length; e++) {
        var en = s.enemies[e], col = api.mix(p.accent, p.accent2, en.row / 4);
        var wob = Math.sin(s.t * 5 + en.phase) * 3;
        g.fillStyle = col;
        g.beginPath();
        g.moveTo(en.x - EW / 2, en.y + EH / 2); g.lineTo(en.x - EW / 2 + 4, en.y - EH / 4);
        g.quadraticCurveTo(en.x, en.y - EH / 2 - 6, en.x + EW / 2 - 4, en.y - EH / 4);
        g.lineTo(en.x + EW / 2, en.y + EH / 2); g.lineTo(en.x + EW / 4, en.y + EH / 4 + wob);
        g.lineTo(en.x, en.y + EH / 2); g.lineTo(en.x - EW / 4, en.y + EH / 4 - wob); g.closePath(); g.fill();
        g.fillStyle = p.bg;
        g.fillRect(en.x - 8, en.y - 3, 5, 5); g.fillRect(en.x + 3, en.y - 3, 5, 5);
      }
      g.fillStyle = p.accent2;
      for (var b = 0; b < s.shots.length; b++) { api.roundRect(g, s.shots[b].x - 2, s.shots[b].y - 8, 4, 14, 2); g.fill(); }
      g.fillStyle = p.danger;
      for (var m = 0; m < s.eShots.length; m++) { g.beginPath(); g.arc(s.eShots[m].x, s.eShots[m].y, 4, 0, Math.PI * 2); g.fill(); }
      // the player's spaceship: a delta hull over a flickering exhaust
      var y = shipY(api);
      g.save();
      if (s.inv > 0 && Math.floor(s.inv * 12) % 2) g.globalAlpha = 0.3;
      g.fillStyle = api.alpha(p.accent2, 0.5 + 0.3 * Math.sin(s.t * 30));
      g.beginPath(); g.moveTo(s.x - 7, y + SH / 2); g.lineTo(s.x, y + SH / 2 + 14 + Math.sin(s.t * 40) * 4); g.lineTo(s.x + 7, y + SH / 2); g.fill();
      var sg = g.createLinearGradient(0, y - SH / 2, 0, y + SH / 2);
      sg.addColorStop(0, p.text); sg.addColorStop(1, p.accent);
      api.glow(g, s.x, y, SW, p.accent); g.fillStyle = sg;
      g.beginPath(); g.moveTo(s.x, y - SH / 2); g.lineTo(s.x + SW / 2, y + SH / 2); g.lineTo(s.x, y + SH / 4); g.lineTo(s.x - SW / 2, y + SH / 2); g.closePath(); g.fill();
      g.restore();
    },
    hook: function (s, api) {
      var hint = [], y = shipY(api);
      var threat = null;
      for (var m = 0; m < s.eShots.length; m++) {
        var es = s.eShots[m];
        if (es.y < y && y - es.y < 110 && Math.abs(es.x - s.x) < SW / 2 + 6) { threat = es; break; }
      }
      // A click moves the ship to that x and fires: robust whatever the input cadence.
      var aimX = s.x;
      if (threat) aimX = threat.x > s.x ? s.x - 70 : s.x + 70;
      else if (s.enemies.length) {
        var bestD = Infinity;
        for (var e = 0; e < s.enemies.length; e++) {
          var en = s.enemies[e], lead = en.x + s.dir * s.march * ((y - en.y) / BULLET_V + 0.1);
          var d = Math.abs(lead - s.x) - en.y * 0.05;
          if (d < bestD) { bestD = d; aimX = lead; }
        }
      }
      aimX = api.clamp(aimX, SW / 2 + 6, api.W - SW / 2 - 6);
      if (threat || s.enemies.length) hint = [{type: "click", x: Math.round(aimX / api.W * 1000) / 1000, y: 0.85}];
      return {hint: hint, enemiesLeft: s.enemies.length, wave: s.wave, shipX: Math.round(s.x), killed: s.killed};
    },
  });
})();
