/* Runner: the world scrolls ever faster; jump the obstacles. Points for distance and for each jump cleared. */
(function () {
  var PX = 120, PW = 34, PH = 46, GRAV = 1900, JUMP = -640, HOLD_GRAV = 0.55;

  function ground(api) { return api.H - 70; }
  function speedOf(s, api) { return (300 + Math.min(260, s.dist / 60)) * api.speed; }

  function addObstacle(s, api, x) {
    var kind = api.rng() < 0.25 && s.dist > 1500 ? "bird" : "block";
    var w = kind === "bird" ? 40 : 26 + api.randInt(3) * 12, h = kind === "bird" ? 26 : 34 + api.randInt(3) * 11;
    var y = kind === "bird" ? ground(api) - PH - 44 - api.randInt(2) * 10 : ground(api) - h;
    s.obs.push({x: x, y: y, w: w, h: h, kind: kind, cleared: false});
  }

  // Would a jump started now clear obstacle o? (Simulated with the real physics, no hold.)
  function jumpClears(s, o, api) {
    var y = s.y, vy = JUMP, x = o.x, v = speedOf(s, api), h = 1 / 120;
    for (var t = 0; t < 1.2; t += h) {
      vy += GRAV * h; y += vy * h; x -= v * h;
      if (y >= ground(api) - PH) return x + o.w < PX;
      if (PX + PW > x + 3 && PX < x + o.w - 3 && y + PH > o.y + 3 && y < o.y + o.h - 3) return false;
    }
    return true;
  }

  CrumbGame.register({
    genre: "runner",
    size: [720, 480],
    survive: true,
    controls: "Space / ↑ / click / tap to jump (hold = higher)",
    init: function (api) {
      var s = {y: ground(api) - PH, vy: 0, onGround: true, obs: [], dist: 0, t: 0, inv: 0, jumps: 0, lastPts: 0};
      addObstacle(s, api, api.W + 200);
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      var v = speedOf(s, api);
      var jump = input.clicks.length > 0;
      for (var i = 0; i < input.pressed.length; i++) {
        var k = input.pressed[i];
        if (k === " " || k === "ArrowUp" || k === "w" || k === "W") jump = true;
      }
      if (jump && s.onGround) { s.vy = JUMP; s.onGround = false; api.beep(520); }
      var holding = input.held.has(" ") || input.held.has("ArrowUp") || input.pointer.down;
      s.vy += GRAV * (holding && s.vy < 0 ? HOLD_GRAV : 1) * dt;
      s.y += s.vy * dt;
      if (s.y >= ground(api) - PH) { s.y = ground(api) - PH; s.vy = 0; s.onGround = true; }
      s.dist += v * dt;
      var pts = Math.floor(s.dist / 100);
      if (pts > s.lastPts) { api.addScore(pts - s.lastPts); s.lastPts = pts; }
      if (s.inv > 0) s.inv -= dt;
      for (var j = 0; j < s.obs.length; j++) s.obs[j].x -= v * dt;
      while (s.obs.length && s.obs[0].x + s.obs[0].w < -20) s.obs.shift();
      var last = s.obs[s.obs.length - 1];
      var gapMin = v * 0.85, gapMax = v * 1.9;
      if (!last || last.x < api.W - gapMin) {
        if (!last || api.rng() < 0.04 || last.x < api.W - gapMax) addObstacle(s, api, api.W + 20 + api.randInt(60));
      }
      for (var m = 0; m < s.obs.length; m++) {
        var o = s.obs[m];
        if (!o.cleared && o.x + o.w < PX) {
          o.cleared = true; s.jumps++;
          api.addScore(5); api.popup("+5", PX + PW / 2, s.y - 14, api.pal.accent2);
        }
        if (s.inv <= 0 && PX + PW > o.x + 3 && PX < o.x + o.w - 3 && s.y + PH > o.y + 3 && s.y < o.y + o.h - 3) {
          api.burst(PX + PW / 2, s.y + PH / 2, api.pal.danger, 24);
          o.cleared = true;
          if (api.loseLife()) s.inv = 1.5;
          return;
        }
      }
    },
    draw: function (g, s, api) {
      var p = api.pal, gy = ground(api);
      var sky = g.createLinearGradient(0, 0, 0, gy);
      sky.addColorStop(0, api.shade(p.bg, -8)); sky.addColorStop(1, api.shade(p.bg, 35));
      g.fillStyle = sky; g.fillRect(0, 0, api.W, gy);
      g.fillStyle = api.alpha(p.accent2, 0.9);
      g.beginPath(); g.arc(api.W - 120, gy - 230, 38, 0, Math.PI * 2); g.fill();
      g.fillStyle = api.alpha(p.accent2, 0.15);
      g.beginPath(); g.arc(api.W - 120, gy - 230, 58, 0, Math.PI * 2); g.fill();
      layer(g, api, s.dist * 0.15, gy, 110, 90, api.alpha(p.fg, 0.22));
      layer(g, api, s.dist * 0.4, gy, 60, 50, api.alpha(p.fg, 0.35));
      g.fillStyle = api.shade(p.bg, 20); g.fillRect(0, gy, api.W, api.H - gy);
      g.strokeStyle = p.accent; g.lineWidth = 3; g.beginPath(); g.moveTo(0, gy + 1.5); g.lineTo(api.W, gy + 1.5); g.stroke();
      g.fillStyle = api.alpha(p.accent, 0.35);
      for (var x = -(s.dist % 48); x < api.W; x += 48) g.fillRect(x, gy + 18, 22, 3);
      for (var i = 0; i < s.obs.length; i++) {
        var o = s.obs[i];
        if (o.kind === "bird") {
          g.fillStyle = p.danger;
          g.beginPath(); g.ellipse(o.x + o.w / 2, o.y + o.h / 2, o.w / 2, o.h / 3, 0, 0, Math.PI * 2); g.fill();
          var flap = Math.sin(s.t * 18) * 10;
          g.beginPath(); g.moveTo(o.x + 10, o.y + o.h / 2); g.lineTo(o.x + o.w / 2, o.y + o.h / 2 - 10 - flap); g.lineTo(o.x + o.w - 10, o.y + o.h / 2); g.fill();
        } else {
          var og = g.createLinearGradient(o.x, o.y, o.x, o.y + o.h);
          og.addColorStop(0, api.shade(p.danger, 30)); og.addColorStop(1, api.shade(p.danger, -40));
          g.fillStyle = og; api.roundRect(g, o.x, o.y, o.w, o.h, 5); g.fill();
        }
      }
      g.save();
      if (s.inv > 0 && Math.floor(s.inv * 12) % 2) g.globalAlpha = 0.35;
      var squash = s.onGround ? 1 + Math.sin(s.t * 22) * 0.04 : 1;
      var pg = g.createLinearGradient(PX, s.y, PX + PW, s.y + PH);
      pg.addColorStop(0, api.shade(p.accent, 50)); pg.addColorStop(1, p.accent);
      g.fillStyle = pg; api.roundRect(g, PX, s.y + PH * (1 - squash), PW, PH * squash, 9); g.fill();
      g.fillStyle = p.bg; g.fillRect(PX + PW - 12, s.y + 12, 6, 6);
      g.fillStyle = api.alpha(p.accent, 0.3);
      if (s.onGround) for (var k = 0; k < 3; k++) g.fillRect(PX - 10 - k * 12 - ((s.t * 200) % 12), gy - 4 - k, 6, 3);
      g.restore();
    },
    hook: function (s, api) {
      var next = null;
      for (var i = 0; i < s.obs.length; i++) if (s.obs[i].x + s.obs[i].w >= PX && !s.obs[i].cleared) { next = s.obs[i]; break; }
      var hint = [];
      if (next && s.onGround) {
        var tReach = (next.x - (PX + PW)) / speedOf(s, api);
        if (tReach < 0.6 && next.kind !== "bird" && jumpClears(s, next, api)) hint = [{type: "key", key: " "}];
      }
      return {hint: hint, distance: Math.round(s.dist), obstaclesCleared: s.jumps, onGround: s.onGround,
              runSpeed: Math.round(speedOf(s, api))};
    },
  });

  function layer(g, api, off, gy, amp, base, color) {
    g.fillStyle = color; g.beginPath(); g.moveTo(0, gy);
    for (var x = 0; x <= api.W; x += 16) {
      var u = (x + off) / 90;
      g.lineTo(x, gy - base - amp * 0.5 * (Math.sin(u) * 0.6 + Math.sin(u * 2.3) * 0.4));
    }
    g.lineTo(api.W, gy); g.fill();
  }
})();
