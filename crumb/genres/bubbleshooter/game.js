/* Bubble shooter: aim the launcher and fire coloured bubbles into the cluster hanging from the ceiling.
 * Three or more of one colour touching pop; bubbles left hanging by nothing fall. Every few shots that
 * pop nothing the ceiling comes down a row; a bubble below the line costs a life.
 * Mouse: aim with the pointer, click to fire. Touch: tap where to shoot. Keys: ←/→ aim, Space/↑ fire,
 * ↓ or X swaps the bubble in the launcher with the next one. */
(function () {
  "use strict";
  var W = 480, H = 720, R = 20, COLS = 11, ROWS = 17;
  var ROW_H = R * Math.sqrt(3);
  var OX = (W - COLS * 2 * R) / 2;
  var LX = W / 2, LY = 652, LINE_Y = 596;
  var SHOT_SPEED = 1000, MIN_A = 0.2, MAX_A = Math.PI - 0.2;
  var COLOURS = [
    ["#ff6b81", "#c2185b"], ["#ffd166", "#e08a00"], ["#5ad1ff", "#1769d1"],
    ["#7be38f", "#12924a"], ["#c59bff", "#6a2bd6"], ["#ff9f5a", "#d35400"],
  ];

  function rowLen(r) { return r % 2 ? COLS - 1 : COLS; }
  function valid(r, c) { return r >= 0 && r < ROWS && c >= 0 && c < rowLen(r); }
  function top(s) { return s.y0 + s.drop * ROW_H; }
  function cx(s, r, c) { return OX + R + c * 2 * R + (r % 2 ? R : 0); }
  function cy(s, r) { return top(s) + R + r * ROW_H; }

  function neighbours(r, c) {
    var d = r % 2 ? [[0, -1], [0, 1], [-1, 0], [-1, 1], [1, 0], [1, 1]] : [[0, -1], [0, 1], [-1, -1], [-1, 0], [1, -1], [1, 0]];
    var out = [];
    for (var i = 0; i < 6; i++) { var rr = r + d[i][0], cc = c + d[i][1]; if (valid(rr, cc)) out.push([rr, cc]); }
    return out;
  }

  function at(s, r, c) { return valid(r, c) ? s.b[r][c] : -1; }

  /** The same-coloured group touching (r, c), as [[r, c], ...]. */
  function cluster(s, r, c) {
    var col = s.b[r][c], seen = {}, out = [], q = [[r, c]];
    seen[r + "," + c] = 1;
    while (q.length) {
      var cur = q.pop(); out.push(cur);
      var ns = neighbours(cur[0], cur[1]);
      for (var i = 0; i < ns.length; i++) {
        var k = ns[i][0] + "," + ns[i][1];
        if (!seen[k] && at(s, ns[i][0], ns[i][1]) === col) { seen[k] = 1; q.push(ns[i]); }
      }
    }
    return out;
  }

  /** Bubbles not connected to the ceiling through other bubbles. */
  function floating(s) {
    var seen = {}, q = [];
    for (var c = 0; c < rowLen(0); c++) if (s.b[0][c] >= 0) { seen["0," + c] = 1; q.push([0, c]); }
    while (q.length) {
      var cur = q.pop(), ns = neighbours(cur[0], cur[1]);
      for (var i = 0; i < ns.length; i++) {
        var k = ns[i][0] + "," + ns[i][1];
        if (!seen[k] && at(s, ns[i][0], ns[i][1]) >= 0) { seen[k] = 1; q.push(ns[i]); }
      }
    }
    var out = [];
    for (var r = 0; r < ROWS; r++) for (var cc = 0; cc < rowLen(r); cc++) if (s.b[r][cc] >= 0 && !seen[r + "," + cc]) out.push([r, cc]);
    return out;
  }

  function count(s) {
    var n = 0;
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < rowLen(r); c++) if (s.b[r][c] >= 0) n++;
    return n;
  }

  function coloursLeft(s) {
    var seen = [];
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < rowLen(r); c++) { var t = s.b[r][c]; if (t >= 0 && seen.indexOf(t) < 0) seen.push(t); }
    return seen;
  }

  function deal(s, api) {
    var lv = api.level, rows = Math.min(9, 4 + lv), kinds = Math.min(6, 3 + lv);
    s.kinds = kinds; s.drop = 0; s.misses = 0; s.ver++;
    s.b = [];
    for (var r = 0; r < ROWS; r++) {
      s.b.push([]);
      for (var c = 0; c < rowLen(r); c++) {
        var t = -1;
        if (r < rows) {
          t = api.randInt(kinds);
          // clumps: copy the left or upper neighbour's colour now and then, so groups are there to aim at
          var roll = api.rng();
          if (roll < 0.3 && c > 0) t = s.b[r][c - 1];
          else if (roll < 0.5 && r > 0) { var up = neighbours(r, c).filter(function (n) { return n[0] === r - 1; }); if (up.length) t = s.b[up[0][0]][up[0][1]]; }
        }
        s.b[r].push(t);
      }
    }
    s.cur = nextColour(s, api); s.next = nextColour(s, api);
  }

  function nextColour(s, api) {
    var left = s.b ? coloursLeft(s) : [];
    if (!left.length) return api.randInt(s.kinds);
    return left[api.randInt(left.length)];
  }

  /** Where a bubble fired at `angle` travels: its path (for the animation and the aim guide) and the cell it sticks in. */
  function flight(s, angle) {
    var x = LX, y = LY, vx = Math.cos(angle), vy = -Math.sin(angle), step = 4, pts = [[x, y]];
    var minX = OX + R, maxX = OX + COLS * 2 * R - R;
    for (var i = 0; i < 1200; i++) {
      x += vx * step; y += vy * step;
      if (x < minX) { x = 2 * minX - x; vx = -vx; pts.push([minX, y]); }
      if (x > maxX) { x = 2 * maxX - x; vx = -vx; pts.push([maxX, y]); }
      if (y - R <= top(s)) break;
      if (hits(s, x, y)) break;
    }
    pts.push([x, y]);
    return {pts: pts, cell: snap(s, x, y)};
  }

  function hits(s, x, y) {
    var r0 = Math.max(0, Math.floor((y - top(s) - R) / ROW_H) - 1);
    for (var r = r0; r <= r0 + 2 && r < ROWS; r++) for (var c = 0; c < rowLen(r); c++) {
      if (s.b[r][c] < 0) continue;
      var dx = cx(s, r, c) - x, dy = cy(s, r) - y;
      if (dx * dx + dy * dy < (2 * R * 0.86) * (2 * R * 0.86)) return true;
    }
    return false;
  }

  /** The empty cell nearest to (x, y) that touches the ceiling or a bubble. */
  function snap(s, x, y) {
    var best = null, bestD = Infinity;
    for (var r = 0; r < ROWS; r++) for (var c = 0; c < rowLen(r); c++) {
      if (s.b[r][c] >= 0) continue;
      var dx = cx(s, r, c) - x, dy = cy(s, r) - y, d = dx * dx + dy * dy;
      if (d >= bestD || d > 9 * R * R * 4) continue;
      var held = r === 0;
      if (!held) { var ns = neighbours(r, c); for (var i = 0; i < ns.length; i++) if (s.b[ns[i][0]][ns[i][1]] >= 0) { held = true; break; } }
      if (held) { best = [r, c]; bestD = d; }
    }
    return best;
  }

  function fire(s, api, angle) {
    if (s.shot || s.busy > 0) return;
    s.aim = api.clamp(angle, MIN_A, MAX_A);
    var f = flight(s, s.aim);
    if (!f.cell) return;
    s.shot = {pts: f.pts, cell: f.cell, col: s.cur, seg: 0, t: 0};
    s.cur = s.next; s.next = nextColour(s, api);
    s.shots++;
    if (s.movesLeft !== null) s.movesLeft--;
    api.beep(520);
  }

  function land(s, api) {
    var sh = s.shot, r = sh.cell[0], c = sh.cell[1];
    s.shot = null; s.ver++;
    s.b[r][c] = sh.col;
    var group = cluster(s, r, c), popped = 0, dropped = 0;
    if (group.length >= 3) {
      for (var i = 0; i < group.length; i++) {
        var g = group[i];
        s.fx.push({x: cx(s, g[0], g[1]), y: cy(s, g[0]), col: s.b[g[0]][g[1]], t: 0, kind: "pop", d: i * 0.03});
        s.b[g[0]][g[1]] = -1;
      }
      popped = group.length;
      var loose = floating(s);
      for (var j = 0; j < loose.length; j++) {
        var l = loose[j];
        s.fx.push({x: cx(s, l[0], l[1]), y: cy(s, l[0]), col: s.b[l[0]][l[1]], t: 0, kind: "fall", vy: -60 - api.rng() * 80, vx: (api.rng() - 0.5) * 120});
        s.b[l[0]][l[1]] = -1;
      }
      dropped = loose.length;
      s.popped += popped; s.dropped += dropped; s.busy = 0.25;
      var pts = popped * 10 + dropped * 20 * (dropped > 3 ? 2 : 1);
      api.addScore(pts);
      api.popup("+" + pts, cx(s, r, c), cy(s, r) - R, api.pal.accent2);
      if (dropped) api.popup(dropped + " dropped!", W / 2, LINE_Y - 40, api.pal.accent);
      api.beep(880);
      if (api.phase !== "playing") return;
      if (!s.cur || coloursLeft(s).indexOf(s.cur) < 0) s.cur = nextColour(s, api);
      if (coloursLeft(s).indexOf(s.next) < 0) s.next = nextColour(s, api);
    } else {
      s.misses++;
      if (s.misses >= s.dropEvery) { s.misses = 0; s.drop++; s.shake = 0.3; }
    }
    if (count(s) === 0) {
      api.addScore(100);
      s.cleared++;
      s.banner = {text: "Board cleared!", t: 1.6};
      api.setLevel(api.level + 1);
      if (api.phase !== "playing") return;
      deal(s, api);
      return;
    }
    if (lowest(s) > LINE_Y) {
      s.banner = {text: "Too low!", t: 1.4};
      if (!api.loseLife()) return;
      deal(s, api);
      return;
    }
    if (s.movesLeft !== null && s.movesLeft <= 0) { s.banner = {text: "Out of shots", t: 3}; api.lose(); }
  }

  function lowest(s) {
    for (var r = ROWS - 1; r >= 0; r--) for (var c = 0; c < rowLen(r); c++) if (s.b[r][c] >= 0) return cy(s, r) + R;
    return 0;
  }

  /** The best shot for the bubble in the launcher: pops the most (dropped bubbles count double), else
   *  sits next to its own colour. Cached per board and colour: the hook asks every frame. */
  function bestShot(s) {
    var key = s.ver + ":" + s.cur + ":" + s.drop;
    if (s.plan && s.plan.key === key) return s.plan.shot;
    var best = null;
    for (var a = MIN_A; a <= MAX_A + 1e-9; a += (MAX_A - MIN_A) / 100) {
      var f = flight(s, a);
      if (!f.cell) continue;
      var r = f.cell[0], c = f.cell[1];
      s.b[r][c] = s.cur;
      var grp = cluster(s, r, c), value;
      if (grp.length >= 3) {
        var saved = grp.map(function (g) { return s.b[g[0]][g[1]]; });
        for (var i = 0; i < grp.length; i++) s.b[grp[i][0]][grp[i][1]] = -1;
        var drops = floating(s).length;
        for (var j = 0; j < grp.length; j++) s.b[grp[j][0]][grp[j][1]] = saved[j];
        value = 1000 + grp.length * 10 + drops * 20;
      } else {
        value = grp.length * 10 - r;
      }
      s.b[r][c] = -1;
      if (!best || value > best.value) best = {angle: a, value: value, cell: f.cell};
    }
    s.plan = {key: key, shot: best};
    return best;
  }

  function drawBubble(g, x, y, col, scale, alpha) {
    var pair = COLOURS[col] || COLOURS[0], r = R * (scale || 1) - 1;
    var sc = CrumbGame.scaleOf(g);
    var img = CrumbGame.sprite("bub" + col, R * 2 + 4, R * 2 + 4, sc, function (cg) {
      var gr = cg.createRadialGradient(R + 2 - R * 0.35, R + 2 - R * 0.4, R * 0.1, R + 2, R + 2, R);
      gr.addColorStop(0, "#ffffff"); gr.addColorStop(0.2, pair[0]); gr.addColorStop(1, pair[1]);
      cg.fillStyle = gr; cg.beginPath(); cg.arc(R + 2, R + 2, R - 1, 0, Math.PI * 2); cg.fill();
      cg.strokeStyle = "rgba(255,255,255,0.35)"; cg.lineWidth = 1.5; cg.stroke();
      cg.fillStyle = "rgba(255,255,255,0.55)"; cg.beginPath(); cg.ellipse(R + 2 - R * 0.3, R + 2 - R * 0.42, R * 0.32, R * 0.16, -0.5, 0, Math.PI * 2); cg.fill();
    });
    if (alpha !== undefined && alpha < 1) g.globalAlpha = Math.max(0, alpha);
    var hw = (R + 2) * (r + 1) / R;
    g.drawImage(img, x - hw, y - hw, hw * 2, hw * 2);
    g.globalAlpha = 1;
  }

  CrumbGame.register({
    genre: "bubbleshooter",
    size: [W, H],
    controls: "Aim and click / tap to shoot · ←/→ + Space · ↓ swaps",

    init: function (api) {
      var cfg = api.cfg || {};
      var s = {b: null, ver: 0, y0: api.top + 14, drop: 0, misses: 0, dropEvery: 6, kinds: 4, cur: 0, next: 0,
               aim: Math.PI / 2, shot: null, shots: 0, popped: 0, dropped: 0, cleared: 0, fx: [], busy: 0,
               movesLeft: typeof cfg.moves === "number" && cfg.moves > 0 ? cfg.moves : null, plan: null,
               banner: null, shake: 0, clock: 0, lastPointer: null};
      deal(s, api);
      return s;
    },

    update: function (s, dt, input, api) {
      s.clock += dt;
      if (s.busy > 0) s.busy -= dt;
      // aim: the pointer (when it moves), or the arrows held
      var p = input.pointer;
      if (p && (!s.lastPointer || s.lastPointer.x !== p.x || s.lastPointer.y !== p.y)) {
        if (s.lastPointer && p.y < LY - 10) s.aim = api.clamp(Math.atan2(LY - p.y, p.x - LX), MIN_A, MAX_A);
        s.lastPointer = {x: p.x, y: p.y};
      }
      if (input.held.has("ArrowLeft") || input.held.has("a") || input.held.has("A")) s.aim = Math.min(MAX_A, s.aim + 1.7 * dt);
      if (input.held.has("ArrowRight") || input.held.has("d") || input.held.has("D")) s.aim = Math.max(MIN_A, s.aim - 1.7 * dt);
      for (var k = 0; k < input.pressed.length; k++) {
        var key = input.pressed[k];
        if (key === "ArrowLeft" || key === "a" || key === "A") s.aim = Math.min(MAX_A, s.aim + 0.06);
        if (key === "ArrowRight" || key === "d" || key === "D") s.aim = Math.max(MIN_A, s.aim - 0.06);
        if (key === " " || key === "ArrowUp" || key === "w" || key === "W" || key === "Enter") fire(s, api, s.aim);
        if ((key === "ArrowDown" || key === "x" || key === "X" || key === "s" || key === "S") && !s.shot) {
          var t = s.cur; s.cur = s.next; s.next = t; s.ver++;
        }
      }
      for (var c = 0; c < input.clicks.length; c++) {
        var cl = input.clicks[c];
        if (Math.hypot(cl.x - LX, cl.y - LY) < 30) { if (!s.shot) { var t2 = s.cur; s.cur = s.next; s.next = t2; s.ver++; } continue; }
        if (cl.y < LY - 10) fire(s, api, Math.atan2(LY - cl.y, cl.x - LX));
      }
      // the bubble in flight follows its precomputed path
      if (s.shot) {
        var sh = s.shot, go = SHOT_SPEED * api.speed * dt;
        while (go > 0 && sh.seg < sh.pts.length - 1) {
          var a = sh.pts[sh.seg], b = sh.pts[sh.seg + 1], len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1e-6;
          var left = len * (1 - sh.t);
          if (go >= left) { go -= left; sh.seg++; sh.t = 0; } else { sh.t += go / len; go = 0; }
        }
        if (sh.seg >= sh.pts.length - 1) land(s, api);
      }
      for (var i = s.fx.length - 1; i >= 0; i--) {
        var e = s.fx[i];
        e.t += dt;
        if (e.kind === "fall") { e.vy += 1400 * dt; e.y += e.vy * dt; e.x += e.vx * dt; if (e.y > H + R) s.fx.splice(i, 1); }
        else if (e.t - (e.d || 0) > 0.3) { api.burst(e.x, e.y, COLOURS[e.col][0], 6); s.fx.splice(i, 1); }
      }
      if (s.banner) { s.banner.t -= dt; if (s.banner.t <= 0) s.banner = null; }
      if (s.shake > 0) s.shake = Math.max(0, s.shake - dt);
    },

    draw: function (g, s, api) {
      var pal = api.pal;
      // sprites are painted at the canvas's pixel scale: smoothing would resample every blit
      g.imageSmoothingEnabled = false;
      g.drawImage(api.cache("bubbles-bg" + pal.bg + pal.accent, function (cg) {
        var bg = cg.createLinearGradient(0, 0, 0, H);
        bg.addColorStop(0, api.shade(pal.bg, 10)); bg.addColorStop(1, api.shade(pal.bg, -8));
        cg.fillStyle = bg; cg.fillRect(0, 0, W, H);
        var glow = cg.createRadialGradient(W / 2, 260, 30, W / 2, 260, 420);
        glow.addColorStop(0, api.alpha(pal.accent, 0.14)); glow.addColorStop(1, api.alpha(pal.accent, 0));
        cg.fillStyle = glow; cg.fillRect(0, 0, W, H);
        cg.fillStyle = "rgba(0,0,0,0.22)"; cg.fillRect(OX - 4, api.top + 4, COLS * 2 * R + 8, LINE_Y - api.top + 4);
        cg.strokeStyle = api.alpha(pal.fg, 0.35); cg.lineWidth = 2; cg.strokeRect(OX - 4, api.top + 4, COLS * 2 * R + 8, LINE_Y - api.top + 4);
      }), 0, 0, W, H);
      var shake = s.shake > 0 ? Math.sin(s.shake * 70) * 4 : 0;
      g.save(); g.translate(shake, 0);
      // the ceiling that comes down
      var t0 = top(s);
      if (s.drop > 0) {
        g.fillStyle = api.alpha(pal.accent, 0.35); g.fillRect(OX - 4, api.top + 4, COLS * 2 * R + 8, t0 - api.top - 4);
        g.fillStyle = pal.accent; g.fillRect(OX - 4, t0 - 3, COLS * 2 * R + 8, 3);
      }
      // the board changes only when a shot lands: it is painted into a layer then, and blitted every frame
      g.drawImage(api.cache("board" + s.ver + ":" + s.drop, function (cg) {
        for (var r = 0; r < ROWS; r++) for (var c = 0; c < rowLen(r); c++) {
          var t = s.b[r][c];
          if (t >= 0) drawBubble(cg, cx(s, r, c), cy(s, r), t, 1);
        }
      }), 0, 0, W, H);
      g.restore();
      // danger line
      var low = lowest(s) > LINE_Y - ROW_H * 2;
      g.strokeStyle = api.alpha(pal.danger, low ? 0.6 + 0.4 * Math.sin(s.clock * 10) : 0.45); g.lineWidth = 2;
      g.setLineDash([10, 8]); g.beginPath(); g.moveTo(OX, LINE_Y); g.lineTo(W - OX, LINE_Y); g.stroke(); g.setLineDash([]);
      // aim guide: the real path, dotted, up to the first bounce and a little beyond
      if (!s.shot && api.phase === "playing") {
        var key = s.ver + ":" + s.aim.toFixed(3) + ":" + s.drop;
        if (!s.guide || s.guide.key !== key) s.guide = {key: key, f: flight(s, s.aim)};
        var pts = s.guide.f.pts, dist = 0;
        g.fillStyle = api.alpha(pal.text, 0.7);
        for (var i = 0; i < pts.length - 1 && dist < 520; i++) {
          var a = pts[i], b = pts[i + 1], len = Math.hypot(b[0] - a[0], b[1] - a[1]);
          for (var d = (24 - dist % 24) % 24; d < len && dist + d < 520; d += 24) {
            var u = d / len; g.beginPath(); g.arc(a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, 2.6, 0, Math.PI * 2); g.fill();
          }
          dist += len;
        }
        var cell = s.guide.f.cell;
        if (cell) { g.strokeStyle = api.alpha(pal.text, 0.5); g.lineWidth = 2; g.beginPath(); g.arc(cx(s, cell[0], cell[1]), cy(s, cell[0]), R - 2, 0, Math.PI * 2); g.stroke(); }
      }
      // launcher
      g.save(); g.translate(LX, LY); g.rotate(-s.aim);
      g.fillStyle = api.shade(pal.fg, -40); api.roundRect(g, 0, -9, 54, 18, 8); g.fill();
      g.fillStyle = pal.accent; api.roundRect(g, 30, -10, 26, 20, 6); g.fill();
      g.restore();
      g.fillStyle = api.alpha(pal.fg, 0.25); g.beginPath(); g.arc(LX, LY, R + 12, 0, Math.PI * 2); g.fill();
      drawBubble(g, LX, LY, s.cur, 1);
      drawBubble(g, LX - 78, LY + 26, s.next, 0.75);
      api.text(g, "next", LX - 78, LY + 52, 12, api.alpha(pal.text, 0.65), "center");
      var info = s.movesLeft !== null ? "Shots " + s.movesLeft : "Drop in " + (s.dropEvery - s.misses);
      api.text(g, info, LX + 90, LY + 26, 15, s.movesLeft !== null && s.movesLeft <= 3 ? pal.danger : api.alpha(pal.text, 0.8), "center");
      // in flight, popping, falling
      if (s.shot) {
        var sh = s.shot, A = sh.pts[sh.seg], B = sh.pts[Math.min(sh.pts.length - 1, sh.seg + 1)];
        drawBubble(g, A[0] + (B[0] - A[0]) * sh.t, A[1] + (B[1] - A[1]) * sh.t, sh.col, 1);
      }
      for (var j = 0; j < s.fx.length; j++) {
        var e = s.fx[j];
        if (e.kind === "fall") drawBubble(g, e.x, e.y, e.col, 1, 1);
        else { var k = Math.max(0, e.t - (e.d || 0)) / 0.3; drawBubble(g, e.x, e.y, e.col, 1 + k * 0.35, 1 - k); }
      }
      if (s.banner) {
        g.globalAlpha = Math.min(1, s.banner.t * 2);
        g.fillStyle = "rgba(0,0,0,0.55)"; g.fillRect(0, 300, W, 64);
        api.text(g, s.banner.text, W / 2, 332, 32, pal.accent2, "center");
        g.globalAlpha = 1;
      }
      g.imageSmoothingEnabled = true;
    },

    hook: function (s, api) {
      var hint = [];
      if (!s.shot && s.busy <= 0) {
        var b = bestShot(s);
        if (b) {
          // a point on the aiming line, well inside the canvas: a click there fires at exactly that angle
          var dx = Math.cos(b.angle), dy = -Math.sin(b.angle);
          var reach = Math.min(260, dx > 0 ? (W - 4 - LX) / dx : dx < 0 ? (4 - LX) / dx : 260);
          hint = [{type: "click", x: +((LX + dx * reach) / W).toFixed(4), y: +((LY + dy * reach) / H).toFixed(4)}];
        }
      }
      return {
        hint: hint,
        board: s.b.map(function (row) { return row.slice(); }),
        current: s.cur,
        next: s.next,
        shots: s.shots,
        popped: s.popped,
        dropped: s.dropped,
        bubblesLeft: count(s),
        ceilingDrop: s.drop,
        movesLeft: s.movesLeft,
        flying: !!s.shot || s.busy > 0,
        aim: +s.aim.toFixed(4),
        launcher: {x: +(LX / W).toFixed(4), y: +(LY / H).toFixed(4)},
      };
    },
  });
})();
