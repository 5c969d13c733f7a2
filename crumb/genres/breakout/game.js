/* Breakout: keep the ball alive with the paddle and clear every brick. Arrows/A-D, mouse, or drag. */
(function () {
  var VER = 0;  // bumps whenever the bricks change, across rounds too (keys the cached brick layer)
  var PW = 92, PH = 14, R = 7, COLS = 8;

  function layout(s, api) {
    var rows = Math.min(8, 4 + s.lvl);
    s.rows = rows;
    var gap = 6, side = 16, bw = (api.W - side * 2 - gap * (COLS - 1)) / COLS, bh = 20;
    s.bricks = [];
    for (var r = 0; r < rows; r++) {
      for (var c = 0; c < COLS; c++) {
        // Later levels leave seeded holes and add tougher bricks.
        if (s.lvl > 1 && api.rng() < 0.12) continue;
        var hp = s.lvl > 1 && r < 2 ? 2 : 1;
        s.bricks.push({x: side + c * (bw + gap), y: api.top + 40 + r * (bh + gap), w: bw, h: bh, hp: hp, row: r});
      }
    }
  }

  function resetBall(s) {
    s.ball = {x: s.px, y: s.py - R - 1, vx: 0, vy: 0, stuck: true, wait: 1.0};
  }

  function baseSpeed(s, api) { return (400 + 30 * (s.lvl - 1)) * api.speed; }

  function launch(s, api) {
    if (!s.ball.stuck) return;
    var a = -Math.PI / 2 + (api.rng() - 0.5) * 0.8;
    var v = baseSpeed(s, api);
    s.ball.vx = Math.cos(a) * v; s.ball.vy = Math.sin(a) * v; s.ball.stuck = false;
  }

  // Where the ball will cross the paddle line, following wall bounces (bricks ignored).
  function landingX(s, api) {
    var b = s.ball;
    if (b.stuck) return s.px;
    if (b.vy <= 0) return b.x;
    var t = (s.py - R - b.y) / b.vy, x = b.x + b.vx * t, lo = R, hi = api.W - R, span = hi - lo;
    var m = ((x - lo) % (2 * span) + 2 * span) % (2 * span);
    return lo + (m <= span ? m : 2 * span - m);
  }

  CrumbGame.register({
    genre: "breakout",
    size: [480, 720],
    controls: "← → / A D / mouse / drag · Space launches",
    init: function (api) {
      var s = {ver: ++VER, px: api.W / 2, py: api.H - 56, tx: null, lvl: 1, hits: 0, t: 0, flash: 0, lastPtr: null};
      layout(s, api);
      resetBall(s);
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      if (s.flash > 0) s.flash -= dt;
      var speed = 560 * api.speed;
      var left = input.held.has("ArrowLeft") || input.held.has("a") || input.held.has("A");
      var right = input.held.has("ArrowRight") || input.held.has("d") || input.held.has("D");
      for (var i = 0; i < input.pressed.length; i++) {
        var k = input.pressed[i];
        if (k === "ArrowLeft" || k === "a" || k === "A") { s.px -= 34; s.tx = null; }
        if (k === "ArrowRight" || k === "d" || k === "D") { s.px += 34; s.tx = null; }
        if (k === " " || k === "ArrowUp" || k === "w" || k === "W") launch(s, api);
      }
      if (left) { s.px -= speed * dt; s.tx = null; }
      if (right) { s.px += speed * dt; s.tx = null; }
      var ptr = input.pointer;
      if (s.lastPtr !== null && (ptr.x !== s.lastPtr)) s.tx = ptr.x;
      s.lastPtr = ptr.x;
      for (var c = 0; c < input.clicks.length; c++) { s.tx = input.clicks[c].x; launch(s, api); }
      if (s.tx !== null) {
        var d = s.tx - s.px, step = speed * 1.6 * dt;
        s.px += Math.abs(d) < step ? d : (d > 0 ? step : -step);
      }
      s.px = api.clamp(s.px, PW / 2 + 4, api.W - PW / 2 - 4);
      var b = s.ball;
      if (b.stuck) {
        b.x = s.px; b.y = s.py - R - 1; b.wait -= dt;
        if (b.wait <= 0) launch(s, api);
        return;
      }
      var n = Math.ceil(Math.hypot(b.vx, b.vy) * dt / 4) || 1, h = dt / n;
      for (var j = 0; j < n && api.phase === "playing"; j++) step1(s, h, api);
    },
    draw: function (g, s, api) {
      var p = api.pal;
      var bg = g.createLinearGradient(0, 0, 0, api.H);
      bg.addColorStop(0, api.shade(p.bg, 10)); bg.addColorStop(1, api.shade(p.bg, -6));
      g.fillStyle = bg; g.fillRect(0, 0, api.W, api.H);
      g.drawImage(api.cache("bricks-" + s.ver, function (cg) {
        for (var i = 0; i < s.bricks.length; i++) {
          var br = s.bricks[i];
          cg.fillStyle = br.hp > 1 ? p.danger : api.mix(p.accent, p.accent2, br.row / Math.max(1, s.rows - 1));
          api.roundRect(cg, br.x, br.y, br.w, br.h, 5); cg.fill();
          cg.fillStyle = "rgba(255,255,255,0.22)"; api.roundRect(cg, br.x + 2, br.y + 2, br.w - 4, br.h * 0.4, 3); cg.fill();
        }
      }), 0, 0, api.W, api.H);
      var pg = g.createLinearGradient(0, s.py, 0, s.py + PH);
      pg.addColorStop(0, p.text); pg.addColorStop(1, p.accent);
      g.save();
      g.fillStyle = pg; api.roundRect(g, s.px - PW / 2, s.py, PW, PH, 7); g.fill(); g.restore();
      var b = s.ball;
      g.save(); api.glow(g, b.x, b.y, R * 3, p.accent2); g.fillStyle = p.text;
      g.beginPath(); g.arc(b.x, b.y, R, 0, Math.PI * 2); g.fill(); g.restore();
      if (s.flash > 0) { g.fillStyle = api.alpha(p.danger, s.flash * 0.5); g.fillRect(0, 0, api.W, api.H); }
    },
    hook: function (s, api) {
      // A click moves the paddle to that x (and launches): robust whatever the input cadence.
      var hint = [];
      var tx = s.ball.stuck ? s.px : landingX(s, api);
      if (s.ball.stuck) hint = [{type: "click", x: round3(s.px / api.W), y: 0.9}];
      else if (Math.abs(tx - s.px) > 10) hint = [{type: "click", x: round3(api.clamp(tx, PW / 2, api.W - PW / 2) / api.W), y: 0.9}];
      return {hint: hint, bricksLeft: s.bricks.length, paddleX: Math.round(s.px), ball: {x: Math.round(s.ball.x), y: Math.round(s.ball.y)}};
    },
  });

  function round3(v) { return Math.round(v * 1000) / 1000; }

  function step1(s, h, api) {
    var b = s.ball;
    b.x += b.vx * h; b.y += b.vy * h;
    if (b.x < R) { b.x = R; b.vx = Math.abs(b.vx); }
    if (b.x > api.W - R) { b.x = api.W - R; b.vx = -Math.abs(b.vx); }
    if (b.y < api.top + R) { b.y = api.top + R; b.vy = Math.abs(b.vy); }
    if (b.vy > 0 && b.y + R >= s.py && b.y + R <= s.py + PH + 8 && Math.abs(b.x - s.px) <= PW / 2 + R) {
      var off = api.clamp((b.x - s.px) / (PW / 2), -1, 1), v = Math.min(Math.hypot(b.vx, b.vy) * 1.01, baseSpeed(s, api) * 1.6);
      var a = -Math.PI / 2 + off * 1.05;
      b.vx = Math.cos(a) * v; b.vy = Math.sin(a) * v; b.y = s.py - R;
    }
    if (b.y - R > api.H) {
      s.flash = 0.5;
      api.burst(b.x, api.H - 10, api.pal.danger, 20);
      if (api.loseLife()) resetBall(s);
      return;
    }
    for (var i = 0; i < s.bricks.length; i++) {
      var br = s.bricks[i];
      var cx = api.clamp(b.x, br.x, br.x + br.w), cy = api.clamp(b.y, br.y, br.y + br.h);
      var dx = b.x - cx, dy = b.y - cy;
      if (dx * dx + dy * dy > R * R) continue;
      if (Math.abs(dx) > Math.abs(dy)) b.vx = dx > 0 ? Math.abs(b.vx) : -Math.abs(b.vx);
      else b.vy = dy > 0 ? Math.abs(b.vy) : -Math.abs(b.vy);
      br.hp--; s.ver = ++VER;
      var pts = br.hp > 0 ? 5 : 10 + (7 - Math.min(7, br.row)) * 2;
      api.burst(br.x + br.w / 2, br.y + br.h / 2, br.hp > 0 ? api.pal.danger : api.mix(api.pal.accent, api.pal.accent2, br.row / Math.max(1, s.rows - 1)), 10);
      if (br.hp <= 0) { s.bricks.splice(i, 1); api.popup("+" + pts, br.x + br.w / 2, br.y, api.pal.text); }
      api.addScore(pts);
      if (s.bricks.length === 0 && api.phase === "playing") {
        s.lvl++;
        api.setLevel(s.lvl);
        if (api.phase === "playing") { layout(s, api); s.ver = ++VER; resetBall(s); }
      }
      break;
    }
  }
})();
