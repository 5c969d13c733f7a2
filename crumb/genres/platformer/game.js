/* Platformer: run right, jump the pits, stomp the critters, grab coins, reach the flag. */
(function () {
  var PW = 26, PH = 36, GRAV = 1800, JUMP = -650, RUN = 250, ACC = 2200;

  function build(s, api) {
    var H = api.H, x = 0, y = H - 80, len = 2200 + 500 * s.lvl;
    s.ground = []; s.plats = []; s.coins = []; s.enemies = [];
    var first = true;
    while (x < len) {
      var w = first ? 520 : 280 + api.randInt(5) * 60;
      s.ground.push({x: x, y: y, w: w, h: H - y + 40});
      var nc = first ? 4 : 2 + api.randInt(4), cx0 = x + (first ? 200 : 60);
      for (var c = 0; c < nc && cx0 + c * 34 < x + w - 30; c++) s.coins.push({x: cx0 + c * 34, y: y - 26, got: false});
      if (!first && w >= 400 && api.rng() < 0.4 + 0.15 * s.lvl) {
        s.enemies.push({x: x + w * 0.6, y: y - 24, w: 30, h: 24, x1: x + 40, x2: x + w - 40, vx: -(60 + 15 * s.lvl) * api.speed, dead: 0});
      }
      if (!first && api.rng() < 0.45) {
        var pw = 110 + api.randInt(3) * 30, py = y - 100 - api.randInt(2) * 20;
        var px = x + 80 + api.randInt(Math.max(1, w - pw - 120));
        s.plats.push({x: px, y: py, w: pw, h: 14});
        for (var k = 0; k < 3; k++) s.coins.push({x: px + pw / 2 + (k - 1) * 30, y: py - 24, got: false});
      }
      x += w;
      var gap = 70 + api.randInt(3) * 20 + Math.min(20, s.lvl * 5);
      x += gap;
      y = api.clamp(y + (api.randInt(3) - 1) * 50, H - 170, H - 60);
      first = false;
    }
    var last = s.ground[s.ground.length - 1];
    last.w += 200;
    s.flag = {x: last.x + last.w - 120, y: last.y};
    s.spawn = {x: 60, y: s.ground[0].y - PH};
  }

  function place(s) {
    s.x = s.spawn.x; s.y = s.spawn.y; s.vx = 0; s.vy = 0; s.onGround = false; s.inv = 1.2;
  }

  // Is there ground or a platform top at height `feet` under x?
  function supported(s, x, feet) {
    var all = s.ground.concat(s.plats);
    for (var i = 0; i < all.length; i++) {
      var b = all[i];
      if (x >= b.x && x <= b.x + b.w && Math.abs(b.y - feet) < 6) return true;
    }
    return false;
  }

  function overlap(ax, ay, aw, ah, b) { return ax < b.x + b.w && ax + aw > b.x && ay < b.y + b.h && ay + ah > b.y; }

  CrumbGame.register({
    genre: "platformer",
    size: [720, 480],
    controls: "← → run · Space / ↑ jump · tap to jump, hold screen edges to run",
    init: function (api) {
      var s = {lvl: 1, t: 0, cam: 0, push: 0, pushDir: 0, coyote: 0, buffer: 0, got: 0};
      build(s, api); place(s); s.inv = 0;
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      if (s.inv > 0) s.inv -= dt;
      var dir = 0, jump = input.clicks.length > 0;
      for (var i = 0; i < input.pressed.length; i++) {
        var k = input.pressed[i];
        if (k === "ArrowRight" || k === "d" || k === "D") { s.pushDir = 1; s.push = 0.22; }
        if (k === "ArrowLeft" || k === "a" || k === "A") { s.pushDir = -1; s.push = 0.22; }
        if (k === " " || k === "ArrowUp" || k === "w" || k === "W") jump = true;
      }
      if (s.push > 0) { s.push -= dt; dir = s.pushDir; }
      if (input.held.has("ArrowRight") || input.held.has("d") || input.held.has("D")) dir = 1;
      if (input.held.has("ArrowLeft") || input.held.has("a") || input.held.has("A")) dir = -1;
      if (input.pointer.down) {
        if (input.pointer.x > api.W * 0.66) dir = 1;
        else if (input.pointer.x < api.W * 0.33) dir = -1;
      }
      var max = RUN * api.speed;
      if (dir) s.vx = api.clamp(s.vx + dir * ACC * dt, -max, max);
      else s.vx *= Math.pow(0.0005, dt);
      if (jump) s.buffer = 0.14;
      if (s.buffer > 0) s.buffer -= dt;
      if (s.onGround) s.coyote = 0.1; else s.coyote -= dt;
      if (s.buffer > 0 && s.coyote > 0) { s.vy = JUMP; s.buffer = 0; s.coyote = 0; s.onGround = false; api.beep(520); }
      s.vy = Math.min(s.vy + GRAV * dt, 1200);

      // Horizontal move, then vertical, resolving against solid ground blocks.
      s.x += s.vx * dt;
      if (s.x < 0) { s.x = 0; s.vx = 0; }
      for (var g1 = 0; g1 < s.ground.length; g1++) {
        var gb = s.ground[g1];
        if (overlap(s.x, s.y, PW, PH, gb)) {
          if (s.vx > 0) s.x = gb.x - PW; else if (s.vx < 0) s.x = gb.x + gb.w;
          s.vx = 0;
        }
      }
      var prevBottom = s.y + PH;
      s.y += s.vy * dt;
      s.onGround = false;
      for (var g2 = 0; g2 < s.ground.length; g2++) {
        var gc = s.ground[g2];
        if (overlap(s.x, s.y, PW, PH, gc)) {
          if (s.vy > 0) { s.y = gc.y - PH; s.vy = 0; s.onGround = true; }
          else if (s.vy < 0) { s.y = gc.y + gc.h; s.vy = 0; }
        }
      }
      for (var p = 0; p < s.plats.length; p++) {
        var pl = s.plats[p];
        if (s.vy >= 0 && prevBottom <= pl.y + 1 && overlap(s.x, s.y, PW, PH, pl)) { s.y = pl.y - PH; s.vy = 0; s.onGround = true; }
      }
      for (var c = 0; c < s.coins.length; c++) {
        var co = s.coins[c];
        if (!co.got && Math.abs(co.x - (s.x + PW / 2)) < 20 && Math.abs(co.y - (s.y + PH / 2)) < 26) {
          co.got = true; s.got++;
          api.burst(co.x - s.cam, co.y, api.pal.accent2, 8);
          api.addScore(10);
        }
      }
      for (var e = 0; e < s.enemies.length; e++) {
        var en = s.enemies[e];
        if (en.dead > 0) { en.dead -= dt; continue; }
        if (en.dead < 0) continue;
        en.x += en.vx * dt;
        if (en.x < en.x1 || en.x + en.w > en.x2) en.vx = -en.vx;
        if (overlap(s.x, s.y, PW, PH, en)) {
          if (s.vy > 0 && prevBottom <= en.y + 10) {
            en.dead = -1; s.vy = JUMP * 0.6;
            api.burst(en.x + en.w / 2 - s.cam, en.y, api.pal.danger, 14);
            api.popup("+20", en.x + en.w / 2 - s.cam, en.y - 10, api.pal.text);
            api.addScore(20);
          } else if (s.inv <= 0) {
            hurt(s, api);
            return;
          }
        }
      }
      if (s.y > api.H + 60) { hurt(s, api); return; }
      if (s.x + PW > s.flag.x && api.phase === "playing") {
        api.addScore(100);
        api.burst(s.flag.x - s.cam, s.flag.y - 60, api.pal.accent2, 40);
        s.lvl++;
        api.setLevel(s.lvl);
        if (api.phase === "playing") { build(s, api); place(s); s.cam = 0; }
        return;
      }
      var want = api.clamp(s.x - api.W * 0.35, 0, s.flag.x + 160 - api.W);
      s.cam += (want - s.cam) * Math.min(1, dt * 8);
    },
    draw: function (g, s, api) {
      var p = api.pal, cam = s.cam;
      var sky = g.createLinearGradient(0, 0, 0, api.H);
      sky.addColorStop(0, api.shade(p.bg, -6)); sky.addColorStop(1, api.shade(p.bg, 40));
      g.fillStyle = sky; g.fillRect(0, 0, api.W, api.H);
      g.fillStyle = api.alpha(p.fg, 0.16);
      for (var m = -1; m < 6; m++) {
        var mx = m * 220 - (cam * 0.25) % 220;
        g.beginPath(); g.moveTo(mx, api.H); g.lineTo(mx + 110, api.H - 230 - (m % 2) * 40); g.lineTo(mx + 220, api.H); g.fill();
      }
      g.save(); g.translate(-Math.round(cam), 0);
      for (var i = 0; i < s.ground.length; i++) {
        var gb = s.ground[i];
        if (gb.x > cam + api.W || gb.x + gb.w < cam) continue;
        g.fillStyle = api.shade(p.bg, 18); g.fillRect(gb.x, gb.y, gb.w, gb.h);
        g.fillStyle = p.accent; api.roundRect(g, gb.x, gb.y, gb.w, 12, 4); g.fill();
        g.fillStyle = api.alpha(p.fg, 0.12);
        for (var bx = gb.x + 14; bx < gb.x + gb.w - 10; bx += 40) g.fillRect(bx, gb.y + 30, 18, 8);
      }
      for (var j = 0; j < s.plats.length; j++) {
        var pl = s.plats[j];
        g.fillStyle = api.shade(p.accent, -30); api.roundRect(g, pl.x, pl.y, pl.w, pl.h, 6); g.fill();
        g.fillStyle = p.accent; api.roundRect(g, pl.x, pl.y, pl.w, 5, 3); g.fill();
      }
      for (var c = 0; c < s.coins.length; c++) {
        var co = s.coins[c];
        if (co.got) continue;
        var sw = Math.abs(Math.cos(s.t * 4 + co.x * 0.05));
        g.fillStyle = p.accent2; g.beginPath(); g.ellipse(co.x, co.y, 8 * sw + 1.5, 9, 0, 0, Math.PI * 2); g.fill();
        g.fillStyle = "rgba(255,255,255,0.5)"; g.fillRect(co.x - 1, co.y - 5, 2 * sw, 10);
      }
      for (var e = 0; e < s.enemies.length; e++) {
        var en = s.enemies[e];
        if (en.dead < 0) continue;
        g.fillStyle = p.danger;
        api.roundRect(g, en.x, en.y + 4, en.w, en.h - 4, 10); g.fill();
        g.fillStyle = "#fff";
        var look = en.vx > 0 ? 4 : -4;
        g.beginPath(); g.arc(en.x + 10 + look, en.y + 12, 4, 0, 7); g.arc(en.x + 20 + look, en.y + 12, 4, 0, 7); g.fill();
        g.fillStyle = api.shade(p.danger, -60);
        var step = Math.sin(s.t * 14) * 3;
        g.fillRect(en.x + 4, en.y + en.h - 2 + step, 8, 4); g.fillRect(en.x + en.w - 12, en.y + en.h - 2 - step, 8, 4);
      }
      g.fillStyle = p.fg; g.fillRect(s.flag.x, s.flag.y - 110, 5, 110);
      g.fillStyle = p.accent2;
      g.beginPath(); g.moveTo(s.flag.x + 5, s.flag.y - 110); g.lineTo(s.flag.x + 55, s.flag.y - 95 + Math.sin(s.t * 6) * 4); g.lineTo(s.flag.x + 5, s.flag.y - 78); g.fill();
      g.save();
      if (s.inv > 0 && Math.floor(s.inv * 12) % 2) g.globalAlpha = 0.35;
      var bodyG = g.createLinearGradient(s.x, s.y, s.x, s.y + PH);
      bodyG.addColorStop(0, api.shade(p.accent2, 40)); bodyG.addColorStop(1, p.accent2);
      g.fillStyle = bodyG; api.roundRect(g, s.x, s.y, PW, PH, 8); g.fill();
      var face = s.vx >= 0 ? 1 : -1;
      g.fillStyle = p.bg;
      g.fillRect(s.x + PW / 2 + face * 5 - 2, s.y + 10, 4, 6);
      g.restore();
      g.restore();
    },
    hook: function (s, api) {
      var hint = [{type: "key", key: "ArrowRight"}];
      if (s.onGround) {
        // Jump at the very edge of whatever the player stands on: the longest, safest jump.
        var front = s.x + PW, jump = !supported(s, front + 14, s.y + PH);
        for (var e = 0; e < s.enemies.length; e++) {
          var en = s.enemies[e];
          if (en.dead === 0 && en.x > s.x && en.x - front < 80 && Math.abs(en.y + en.h - (s.y + PH)) < 30) jump = true;
        }
        if (jump) hint.unshift({type: "key", key: " "});
      }
      var coinsLeft = 0;
      for (var c = 0; c < s.coins.length; c++) if (!s.coins[c].got) coinsLeft++;
      return {hint: hint, x: Math.round(s.x), progress: Math.round(100 * s.x / s.flag.x) / 100, coins: s.got,
              coinsLeft: coinsLeft, onGround: s.onGround};
    },
  });

  function hurt(s, api) {
    api.burst(api.clamp(s.x - s.cam, 0, api.W), api.clamp(s.y, 0, api.H - 10), api.pal.danger, 24);
    if (api.loseLife()) {
      // Back to the start of the ground the player last crossed.
      var best = s.ground[0];
      for (var i = 0; i < s.ground.length; i++) if (s.ground[i].x <= s.x) best = s.ground[i];
      s.spawn = {x: best.x + 10, y: best.y - PH};
      place(s);
    }
  }
})();
