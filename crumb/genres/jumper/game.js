/* Sky Jumper: an endless vertical jumper. The jumper bounces on every platform it lands on; steer it left and
 * right (arrows / A D, hold the mouse or a finger on either side, or swipe) to climb as high as you can. */
(function () {
  var GRAV = 1500, JUMP = -780, SPRING = -1250, MAXV = 330, ACCEL = 2400;
  var PW = 34, PH = 38, PLAT_H = 14, LEVEL_H = 1200, TOP_FRAC = 0.42;

  function hash(i) { var v = Math.sin(i * 127.1 + 311.7) * 43758.5453; return v - Math.floor(v); }

  function gravity(api) { return GRAV * (0.75 + 0.25 * Math.min(api.speed, 3)); }
  function jumpV(api, v) { return v * Math.sqrt(0.75 + 0.25 * Math.min(api.speed, 3)); }

  function levelOf(s) { return 1 + Math.floor(s.height / LEVEL_H); }

  function addPlatform(s, api, y) {
    var lv = levelOf(s), w = Math.max(58, 80 - lv * 4), r = api.rng();
    var type = "normal";
    var moving = Math.min(0.45, 0.06 + lv * 0.07), cracked = Math.min(0.25, 0.04 + lv * 0.03);
    if (r < moving) type = "moving";
    else if (r < moving + cracked && s.lastType !== "cracked") type = "cracked";
    var p = {x: w / 2 + 6 + api.rng() * (api.W - w - 12), y: y, w: w, type: type, spring: false,
             vx: type === "moving" ? (api.rng() < 0.5 ? -1 : 1) * (50 + lv * 12) : 0, broken: 0, id: s.made++};
    if (type === "normal" && api.rng() < 0.09) p.spring = true;
    s.lastType = type;
    s.platforms.push(p);
    // Now and then a second ledge beside it, so a climb has choices.
    if (api.rng() < 0.22) {
      var x2 = p.x + (p.x < api.W / 2 ? 1 : -1) * (140 + api.rng() * 120);
      if (x2 > w / 2 + 6 && x2 < api.W - w / 2 - 6) {
        s.platforms.push({x: x2, y: y + (api.rng() - 0.5) * 30, w: w, type: "normal", spring: false, vx: 0, broken: 0,
                          id: s.made++});
      }
    }
    s.topY = y;
  }

  function fill(s, api) {
    var lv = levelOf(s);
    var maxGap = Math.min(165, 92 + lv * 14);
    while (s.topY > s.cam - 240) addPlatform(s, api, s.topY - (56 + api.rng() * (maxGap - 56)));
    s.platforms = s.platforms.filter(function (p) { return p.y < s.cam + api.H + 60 && p.broken < 1; });
  }

  function respawn(s, api) {
    // A rescue ledge near the bottom of the view, and a bounce off it.
    var y = s.cam + api.H - 70;
    var p = {x: api.W / 2, y: y, w: 96, type: "rescue", spring: false, vx: 0, broken: 0, id: s.made++};
    s.platforms.push(p);
    s.x = p.x; s.y = y; s.vy = jumpV(api, JUMP); s.vx = 0; s.squash = 0.2; s.blink = 1.2;
  }

  function wrapDx(dx, W) {
    if (dx > W / 2) return dx - W;
    if (dx < -W / 2) return dx + W;
    return dx;
  }

  // The platform the jumper should aim for: the highest one it can still land on, given where its arc goes
  // and how far it can steer before it gets there.
  function target(s, api) {
    var G = gravity(api), apex = s.vy < 0 ? s.y - (s.vy * s.vy) / (2 * G) : s.y, best = null, bestT = 0;
    for (var i = 0; i < s.platforms.length; i++) {
      var p = s.platforms[i];
      if (p.broken > 0 || p.y < apex + 6 || p.y > s.cam + api.H - 10) continue;
      if (p.y <= s.y && s.vy >= 0) continue;           // falling: only what is below the feet
      var disc = s.vy * s.vy + 2 * G * (p.y - s.y);
      if (disc < 0) continue;
      var t = (-s.vy + Math.sqrt(disc)) / G;
      var px = p.x + p.vx * api.speed * t;
      var dx = Math.abs(wrapDx(px - s.x, api.W));
      if (dx > MAXV * t * 0.8 + p.w / 2) continue;
      if (!best || p.y < best.y - 1 || (Math.abs(p.y - best.y) <= 1 && dx < Math.abs(wrapDx(best.x - s.x, api.W)))) {
        best = p; bestT = t;
      }
    }
    return best ? {p: best, t: bestT} : null;
  }

  CrumbGame.register({
    genre: "jumper",
    size: [480, 720],
    controls: "←/→ or A/D steer · hold left/right of the jumper · swipe",
    init: function (api) {
      var ground = api.H - 46;
      var s = {x: api.W / 2, y: ground, vx: 0, vy: 0, cam: 0, startY: ground, height: 0, best: 0, falls: 0,
               platforms: [{x: api.W / 2, y: ground, w: api.W + 80, type: "ground", spring: false, vx: 0, broken: 0, id: 0}],
               made: 1, topY: ground, lastType: "normal", t: 0, face: 1, squash: 0, blink: 0, steer: 0, steerT: 0,
               level: 1, flash: 0};
      fill(s, api);
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      var G = gravity(api);
      // Steering: keys held, the pointer held to one side, a tap or a swipe for a short push.
      var dir = 0;
      if (input.held.has("ArrowLeft") || input.held.has("a") || input.held.has("A")) dir -= 1;
      if (input.held.has("ArrowRight") || input.held.has("d") || input.held.has("D")) dir += 1;
      for (var k = 0; k < input.pressed.length; k++) {
        var key = input.pressed[k];
        if (key === "ArrowLeft" || key === "a" || key === "A") { s.steer = -1; s.steerT = 0.25; }
        if (key === "ArrowRight" || key === "d" || key === "D") { s.steer = 1; s.steerT = 0.25; }
      }
      for (var c = 0; c < input.clicks.length; c++) {
        var cdx = input.clicks[c].x - s.x;
        if (Math.abs(cdx) > 10) { s.steer = cdx > 0 ? 1 : -1; s.steerT = 0.3; }
      }
      if (input.pointer.down && Math.abs(input.pointer.x - s.x) > 14) dir = input.pointer.x > s.x ? 1 : -1;
      if (!dir && s.steerT > 0) { dir = s.steer; s.steerT -= dt; }
      if (dir) { s.vx = api.clamp(s.vx + dir * ACCEL * dt, -MAXV, MAXV); s.face = dir; }
      else s.vx *= Math.max(0, 1 - 7 * dt);
      s.x += s.vx * dt;
      if (s.x < -PW / 2) s.x += api.W + PW;
      if (s.x > api.W + PW / 2) s.x -= api.W + PW;

      var prevY = s.y;
      s.vy += G * dt;
      s.y += s.vy * dt;
      for (var i = 0; i < s.platforms.length; i++) {
        var p = s.platforms[i];
        if (p.vx) {
          p.x += p.vx * api.speed * dt;
          if (p.x < p.w / 2 + 4 || p.x > api.W - p.w / 2 - 4) { p.vx = -p.vx; p.x = api.clamp(p.x, p.w / 2 + 4, api.W - p.w / 2 - 4); }
        }
        if (p.broken > 0) { p.broken += dt * 2; p.y += 300 * dt; continue; }
        if (s.vy > 0 && prevY <= p.y + 2 && s.y >= p.y && Math.abs(wrapDx(s.x - p.x, api.W)) < p.w / 2 + PW * 0.35) {
          s.y = p.y;
          s.height = Math.max(s.height, Math.round(s.startY - p.y));   // the highest platform landed on
          var spring = p.spring && Math.abs(s.x - p.x) < 22;
          s.vy = jumpV(api, spring ? SPRING : JUMP);
          s.squash = 0.18;
          if (spring) { p.sprung = 0.3; api.beep(880); api.burst(s.x, p.y - s.cam, api.pal.accent2, 10); }
          else api.beep(520);
          if (p.type === "cracked") { p.broken = 0.01; api.burst(p.x, p.y - s.cam, api.shade(api.pal.danger, -40), 8); }
        }
        if (p.sprung > 0) p.sprung -= dt;
      }
      if (s.squash > 0) s.squash -= dt;
      if (s.blink > 0) s.blink -= dt;
      if (s.flash > 0) s.flash -= dt;

      // The camera only ever rises; every 10 px of the highest platform landed on is a point.
      if (s.y - s.cam < api.H * TOP_FRAC) s.cam = s.y - api.H * TOP_FRAC;
      var metres = Math.floor(s.height / 10);
      if (metres > s.best) { api.addScore(metres - s.best); s.best = metres; if (api.phase !== "playing") return; }
      var lv = levelOf(s);
      if (lv > s.level) {
        s.level = lv; s.flash = 1.2;
        api.popup("Level " + lv, api.W / 2, api.H * 0.3, api.pal.accent2);
        api.setLevel(lv);
        if (api.phase !== "playing") return;
      }
      fill(s, api);

      if (s.y - s.cam > api.H + PH) {
        s.falls++;
        api.burst(api.clamp(s.x, 10, api.W - 10), api.H - 10, api.pal.danger, 24);
        if (!api.loseLife()) return;
        respawn(s, api);
      }
    },
    draw: function (g, s, api) {
      var p = api.pal, W = api.W, H = api.H;
      g.drawImage(api.cache("jumper-sky", function (cg) {
        var sky = cg.createLinearGradient(0, 0, 0, H);
        sky.addColorStop(0, api.shade(p.bg, -18)); sky.addColorStop(1, api.shade(p.bg, 28));
        cg.fillStyle = sky; cg.fillRect(0, 0, W, H);
      }), 0, 0, W, H);
      // Stars and clouds drift past slower than the platforms.
      var par = s.cam * 0.35, first = Math.floor(par / 90) - 1;
      for (var i = first; i < first + 11; i++) {
        var cy = i * 90 - par, cx = hash(i) * W;
        g.fillStyle = api.alpha(p.text, 0.25 + 0.4 * hash(i + 7));
        g.beginPath(); g.arc(cx, cy, 1 + 1.5 * hash(i + 3), 0, Math.PI * 2); g.fill();
        if (hash(i + 11) < 0.35) {
          var wx = hash(i + 5) * W, wy = cy + 40;
          g.fillStyle = api.alpha(p.fg, 0.12);
          g.beginPath(); g.ellipse(wx, wy, 46, 16, 0, 0, Math.PI * 2); g.ellipse(wx + 26, wy - 8, 30, 14, 0, 0, Math.PI * 2); g.fill();
        }
      }
      // Height marks every 100 m, the level line in colour.
      var step = 1000, mark = Math.floor((s.startY - s.cam - H) / step);
      for (var m = Math.max(1, mark); m <= mark + 2; m++) {
        var my = s.startY - m * step - s.cam;
        if (my < -10 || my > H + 10) continue;
        g.strokeStyle = api.alpha(p.fg, 0.35); g.setLineDash([8, 10]); g.lineWidth = 1.5;
        g.beginPath(); g.moveTo(0, my); g.lineTo(W, my); g.stroke(); g.setLineDash([]);
        api.text(g, m * 100 + " m", 10, my - 10, 12, api.alpha(p.fg, 0.8), "left");
      }
      for (var lvl = 2; lvl <= s.level + 1; lvl++) {
        var ly = s.startY - (lvl - 1) * LEVEL_H - s.cam;
        if (ly < -10 || ly > H + 10) continue;
        g.fillStyle = api.alpha(p.accent2, 0.5); g.fillRect(0, ly - 1.5, W, 3);
        api.text(g, "LEVEL " + lvl, W - 10, ly - 12, 12, p.accent2, "right");
      }
      for (var j = 0; j < s.platforms.length; j++) {
        var q = s.platforms[j], x = q.x - q.w / 2, y = q.y - s.cam;
        if (y < -30 || y > H + 30) continue;
        if (q.type === "ground") {
          g.fillStyle = api.shade(p.accent, -70); g.fillRect(0, y, W, H - y + 40);
          g.fillStyle = p.accent; g.fillRect(0, y, W, 8);
          continue;
        }
        g.save();
        if (q.broken > 0) { g.globalAlpha = Math.max(0, 1 - q.broken); g.translate(q.x, y); g.rotate(q.broken * 0.6); g.translate(-q.x, -y); }
        var col = q.type === "moving" ? p.fg : q.type === "cracked" ? "#b5794a" :
          q.type === "rescue" ? p.accent2 : p.accent;
        g.fillStyle = api.shade(col, -45); api.roundRect(g, x, y + 2, q.w, PLAT_H - 2, 7); g.fill();
        g.fillStyle = col; api.roundRect(g, x, y, q.w, PLAT_H - 4, 6); g.fill();
        g.fillStyle = api.alpha("#ffffff", 0.35); api.roundRect(g, x + 6, y + 2, q.w - 12, 3, 2); g.fill();
        if (q.type === "cracked") {
          g.strokeStyle = api.shade(col, -80); g.lineWidth = 2; g.beginPath();
          g.moveTo(q.x - 6, y); g.lineTo(q.x + 2, y + 7); g.lineTo(q.x - 3, y + PLAT_H); g.stroke();
        }
        if (q.type === "moving") {
          g.fillStyle = api.alpha(p.text, 0.7);
          g.beginPath(); g.moveTo(x + 5, y + 7); g.lineTo(x + 11, y + 3); g.lineTo(x + 11, y + 11); g.fill();
          g.beginPath(); g.moveTo(x + q.w - 5, y + 7); g.lineTo(x + q.w - 11, y + 3); g.lineTo(x + q.w - 11, y + 11); g.fill();
        }
        if (q.spring) {
          var up = q.sprung > 0 ? 14 : 7;
          g.strokeStyle = api.shade(p.text, -60); g.lineWidth = 2; g.beginPath();
          for (var z = 0; z <= 4; z++) g.lineTo(q.x + (z % 2 ? 6 : -6), y - (z / 4) * up);
          g.stroke();
          g.fillStyle = p.accent2; api.roundRect(g, q.x - 10, y - up - 5, 20, 5, 2); g.fill();
        }
        g.restore();
      }
      // The jumper: a round creature, squashed when it lands, facing where it steers.
      var px = s.x, py = s.y - s.cam;
      var sq = s.squash > 0 ? s.squash / 0.18 : 0, sx = 1 + 0.22 * sq, sy = 1 - 0.22 * sq;
      if (s.vy < -500) sy += 0.08;
      g.save(); g.translate(px, py); g.scale(sx * s.face, sy);
      if (s.blink > 0 && Math.floor(s.blink * 10) % 2) g.globalAlpha = 0.45;
      g.fillStyle = api.alpha("#000000", 0.18); g.beginPath(); g.ellipse(0, -2, PW * 0.45, 4, 0, 0, Math.PI * 2); g.fill();
      var bg = g.createLinearGradient(0, -PH, 0, 0);
      bg.addColorStop(0, api.shade(p.accent2, 35)); bg.addColorStop(1, api.shade(p.accent2, -35));
      g.fillStyle = bg; api.roundRect(g, -PW / 2, -PH, PW, PH - 6, 14); g.fill();
      g.fillStyle = api.shade(p.accent2, -55);
      g.fillRect(-11, -8, 6, 8); g.fillRect(5, -8, 6, 8);
      g.fillStyle = api.shade(p.accent2, -20); api.roundRect(g, PW / 2 - 6, -PH + 14, 12, 9, 4); g.fill();
      g.fillStyle = "#ffffff"; g.beginPath(); g.arc(4, -PH + 12, 6, 0, Math.PI * 2); g.fill();
      g.fillStyle = "#1a1a2e"; g.beginPath(); g.arc(6, -PH + 12 + (s.vy > 0 ? 2 : -1), 3, 0, Math.PI * 2); g.fill();
      g.restore();
      if (s.flash > 0) { g.fillStyle = api.alpha(p.accent2, 0.12 * s.flash); g.fillRect(0, 0, W, H); }
    },
    hook: function (s, api) {
      var tg = target(s, api), hint = [], next = null;
      if (tg) {
        var px = tg.p.x + tg.p.vx * api.speed * tg.t;
        var dx = wrapDx(px - (s.x + s.vx * Math.min(tg.t, 0.15)), api.W);
        if (dx > 8) hint.push({type: "key", key: "ArrowRight"});
        else if (dx < -8) hint.push({type: "key", key: "ArrowLeft"});
        next = {x: Math.round(tg.p.x), y: Math.round(tg.p.y - s.cam), type: tg.p.type};
      }
      var shown = 0;
      for (var i = 0; i < s.platforms.length; i++) {
        var y = s.platforms[i].y - s.cam;
        if (y >= 0 && y <= api.H && s.platforms[i].broken === 0) shown++;
      }
      return {hint: hint, height: Math.floor(s.height / 10), playerX: Math.round(s.x), playerY: Math.round(s.y - s.cam),
              vy: Math.round(s.vy), platforms: shown, nextPlatform: next, falls: s.falls};
    },
  });
})();
