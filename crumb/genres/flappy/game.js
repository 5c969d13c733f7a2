/* Flappy: tap to flap through the gaps between pipes; one point per pipe passed. */
(function () {
  var BX = 140, BR = 15, PIPE_W = 70, GAP = 190, SPACING = 250, GRAV = 1500, FLAP = -440;

  function groundY(api) { return api.H - 70; }

  function addPipe(s, api, x) {
    var lo = api.top + 40 + GAP / 2, hi = groundY(api) - 40 - GAP / 2;
    // Keep consecutive gaps within reach of each other.
    var prev = s.pipes.length ? s.pipes[s.pipes.length - 1].cy : (lo + hi) / 2;
    var cy = s.pipes.length ? api.clamp(prev + (api.rng() - 0.5) * 300, lo, hi) : (lo + hi) / 2;
    s.pipes.push({x: x, cy: cy, passed: false});
  }

  function respawn(s, api) {
    s.y = (api.top + groundY(api)) / 2; s.vy = 0; s.grace = 1.2;
    s.pipes = s.pipes.filter(function (p) { return p.x > BX + 220; });
    if (!s.pipes.length) addPipe(s, api, api.W + 40);
  }

  function nextPipe(s) {
    for (var i = 0; i < s.pipes.length; i++) if (s.pipes[i].x + PIPE_W > BX - BR) return s.pipes[i];
    return null;
  }

  CrumbGame.register({
    genre: "flappy",
    size: [480, 720],
    survive: true,
    controls: "Space / ↑ / click / tap to flap",
    init: function (api) {
      var s = {y: 0, vy: 0, pipes: [], scroll: 0, t: 0, grace: 1.5, passed: 0, dead: 0};
      addPipe(s, api, api.W - 150);
      s.y = (api.top + groundY(api)) / 2;
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      var speed = 165 * api.speed * (1 + Math.min(0.6, s.passed * 0.02));
      if (s.dead > 0) { s.dead -= dt; if (s.dead <= 0) respawn(s, api); return; }
      var flap = input.clicks.length > 0;
      for (var i = 0; i < input.pressed.length; i++) {
        var k = input.pressed[i];
        if (k === " " || k === "ArrowUp" || k === "w" || k === "W") flap = true;
      }
      if (flap) { s.vy = FLAP; s.grace = 0; api.beep(660); }
      if (s.grace > 0) { s.grace -= dt; s.y += Math.sin(s.t * 5) * 0.4; }
      else { s.vy += GRAV * dt; s.y += s.vy * dt; }
      s.scroll += speed * dt;
      for (var j = 0; j < s.pipes.length; j++) s.pipes[j].x -= speed * dt;
      if (s.pipes.length && s.pipes[0].x < -PIPE_W - 10) s.pipes.shift();
      var lastP = s.pipes[s.pipes.length - 1];
      if (!lastP || lastP.x < api.W + 40 - SPACING) addPipe(s, api, lastP ? lastP.x + SPACING : api.W + 40);
      for (var m = 0; m < s.pipes.length; m++) {
        var p = s.pipes[m];
        if (!p.passed && p.x + PIPE_W < BX - BR) {
          p.passed = true; s.passed++;
          api.addScore(1); api.popup("+1", BX, s.y - 30, api.pal.accent2);
        }
      }
      var hit = s.y + BR >= groundY(api) || s.y - BR <= api.top;
      for (var n = 0; n < s.pipes.length && !hit; n++) {
        var q = s.pipes[n];
        if (BX + BR > q.x + 4 && BX - BR < q.x + PIPE_W - 4 && (s.y - BR < q.cy - GAP / 2 || s.y + BR > q.cy + GAP / 2)) hit = true;
      }
      if (hit) {
        api.burst(BX, s.y, api.pal.danger, 26);
        s.y = api.clamp(s.y, api.top + BR, groundY(api) - BR);
        if (api.loseLife()) s.dead = 0.6;
      }
    },
    draw: function (g, s, api) {
      var p = api.pal, gy = groundY(api);
      var sky = g.createLinearGradient(0, 0, 0, gy);
      sky.addColorStop(0, api.shade(p.bg, -10)); sky.addColorStop(1, api.shade(p.bg, 40));
      g.fillStyle = sky; g.fillRect(0, 0, api.W, gy);
      // Parallax hills.
      g.fillStyle = api.alpha(p.fg, 0.18);
      g.beginPath(); g.moveTo(0, gy);
      for (var x = 0; x <= api.W; x += 20) g.lineTo(x, gy - 60 - 30 * Math.sin((x + s.scroll * 0.3) / 70));
      g.lineTo(api.W, gy); g.fill();
      for (var i = 0; i < s.pipes.length; i++) {
        var q = s.pipes[i], top = q.cy - GAP / 2, bot = q.cy + GAP / 2;
        var pg = g.createLinearGradient(q.x, 0, q.x + PIPE_W, 0);
        pg.addColorStop(0, api.shade(p.accent2, -30)); pg.addColorStop(0.4, p.accent2); pg.addColorStop(1, api.shade(p.accent2, -60));
        g.fillStyle = pg;
        g.fillRect(q.x, 0, PIPE_W, top); g.fillRect(q.x, bot, PIPE_W, gy - bot);
        api.roundRect(g, q.x - 6, top - 24, PIPE_W + 12, 24, 5); g.fill();
        api.roundRect(g, q.x - 6, bot, PIPE_W + 12, 24, 5); g.fill();
      }
      g.fillStyle = api.shade(p.bg, 25); g.fillRect(0, gy, api.W, api.H - gy);
      g.fillStyle = api.alpha(p.accent2, 0.5);
      for (var k = -(s.scroll % 32); k < api.W; k += 32) g.fillRect(k, gy, 16, 6);
      var tilt = api.clamp(s.vy / 700, -0.5, 1.0);
      g.save(); g.translate(BX, s.y); g.rotate(tilt);
      if (s.dead > 0) g.globalAlpha = 0.5;
      var bg2 = g.createRadialGradient(-4, -5, 2, 0, 0, BR);
      bg2.addColorStop(0, api.shade(p.accent, 60)); bg2.addColorStop(1, p.accent);
      g.fillStyle = bg2; g.beginPath(); g.arc(0, 0, BR, 0, Math.PI * 2); g.fill();
      g.fillStyle = api.shade(p.accent, -40);
      g.beginPath(); g.ellipse(-5, 3 + Math.sin(s.t * 20) * 3, 8, 5, -0.3, 0, Math.PI * 2); g.fill();
      g.fillStyle = "#fff"; g.beginPath(); g.arc(6, -5, 5, 0, Math.PI * 2); g.fill();
      g.fillStyle = "#111"; g.beginPath(); g.arc(7.5, -5, 2.3, 0, Math.PI * 2); g.fill();
      g.fillStyle = p.danger; g.beginPath(); g.moveTo(12, -1); g.lineTo(22, 3); g.lineTo(12, 7); g.fill();
      g.restore();
    },
    hook: function (s, api) {
      var q = nextPipe(s), target = q ? q.cy + 10 : (api.top + groundY(api)) / 2;
      var hint = (s.dead <= 0 && s.y > target + 12 && s.vy >= -60) || s.grace > 0 ? [{type: "key", key: " "}] : [];
      return {hint: hint, birdY: Math.round(s.y), pipesPassed: s.passed, gapY: q ? Math.round(q.cy) : null};
    },
  });
})();
