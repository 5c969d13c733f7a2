/* Hungry Hole: steer a hole around the city (arrows / WASD, click or tap where to go, or drag). Whatever is
 * smaller than the hole falls in, scores and makes it grow; a rival hole roams too: bigger holes swallow smaller. */
(function () {
  var KINDS = {
    cone: {size: 6, pts: 1}, hydrant: {size: 7, pts: 1}, person: {size: 8, pts: 2}, bench: {size: 11, pts: 3},
    bush: {size: 12, pts: 3}, tree: {size: 16, pts: 5}, car: {size: 18, pts: 8}, kiosk: {size: 23, pts: 12},
    house: {size: 31, pts: 20}, tower: {size: 42, pts: 40},
  };
  var ROAD = 44, R0 = 18, RMAX = 76, GROW = 0.22, SPEED = 170, RIVAL_SPEED = 80;

  function hash(i) { var v = Math.sin(i * 12.9898 + 78.233) * 43758.5453; return v - Math.floor(v); }

  function layout(api) {
    var top = api.top, W = api.W, H = api.H;
    return {vx: [W * 0.34, W * 0.68], hy: [top + (H - top) * 0.3, top + (H - top) * 0.66], top: top};
  }
  function onRoad(L, x, y, pad) {
    for (var i = 0; i < 2; i++) {
      if (Math.abs(x - L.vx[i]) < ROAD / 2 + pad) return true;
      if (Math.abs(y - L.hy[i]) < ROAD / 2 + pad) return true;
    }
    return false;
  }

  function place(s, api, kind, awayX, awayY) {
    var L = s.L, k = KINDS[kind], o = null;
    for (var n = 0; n < 30; n++) {
      var x, y, vx = 0, vy = 0;
      if (kind === "car") {
        var horiz = api.rng() < 0.5, lane = api.randInt(2), dir = api.rng() < 0.5 ? -1 : 1;
        if (horiz) { y = L.hy[lane] + dir * ROAD / 4; x = api.rng() * api.W; vx = dir * (40 + api.rng() * 30); }
        else { x = L.vx[lane] - dir * ROAD / 4; y = L.top + api.rng() * (api.H - L.top); vy = dir * (40 + api.rng() * 30); }
      } else {
        x = k.size + 4 + api.rng() * (api.W - 2 * k.size - 8);
        y = L.top + k.size + 4 + api.rng() * (api.H - L.top - 2 * k.size - 8);
        var small = k.size < 9;
        if (onRoad(L, x, y, small ? -ROAD / 2 + 2 : k.size + 4)) continue;
        if (small && !onRoad(L, x, y, 14)) { if (api.rng() < 0.6) continue; }   // small things sit by the road
      }
      var clash = false;
      for (var i = 0; i < s.objects.length && !clash; i++) {
        var q = s.objects[i];
        if (Math.hypot(q.x - x, q.y - y) < q.size + k.size + (kind === "car" ? 6 : 3)) clash = true;
      }
      if (awayX !== undefined && Math.hypot(awayX - x, awayY - y) < s.r + k.size + 50) clash = true;
      if (clash) continue;
      o = {kind: kind, x: x, y: y, vx: vx, vy: vy, size: k.size, pts: k.pts, id: s.made++, tint: api.randInt(3), fall: 0};
      s.objects.push(o);
      return o;
    }
    return null;
  }

  function spawnKind(s, api) {
    // What the city refills with leans to what the bigger hole can eat.
    var r = api.rng(), big = Math.max(s.r, s.rival.r);
    if (r < 0.18) return "cone";
    if (r < 0.30) return "hydrant";
    if (r < 0.46) return "person";
    if (r < 0.56) return "bench";
    if (r < 0.64) return "bush";
    if (r < 0.74) return "tree";
    if (r < 0.84) return "car";
    if (r < 0.91 || big < 30) return "kiosk";
    if (r < 0.97 || big < 45) return "house";
    return "tower";
  }

  function eatable(hole, o) { return o.size < hole.r * 0.85; }
  function over(hole, o) { return Math.hypot(o.x - hole.x, o.y - hole.y) < hole.r - o.size * 0.4; }
  function grow(hole, size, k) { hole.r = Math.min(RMAX, Math.sqrt(hole.r * hole.r + size * size * k)); }

  function threat(s) {
    return !s.rival.gone && s.rival.r > s.r * 1.12;
  }

  function bestTarget(s, api) {
    var best = null, bestV = 0, rv = s.rival;
    for (var i = 0; i < s.objects.length; i++) {
      var o = s.objects[i];
      if (o.fall > 0 || !eatable(s, o)) continue;
      if (threat(s) && Math.hypot(o.x - rv.x, o.y - rv.y) < rv.r + s.r + 50) continue;
      var v = o.pts / (Math.hypot(o.x - s.x, o.y - s.y) + 40);
      if (v > bestV) { bestV = v; best = o; }
    }
    if (!threat(s) && !rv.gone && s.r > rv.r * 1.15) {
      var vr = 15 / (Math.hypot(rv.x - s.x, rv.y - s.y) + 40);
      if (vr > bestV) best = {kind: "rival", x: rv.x, y: rv.y};
    }
    return best;
  }

  function clampField(s, api, p) {
    p.x = api.clamp(p.x, 12, api.W - 12); p.y = api.clamp(p.y, s.L.top + 12, api.H - 12);
  }

  CrumbGame.register({
    genre: "hole",
    size: [480, 720],
    survive: true,
    controls: "Arrows / WASD · click or tap where to go · drag",
    init: function (api) {
      var L = layout(api);
      var s = {L: L, x: L.vx[0] / 2, y: (L.top + L.hy[0]) / 2 + 20, r: R0, objects: [], made: 0, dest: null, swallowed: 0,
               t: 0, falling: [], safe: 0, spawnT: 0, eatenBy: 0,
               rival: {x: api.W - 50, y: api.H - 60, r: 24, gone: 0, dx: 0, dy: 0}};
      var start = ["tower", "house", "house", "kiosk", "kiosk", "tree", "tree", "tree", "tree", "car", "car", "car",
                   "bush", "bush", "bench", "bench", "bench"];
      for (var i = 0; i < start.length; i++) place(s, api, start[i], s.x, s.y);
      for (var j = 0; j < 26; j++) place(s, api, ["cone", "hydrant", "person", "person"][j % 4]);
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      var sp = SPEED * api.speed * (1 - 0.25 * (s.r - R0) / (RMAX - R0)), mx = 0, my = 0;
      input.held.forEach(function (key) {
        if (key === "ArrowLeft" || key === "a" || key === "A") mx -= 1;
        if (key === "ArrowRight" || key === "d" || key === "D") mx += 1;
        if (key === "ArrowUp" || key === "w" || key === "W") my -= 1;
        if (key === "ArrowDown" || key === "s" || key === "S") my += 1;
      });
      for (var pk = 0; pk < input.pressed.length; pk++) {
        var kd = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]}[input.pressed[pk]];
        if (kd && !mx && !my) { s.dest = {x: s.x + kd[0] * 110, y: s.y + kd[1] * 110}; clampField(s, api, s.dest); }
      }
      for (var c = 0; c < input.clicks.length; c++) { s.dest = {x: input.clicks[c].x, y: input.clicks[c].y}; clampField(s, api, s.dest); }
      if (input.pointer.down) { s.dest = {x: input.pointer.x, y: input.pointer.y}; clampField(s, api, s.dest); }
      if (mx || my) {
        var m = Math.hypot(mx, my); s.x += mx / m * sp * dt; s.y += my / m * sp * dt; s.dest = null;
      } else if (s.dest) {
        var dx = s.dest.x - s.x, dy = s.dest.y - s.y, dd = Math.hypot(dx, dy);
        if (dd <= sp * dt) { s.x = s.dest.x; s.y = s.dest.y; s.dest = null; }
        else { s.x += dx / dd * sp * dt; s.y += dy / dd * sp * dt; }
      }
      s.x = api.clamp(s.x, 0, api.W); s.y = api.clamp(s.y, s.L.top, api.H);
      if (s.safe > 0) s.safe -= dt;

      // Cars drive and wrap around the edges.
      for (var i = 0; i < s.objects.length; i++) {
        var o = s.objects[i];
        if (o.vx || o.vy) {
          o.x += o.vx * api.speed * dt; o.y += o.vy * api.speed * dt;
          if (o.x < -30) o.x = api.W + 30; if (o.x > api.W + 30) o.x = -30;
          if (o.y < s.L.top - 30) o.y = api.H + 30; if (o.y > api.H + 30) o.y = s.L.top - 30;
        }
      }

      // The rival: eats what it can, hunts the player while bigger, steers clear while smaller.
      var rv = s.rival;
      if (rv.gone > 0) {
        rv.gone -= dt;
        if (rv.gone <= 0) {
          rv.gone = 0; rv.r = Math.max(22, s.r * 0.8);
          rv.x = s.x < api.W / 2 ? api.W - 40 : 40; rv.y = s.y < (api.H + s.L.top) / 2 ? api.H - 40 : s.L.top + 40;
        }
      } else {
        var tx = null, ty = null, dist = Math.hypot(s.x - rv.x, s.y - rv.y);
        if (rv.r > s.r * 1.12 && dist < 240 && s.safe <= 0) { tx = s.x; ty = s.y; }
        else if (s.r > rv.r * 1.12 && dist < 160) { tx = rv.x - (s.x - rv.x); ty = rv.y - (s.y - rv.y); }
        else {
          var near = null, nd = 1e9;
          for (var q = 0; q < s.objects.length; q++) {
            var ob = s.objects[q], od = Math.hypot(ob.x - rv.x, ob.y - rv.y);
            if (ob.fall === 0 && eatable(rv, ob) && od < nd) { nd = od; near = ob; }
          }
          if (near) { tx = near.x; ty = near.y; }
        }
        if (tx !== null) {
          var rdx = tx - rv.x, rdy = ty - rv.y, rd = Math.hypot(rdx, rdy) || 1, rs = RIVAL_SPEED * api.speed;
          rv.x = api.clamp(rv.x + rdx / rd * rs * dt, 10, api.W - 10);
          rv.y = api.clamp(rv.y + rdy / rd * rs * dt, s.L.top + 10, api.H - 10);
        }
      }

      // Whatever lies over a hole and fits, falls in.
      for (var n = s.objects.length - 1; n >= 0; n--) {
        var ob2 = s.objects[n];
        var who = eatable(s, ob2) && over(s, ob2) ? "you" : (!rv.gone && eatable(rv, ob2) && over(rv, ob2) ? "rival" : null);
        if (!who) continue;
        s.objects.splice(n, 1);
        ob2.fall = 0.001; ob2.into = who;
        s.falling.push(ob2);
        if (who === "you") {
          s.swallowed++; grow(s, ob2.size, GROW);
          api.addScore(ob2.pts * 10); api.popup("+" + ob2.pts * 10, ob2.x, ob2.y - 14, api.pal.accent2);
          api.beep(300 + ob2.size * 12);
          if (api.phase !== "playing") return;
        } else grow(rv, ob2.size, GROW * 0.7);
      }
      for (var f = s.falling.length - 1; f >= 0; f--) {
        var fo = s.falling[f], into = fo.into === "you" ? s : rv;
        fo.fall += dt / 0.4; fo.x += (into.x - fo.x) * Math.min(1, dt * 8); fo.y += (into.y - fo.y) * Math.min(1, dt * 8);
        if (fo.fall >= 1) s.falling.splice(f, 1);
      }

      // Holes meet: the bigger one swallows the smaller.
      if (!rv.gone) {
        var hd = Math.hypot(s.x - rv.x, s.y - rv.y);
        if (s.r > rv.r * 1.12 && hd < s.r - rv.r * 0.3) {
          grow(s, rv.r * 0.6, GROW); s.swallowed++; rv.gone = 5;
          api.addScore(150); api.popup("+150", rv.x, rv.y - 20, api.pal.accent2); api.burst(rv.x, rv.y, api.pal.danger, 30);
          if (api.phase !== "playing") return;
        } else if (rv.r > s.r * 1.12 && hd < rv.r - s.r * 0.3 && s.safe <= 0) {
          s.eatenBy++;
          api.burst(s.x, s.y, api.pal.accent, 30);
          if (!api.loseLife()) return;
          s.r = Math.max(R0, s.r * 0.8); s.safe = 2; s.dest = null;
          s.x = rv.x < api.W / 2 ? api.W - 50 : 50; s.y = rv.y < (api.H + s.L.top) / 2 ? api.H - 50 : s.L.top + 50;
        }
      }

      // The city refills, away from the player.
      s.spawnT += dt;
      var want = 44;
      while (s.spawnT > 0.35 && s.objects.length < want) { s.spawnT -= 0.35; place(s, api, spawnKind(s, api), s.x, s.y); }
      if (s.spawnT > 0.35) s.spawnT = 0.35;
    },
    draw: function (g, s, api) {
      var p = api.pal, W = api.W, H = api.H, L = s.L;
      var city = api.cache("hole-city", function (cg) {
        cg.fillStyle = api.shade(p.fg, -70); cg.fillRect(0, 0, W, H);
        var xs = [0, L.vx[0], L.vx[1], W], ys = [L.top - 40, L.hy[0], L.hy[1], H];
        for (var a = 0; a < 3; a++) for (var b = 0; b < 3; b++) {
          var x0 = xs[a] + (a ? ROAD / 2 : 0), x1 = xs[a + 1] - (a < 2 ? ROAD / 2 : 0);
          var y0 = ys[b] + (b ? ROAD / 2 : 0), y1 = ys[b + 1] - (b < 2 ? ROAD / 2 : 0);
          cg.fillStyle = api.shade(p.text, -150); cg.fillRect(x0, y0, x1 - x0, y1 - y0);
          cg.fillStyle = api.shade(p.fg, -25); api.roundRect(cg, x0 + 8, y0 + 8, x1 - x0 - 16, y1 - y0 - 16, 10); cg.fill();
          cg.fillStyle = api.alpha(p.fg, 0.35);
          for (var d = 0; d < 14; d++) {
            var hx = x0 + 14 + hash(a * 31 + b * 7 + d) * (x1 - x0 - 28), hy = y0 + 14 + hash(a * 13 + b * 29 + d * 3) * (y1 - y0 - 28);
            cg.beginPath(); cg.arc(hx, hy, 2, 0, Math.PI * 2); cg.fill();
          }
        }
        cg.fillStyle = api.shade(p.bg, 6);
        for (var i = 0; i < 2; i++) { cg.fillRect(L.vx[i] - ROAD / 2, 0, ROAD, H); cg.fillRect(0, L.hy[i] - ROAD / 2, W, ROAD); }
        cg.fillStyle = api.alpha(p.accent2, 0.6);
        for (var j = 0; j < 2; j++) {
          for (var y = 0; y < H; y += 26) if (Math.abs(y + 7 - L.hy[0]) > ROAD / 2 && Math.abs(y + 7 - L.hy[1]) > ROAD / 2) cg.fillRect(L.vx[j] - 1.5, y, 3, 14);
          for (var x = 0; x < W; x += 26) if (Math.abs(x + 7 - L.vx[0]) > ROAD / 2 && Math.abs(x + 7 - L.vx[1]) > ROAD / 2) cg.fillRect(x, L.hy[j] - 1.5, 14, 3);
        }
      });
      g.drawImage(city, 0, 0, W, H);
      drawHole(g, api, s.rival, p.danger, s.rival.gone > 0 ? 0 : 1, s.t);
      drawHole(g, api, s, p.accent, s.safe > 0 && Math.floor(s.safe * 8) % 2 ? 0.5 : 1, s.t);
      for (var f = 0; f < s.falling.length; f++) {
        var fo = s.falling[f], hole = fo.into === "you" ? s : s.rival;
        g.save(); g.beginPath(); g.arc(hole.x, hole.y, hole.r, 0, Math.PI * 2); g.clip();
        g.globalAlpha = 1 - fo.fall; drawObject(g, api, fo, 1 - fo.fall * 0.7, s.t); g.restore();
      }
      for (var i = 0; i < s.objects.length; i++) drawObject(g, api, s.objects[i], 1, s.t);
      if (s.dest) {
        g.strokeStyle = api.alpha(p.accent, 0.6); g.lineWidth = 2; g.setLineDash([4, 5]);
        g.beginPath(); g.arc(s.dest.x, s.dest.y, 9, 0, Math.PI * 2); g.stroke(); g.setLineDash([]);
      }
    },
    hook: function (s, api) {
      var hint = [], rv = s.rival, tgt = null;
      if (threat(s) && Math.hypot(rv.x - s.x, rv.y - s.y) < rv.r + s.r + 90) {
        // Run: away from the bigger hole, along whichever heading keeps the most distance inside the city.
        var ax = s.x - rv.x, ay = s.y - rv.y, am = Math.hypot(ax, ay) || 1, far = -1;
        for (var k = -3; k <= 3; k++) {
          var a = Math.atan2(ay / am, ax / am) + k * Math.PI / 6;
          var fx = api.clamp(s.x + Math.cos(a) * 140, 20, api.W - 20), fy = api.clamp(s.y + Math.sin(a) * 140, s.L.top + 20, api.H - 20);
          var fd = Math.hypot(fx - rv.x, fy - rv.y);
          if (fd > far) { far = fd; tgt = {kind: "away", x: fx, y: fy}; }
        }
      } else tgt = bestTarget(s, api);
      var big = null, bd = 1e9;        // the nearest standing thing still too big to swallow
      for (var i = 0; i < s.objects.length; i++) {
        var o = s.objects[i], od = Math.hypot(o.x - s.x, o.y - s.y);
        if (!o.vx && !o.vy && !eatable(s, o) && od < bd) { bd = od; big = o; }
      }
      if (tgt) hint.push({type: "click", x: +(tgt.x / api.W).toFixed(4), y: +(tgt.y / api.H).toFixed(4)});
      return {hint: hint, holeX: Math.round(s.x), holeY: Math.round(s.y), holeRadius: Math.round(s.r * 10) / 10,
              swallowed: s.swallowed, objects: s.objects.length, eatenBy: s.eatenBy,
              rival: rv.gone ? null : {x: Math.round(rv.x), y: Math.round(rv.y), r: Math.round(rv.r * 10) / 10},
              nextTarget: tgt ? {kind: tgt.kind, x: Math.round(tgt.x), y: Math.round(tgt.y)} : null,
              tooBig: big ? {kind: big.kind, x: Math.round(big.x), y: Math.round(big.y), size: big.size} : null};
    },
  });

  function drawHole(g, api, h, rim, alpha, t) {
    if (!alpha) return;
    g.save(); g.globalAlpha = alpha;
    api.glow(g, h.x, h.y, h.r * 1.6, rim);
    var gr = g.createRadialGradient(h.x, h.y + h.r * 0.2, h.r * 0.2, h.x, h.y, h.r);
    gr.addColorStop(0, "#000000"); gr.addColorStop(0.75, "#07070c"); gr.addColorStop(1, "#22232e");
    g.fillStyle = gr; g.beginPath(); g.arc(h.x, h.y, h.r, 0, Math.PI * 2); g.fill();
    g.strokeStyle = rim; g.lineWidth = 3;
    g.setLineDash([h.r * 0.5, h.r * 0.2]); g.lineDashOffset = -t * 20;
    g.beginPath(); g.arc(h.x, h.y, h.r + 1.5, 0, Math.PI * 2); g.stroke(); g.setLineDash([]);
    g.restore();
  }

  function drawObject(g, api, o, k, t) {
    var p = api.pal, x = o.x, y = o.y, z = o.size * k;
    var tints = [p.accent, p.accent2, p.danger];
    g.save();
    if (o.size > 10) { g.fillStyle = "rgba(0,0,0,0.22)"; g.beginPath(); g.ellipse(x + z * 0.25, y + z * 0.3, z, z * 0.8, 0, 0, Math.PI * 2); g.fill(); }
    switch (o.kind) {
      case "cone":
        g.fillStyle = "#ff8c2b"; g.beginPath(); g.moveTo(x, y - z * 1.2); g.lineTo(x + z, y + z * 0.8); g.lineTo(x - z, y + z * 0.8); g.fill();
        g.fillStyle = "#ffffff"; g.fillRect(x - z * 0.45, y - z * 0.1, z * 0.9, z * 0.3); break;
      case "hydrant":
        g.fillStyle = p.danger; g.beginPath(); g.arc(x, y, z, 0, Math.PI * 2); g.fill();
        g.fillStyle = api.shade(p.danger, 50); g.beginPath(); g.arc(x - z * 0.3, y - z * 0.3, z * 0.35, 0, Math.PI * 2); g.fill(); break;
      case "person":
        g.fillStyle = tints[o.tint]; g.beginPath(); g.ellipse(x, y + z * 0.2, z * 0.75, z * 0.55, 0, 0, Math.PI * 2); g.fill();
        g.fillStyle = "#f1c27d"; g.beginPath(); g.arc(x, y - z * 0.3, z * 0.42, 0, Math.PI * 2); g.fill(); break;
      case "bench":
        g.fillStyle = "#8a5a36"; api.roundRect(g, x - z, y - z * 0.4, z * 2, z * 0.8, 3); g.fill();
        g.fillStyle = "#6b4226"; g.fillRect(x - z, y - z * 0.1, z * 2, z * 0.15); break;
      case "bush":
        g.fillStyle = api.shade(p.fg, -30);
        for (var b = 0; b < 3; b++) { g.beginPath(); g.arc(x - z * 0.45 + b * z * 0.45, y + (b === 1 ? -z * 0.25 : 0), z * 0.6, 0, Math.PI * 2); g.fill(); }
        break;
      case "tree":
        g.fillStyle = api.shade(p.fg, -45); g.beginPath(); g.arc(x, y, z, 0, Math.PI * 2); g.fill();
        g.fillStyle = api.shade(p.fg, 5); g.beginPath(); g.arc(x - z * 0.25, y - z * 0.25, z * 0.65, 0, Math.PI * 2); g.fill(); break;
      case "car":
        var horiz = Math.abs(o.vx) > 0, cw = horiz ? z * 2 : z * 1.1, ch = horiz ? z * 1.1 : z * 2;
        g.fillStyle = tints[o.tint]; api.roundRect(g, x - cw / 2, y - ch / 2, cw, ch, 5); g.fill();
        g.fillStyle = api.alpha("#0b1020", 0.65);
        if (horiz) { g.fillRect(x - cw * 0.15, y - ch * 0.38, cw * 0.35, ch * 0.76); }
        else { g.fillRect(x - cw * 0.38, y - ch * 0.15, cw * 0.76, ch * 0.35); }
        break;
      case "kiosk":
        g.fillStyle = api.shade(p.text, -40); g.fillRect(x - z, y - z * 0.8, z * 2, z * 1.6);
        for (var s2 = 0; s2 < 4; s2++) { g.fillStyle = s2 % 2 ? "#ffffff" : tints[o.tint]; g.fillRect(x - z + s2 * z / 2, y - z * 0.8, z / 2, z * 0.6); }
        break;
      case "house":
        g.fillStyle = api.shade(p.accent2, -20); g.fillRect(x - z, y - z * 0.85, z * 2, z * 1.7);
        g.fillStyle = api.shade(p.danger, -25); g.beginPath(); g.moveTo(x - z * 1.1, y - z * 0.1); g.lineTo(x, y - z * 0.95);
        g.lineTo(x + z * 1.1, y - z * 0.1); g.lineTo(x + z * 1.1, y + z * 0.1); g.lineTo(x - z * 1.1, y + z * 0.1); g.fill();
        g.fillStyle = api.alpha("#0b1020", 0.5); g.fillRect(x - z * 0.6, y + z * 0.3, z * 0.35, z * 0.3); g.fillRect(x + z * 0.25, y + z * 0.3, z * 0.35, z * 0.3);
        break;
      default:   // tower
        var tg = g.createLinearGradient(x - z, 0, x + z, 0);
        tg.addColorStop(0, api.shade(p.accent, -30)); tg.addColorStop(1, api.shade(p.accent, -80));
        g.fillStyle = tg; g.fillRect(x - z * 0.8, y - z, z * 1.6, z * 2);
        g.fillStyle = api.alpha(p.accent2, 0.7);
        for (var wy = 0; wy < 5; wy++) for (var wx = 0; wx < 3; wx++) {
          if (hash(o.id * 17 + wy * 3 + wx) < 0.6) g.fillRect(x - z * 0.6 + wx * z * 0.45, y - z * 0.82 + wy * z * 0.37, z * 0.28, z * 0.2);
        }
    }
    g.restore();
  }
})();
