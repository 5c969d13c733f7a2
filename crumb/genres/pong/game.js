/* Pong against the computer: each return scores 1, each point you win scores 5; each point it wins costs a life. */
(function () {
  var PH = 84, PWD = 12, R = 8, LX = 28, MAX_ANGLE = 1.05;

  function rx(api) { return api.W - 28 - PWD; }

  function serve(s, api, toward) {
    var a = (api.rng() - 0.5) * 0.7;
    var v = 330 * api.speed;
    s.ball = {x: api.W / 2, y: (api.top + api.H) / 2, vx: Math.cos(a) * v * toward, vy: Math.sin(a) * v, wait: 0.5};
    s.rally = 0;
  }

  // Where the ball will be when it reaches x, following wall bounces.
  function predictY(s, api, x) {
    var b = s.ball;
    if ((x - b.x) / (b.vx || 1e-6) < 0) return null;
    var t = (x - b.x) / b.vx, y = b.y + b.vy * t, lo = api.top + R, hi = api.H - R, span = hi - lo;
    var m = ((y - lo) % (2 * span) + 2 * span) % (2 * span);
    return lo + (m <= span ? m : 2 * span - m);
  }

  CrumbGame.register({
    genre: "pong",
    size: [720, 480],
    controls: "↑ ↓ / W S / mouse / drag to move your paddle",
    init: function (api) {
      var mid = (api.top + api.H) / 2;
      var s = {py: mid, ay: mid, ty: null, t: 0, points: 0, cpu: 0, lastPtr: null, rally: 0, flash: 0};
      serve(s, api, -1);
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      if (s.flash > 0) s.flash -= dt;
      var v = 480 * api.speed;
      for (var i = 0; i < input.pressed.length; i++) {
        var k = input.pressed[i];
        if (k === "ArrowUp" || k === "w" || k === "W") { s.py -= 18; s.ty = null; }
        if (k === "ArrowDown" || k === "s" || k === "S") { s.py += 18; s.ty = null; }
      }
      if (input.held.has("ArrowUp") || input.held.has("w") || input.held.has("W")) { s.py -= v * dt; s.ty = null; }
      if (input.held.has("ArrowDown") || input.held.has("s") || input.held.has("S")) { s.py += v * dt; s.ty = null; }
      if (s.lastPtr !== null && input.pointer.y !== s.lastPtr) s.ty = input.pointer.y;
      s.lastPtr = input.pointer.y;
      for (var c = 0; c < input.clicks.length; c++) s.ty = input.clicks[c].y;
      if (s.ty !== null) { var d = s.ty - s.py, st = v * 1.5 * dt; s.py += Math.abs(d) < st ? d : (d > 0 ? st : -st); }
      s.py = api.clamp(s.py, api.top + PH / 2, api.H - PH / 2);

      var b = s.ball;
      // The computer tracks the ball with a capped speed and a lazy centre drift: beatable by angled shots.
      var aiV = (150 + 12 * s.cpu) * api.speed;
      var tracking = b.vx > 0 && b.x > api.W * 0.5;
      var aim = tracking ? b.y : (api.top + api.H) / 2;
      if (!tracking) aiV *= 0.5;
      var ad = aim - s.ay;
      s.ay += api.clamp(ad, -aiV * dt, aiV * dt);
      s.ay = api.clamp(s.ay, api.top + PH / 2, api.H - PH / 2);
      if (b.wait > 0) { b.wait -= dt; return; }
      var n = Math.ceil(Math.hypot(b.vx, b.vy) * dt / 5) || 1, h = dt / n;
      for (var j = 0; j < n; j++) {
        b.x += b.vx * h; b.y += b.vy * h;
        if (b.y < api.top + R) { b.y = api.top + R; b.vy = Math.abs(b.vy); }
        if (b.y > api.H - R) { b.y = api.H - R; b.vy = -Math.abs(b.vy); }
        if (b.vx < 0 && b.x - R <= LX + PWD && b.x - R >= LX - 10 && Math.abs(b.y - s.py) <= PH / 2 + R) hit(s, api, b, s.py, 1);
        if (b.vx > 0 && b.x + R >= rx(api) && b.x + R <= rx(api) + PWD + 10 && Math.abs(b.y - s.ay) <= PH / 2 + R) hit(s, api, b, s.ay, -1);
        if (b.x < -R * 2) {
          s.cpu++; s.flash = 0.4;
          api.burst(12, b.y, api.pal.danger, 20);
          if (api.loseLife()) serve(s, api, -1);
          return;
        }
        if (b.x > api.W + R * 2) {
          s.points++;
          api.burst(api.W - 12, b.y, api.pal.accent2, 24);
          api.popup("+5", api.W - 80, b.y, api.pal.accent2);
          api.addScore(5);
          if (api.phase === "playing") serve(s, api, 1);
          return;
        }
      }
    },
    draw: function (g, s, api) {
      var p = api.pal;
      var bg = g.createLinearGradient(0, 0, api.W, 0);
      bg.addColorStop(0, api.shade(p.bg, 10)); bg.addColorStop(0.5, api.shade(p.bg, 2)); bg.addColorStop(1, api.shade(p.bg, 10));
      g.fillStyle = bg; g.fillRect(0, 0, api.W, api.H);
      g.fillStyle = api.alpha(p.fg, 0.5);
      for (var y = api.top + 8; y < api.H; y += 26) g.fillRect(api.W / 2 - 2, y, 4, 14);
      api.text(g, String(s.points), api.W / 2 - 60, api.top + 50, 40, api.alpha(p.fg, 0.8), "center");
      api.text(g, String(s.cpu), api.W / 2 + 60, api.top + 50, 40, api.alpha(p.fg, 0.8), "center");
      g.save();
      g.fillStyle = p.accent2; api.roundRect(g, LX, s.py - PH / 2, PWD, PH, 6); g.fill();
      g.fillStyle = p.danger; api.roundRect(g, rx(api), s.ay - PH / 2, PWD, PH, 6); g.fill();
      var b = s.ball;
      api.glow(g, b.x, b.y, R * 3, p.accent); g.fillStyle = p.accent;
      g.beginPath(); g.arc(b.x, b.y, R, 0, Math.PI * 2); g.fill();
      g.restore();
      g.fillStyle = api.alpha(p.accent, 0.25);
      g.beginPath(); g.arc(b.x - b.vx * 0.03, b.y - b.vy * 0.03, R * 0.8, 0, Math.PI * 2); g.fill();
      if (s.flash > 0) { g.fillStyle = api.alpha(p.danger, s.flash * 0.4); g.fillRect(0, 0, api.W, api.H); }
    },
    hook: function (s, api) {
      var b = s.ball, hint = [];
      var mid = (api.top + api.H) / 2;
      var want = mid;
      if (b.vx < 0) {
        var y = predictY(s, api, LX + PWD + R);
        if (y !== null) {
          // Meet the ball off-centre so it leaves at a steep angle, away from the computer's paddle.
          var away = s.ay > mid ? -1 : 1;
          want = y - away * PH * 0.4;
        }
      }
      // A click moves the paddle to that height: robust whatever the input cadence.
      want = api.clamp(want, api.top + PH / 2, api.H - PH / 2);
      if (Math.abs(want - s.py) > 6) hint = [{type: "click", x: 0.1, y: Math.round(want / api.H * 1000) / 1000}];
      return {hint: hint, points: s.points, cpuPoints: s.cpu, rally: s.rally, paddleY: Math.round(s.py),
              ball: {x: Math.round(b.x), y: Math.round(b.y)}};
    },
  });

  function hit(s, api, b, py, dir) {
    var off = api.clamp((b.y - py) / (PH / 2), -1, 1), v = Math.min(Math.hypot(b.vx, b.vy) * 1.05, 760 * api.speed);
    var a = off * MAX_ANGLE;
    b.vx = Math.cos(a) * v * dir; b.vy = Math.sin(a) * v;
    b.x = dir > 0 ? LX + PWD + R : rx(api) - R;
    s.rally++;
    if (dir > 0) { api.addScore(1); api.popup("+1", b.x + 20, b.y - 16, api.pal.accent2); }
    api.burst(b.x, b.y, dir > 0 ? api.pal.accent2 : api.pal.danger, 8);
    api.beep(dir > 0 ? 440 : 330);
  }
})();
