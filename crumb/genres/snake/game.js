/* Snake: eat, grow, don't bite yourself or the wall. Arrows/WASD, swipe, or click beside the head. */
(function () {
  var D = {up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0]};
  var KEY = {up: "ArrowUp", down: "ArrowDown", left: "ArrowLeft", right: "ArrowRight"};
  var OPP = {up: "down", down: "up", left: "right", right: "left"};
  var ORDER = ["up", "right", "down", "left"];

  function field(api, n) {
    var pad = 12, avail = Math.min(api.W - pad * 2, api.H - api.top - pad * 2);
    var cell = Math.floor(avail / n);
    var size = cell * n;
    return {x: Math.floor((api.W - size) / 2), y: api.top + Math.floor((api.H - api.top - size) / 2), cell: cell, size: size};
  }

  function occupied(s, x, y, ignoreTail) {
    var len = s.body.length - (ignoreTail ? 1 : 0);
    for (var i = 0; i < len; i++) if (s.body[i].x === x && s.body[i].y === y) return true;
    return false;
  }

  // `near`: the round's first food sits a few cells from the head, so the first point comes quickly.
  function placeFood(s, api, near) {
    var free = [], h = s.body[0];
    for (var y = 0; y < s.n; y++) for (var x = 0; x < s.n; x++) {
      if (occupied(s, x, y, false)) continue;
      if (near && (Math.abs(x - h.x) + Math.abs(y - h.y) > 6 || x <= h.x)) continue;
      free.push({x: x, y: y});
    }
    s.food = free.length ? free[api.randInt(free.length)] : null;
  }

  function spawn(s) {
    var c = Math.floor(s.n / 2);
    s.body = [{x: c, y: c}, {x: c - 1, y: c}, {x: c - 2, y: c}];
    s.dir = "right"; s.queue = []; s.acc = 0;
  }

  // Breadth-first path from the head to the food; returns the first direction, or null.
  function pathDir(s) {
    if (!s.food) return null;
    var n = s.n, head = s.body[0], seen = {}, q = [];
    var blocked = {};
    for (var i = 0; i < s.body.length - 1; i++) blocked[s.body[i].x + "," + s.body[i].y] = 1;
    seen[head.x + "," + head.y] = 1;
    for (var k = 0; k < 4; k++) {
      var d = ORDER[k];
      if (d === OPP[s.dir]) continue;
      var nx = head.x + D[d][0], ny = head.y + D[d][1], key = nx + "," + ny;
      if (nx < 0 || ny < 0 || nx >= n || ny >= n || blocked[key]) continue;
      seen[key] = 1; q.push([nx, ny, d]);
    }
    while (q.length) {
      var cur = q.shift();
      if (cur[0] === s.food.x && cur[1] === s.food.y) return cur[2];
      for (var j = 0; j < 4; j++) {
        var ex = cur[0] + D[ORDER[j]][0], ey = cur[1] + D[ORDER[j]][1], ek = ex + "," + ey;
        if (ex < 0 || ey < 0 || ex >= n || ey >= n || blocked[ek] || seen[ek]) continue;
        seen[ek] = 1; q.push([ex, ey, cur[2]]);
      }
    }
    return null;
  }

  function safeDir(s) {
    var head = s.body[0], best = null, bestFree = -1;
    for (var k = 0; k < 4; k++) {
      var d = ORDER[k];
      if (d === OPP[s.dir]) continue;
      var x = head.x + D[d][0], y = head.y + D[d][1];
      if (x < 0 || y < 0 || x >= s.n || y >= s.n || occupied(s, x, y, true)) continue;
      var free = 0;
      for (var m = 0; m < 4; m++) {
        var ax = x + D[ORDER[m]][0], ay = y + D[ORDER[m]][1];
        if (ax >= 0 && ay >= 0 && ax < s.n && ay < s.n && !occupied(s, ax, ay, true)) free++;
      }
      if (free > bestFree) { bestFree = free; best = d; }
    }
    return best;
  }

  CrumbGame.register({
    genre: "snake",
    size: [480, 540],
    controls: "Arrows / WASD / swipe to steer · P pauses",
    init: function (api) {
      var n = Math.max(6, Math.min(40, api.cfg.grid || 18));
      var s = {n: n, eaten: 0, dead: 0, flash: 0, t: 0};
      spawn(s);
      placeFood(s, api, true);
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      if (s.flash > 0) s.flash -= dt;
      if (s.dead > 0) { s.dead -= dt; if (s.dead <= 0) { spawn(s); if (!s.food || occupied(s, s.food.x, s.food.y, false)) placeFood(s, api); } return; }
      for (var i = 0; i < input.pressed.length; i++) {
        var dk = {ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
                  w: "up", s: "down", a: "left", d: "right", W: "up", S: "down", A: "left", D: "right"}[input.pressed[i]];
        if (dk) queueTurn(s, dk);
      }
      for (var c = 0; c < input.clicks.length; c++) {
        var f = field(api, s.n), head = s.body[0];
        var hx = f.x + (head.x + 0.5) * f.cell, hy = f.y + (head.y + 0.5) * f.cell;
        var cx = input.clicks[c].x - hx, cy = input.clicks[c].y - hy;
        var last = s.queue.length ? s.queue[s.queue.length - 1] : s.dir;
        if (last === "left" || last === "right") queueTurn(s, cy < 0 ? "up" : "down");
        else queueTurn(s, cx < 0 ? "left" : "right");
      }
      var step = 0.13 / api.speed / (1 + Math.min(0.8, s.eaten * 0.02));
      s.acc += dt;
      while (s.acc >= step && api.phase === "playing" && s.dead <= 0) {
        s.acc -= step;
        advance(s, api);
      }
    },
    draw: function (g, s, api) {
      var f = field(api, s.n), p = api.pal, cell = f.cell;
      g.drawImage(api.cache("snake-board-" + s.n, function (cg) {
        var grad = cg.createLinearGradient(0, f.y, 0, f.y + f.size);
        grad.addColorStop(0, api.shade(p.bg, 14)); grad.addColorStop(1, api.shade(p.bg, 4));
        cg.fillStyle = grad; cg.fillRect(f.x, f.y, f.size, f.size);
        cg.fillStyle = "rgba(255,255,255,0.035)";
        for (var y = 0; y < s.n; y++) for (var x = (y % 2); x < s.n; x += 2) cg.fillRect(f.x + x * cell, f.y + y * cell, cell, cell);
        cg.strokeStyle = p.accent; cg.globalAlpha = 0.35; cg.lineWidth = 2;
        cg.strokeRect(f.x - 1, f.y - 1, f.size + 2, f.size + 2);
      }), 0, 0, api.W, api.H);
      if (s.food) {
        var fx = f.x + (s.food.x + 0.5) * cell, fy = f.y + (s.food.y + 0.5) * cell;
        var pulse = 1 + 0.08 * Math.sin(s.t * 6);
        g.save(); api.glow(g, fx, fy, cell * 0.9, p.accent2);
        g.fillStyle = p.accent2; g.beginPath(); g.arc(fx, fy, cell * 0.36 * pulse, 0, Math.PI * 2); g.fill();
        g.restore();
        g.fillStyle = "rgba(255,255,255,0.6)"; g.beginPath(); g.arc(fx - cell * 0.1, fy - cell * 0.12, cell * 0.09, 0, Math.PI * 2); g.fill();
        // the food is a fruit, an apple: a stem and a leaf on top
        var top = fy - cell * 0.36 * pulse;
        g.fillStyle = "#5b3a1a"; g.fillRect(fx - cell * 0.035, top - cell * 0.12, cell * 0.07, cell * 0.16);
        g.fillStyle = "#4caf50"; g.beginPath(); g.ellipse(fx + cell * 0.11, top - cell * 0.06, cell * 0.12, cell * 0.055, -0.5, 0, Math.PI * 2); g.fill();
      }
      // One continuous body: a thick rounded stroke through the cell centres, then the head on top.
      var len = s.body.length, hurt = s.dead > 0 && Math.floor(s.dead * 10) % 2;
      g.lineCap = "round"; g.lineJoin = "round";
      g.beginPath();
      for (var i = len - 1; i >= 0; i--) {
        var b = s.body[i];
        var bx = f.x + (b.x + 0.5) * cell, by = f.y + (b.y + 0.5) * cell;
        if (i === len - 1) g.moveTo(bx, by); else g.lineTo(bx, by);
      }
      g.strokeStyle = hurt ? p.danger : api.shade(p.accent, -40); g.lineWidth = cell * 0.78; g.stroke();
      g.strokeStyle = hurt ? p.danger : p.accent; g.lineWidth = cell * 0.62; g.stroke();
      g.strokeStyle = "rgba(255,255,255,0.18)"; g.lineWidth = cell * 0.18; g.stroke();
      g.lineCap = "butt"; g.lineJoin = "miter";
      var h = s.body[0], dv = D[s.dir];
      var hx = f.x + (h.x + 0.5) * cell, hy = f.y + (h.y + 0.5) * cell;
      g.fillStyle = hurt ? p.danger : api.shade(p.accent, 25);
      g.beginPath(); g.arc(hx, hy, cell * 0.44, 0, Math.PI * 2); g.fill();
      g.fillStyle = p.bg;
      for (var e = -1; e <= 1; e += 2) {
        var ex = hx + dv[0] * cell * 0.15 + (-dv[1]) * e * cell * 0.18;
        var ey = hy + dv[1] * cell * 0.15 + dv[0] * e * cell * 0.18;
        g.beginPath(); g.arc(ex, ey, cell * 0.09, 0, Math.PI * 2); g.fill();
      }
    },
    hook: function (s, api) {
      var d = pathDir(s) || safeDir(s);
      return {
        hint: d ? [{type: "key", key: KEY[d]}] : [],
        length: s.body.length, snakeLength: s.body.length, grid: s.n,
        head: {x: s.body[0].x, y: s.body[0].y}, food: s.food ? {x: s.food.x, y: s.food.y} : null,
        dir: s.dir, eaten: s.eaten,
      };
    },
  });

  function queueTurn(s, d) {
    var last = s.queue.length ? s.queue[s.queue.length - 1] : s.dir;
    if (d === last || d === OPP[last] || s.queue.length >= 3) return;
    s.queue.push(d);
  }

  function advance(s, api) {
    if (s.queue.length) s.dir = s.queue.shift();
    var h = s.body[0], nx = h.x + D[s.dir][0], ny = h.y + D[s.dir][1];
    var eating = s.food && s.food.x === nx && s.food.y === ny;
    if (nx < 0 || ny < 0 || nx >= s.n || ny >= s.n || occupied(s, nx, ny, !eating)) {
      var f = field(api, s.n);
      api.burst(f.x + (h.x + 0.5) * f.cell, f.y + (h.y + 0.5) * f.cell, api.pal.danger, 24);
      api.loseLife();
      s.dead = 0.7;
      return;
    }
    s.body.unshift({x: nx, y: ny});
    if (eating) {
      s.eaten++;
      var f2 = field(api, s.n);
      var px = f2.x + (nx + 0.5) * f2.cell, py = f2.y + (ny + 0.5) * f2.cell;
      api.burst(px, py, api.pal.accent2, 14);
      api.popup("+10", px, py - 10, api.pal.accent2);
      api.addScore(10);
      if (s.eaten % 5 === 0) api.setLevel(api.level + 1);
      placeFood(s, api);
      if (!s.food) api.win();
    } else {
      s.body.pop();
    }
  }

})();
