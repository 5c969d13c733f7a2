/* Lane hopper (Frogger / Crossy Road): hop a blocky chicken up through rows of grass, roads full of traffic
 * and rivers with drifting logs. Arrows / WASD hop; a click or tap hops toward it (forward by default);
 * a swipe hops that way. Endless rows, or with levels a goal line every LEVEL_ROWS rows. */
(function () {
  "use strict";

  var W = 480, H = 720, COLS = 8, CW = W / COLS, RH = 60, M = 150, P = W + 2 * M, HOP_S = 0.12;
  var LEVEL_ROWS = 16, HALF = 17, HORIZON = 0.8;
  var MOVES = {up: [1, 0], down: [-1, 0], left: [0, -1], right: [0, 1]};
  var KEY_OF = {up: "ArrowUp", down: "ArrowDown", left: "ArrowLeft", right: "ArrowRight"};

  function mod(a, n) { return ((a % n) + n) % n; }
  function colX(c) { return (c + 0.5) * CW; }
  function snap(x) { return colX(Math.max(0, Math.min(COLS - 1, Math.floor(x / CW)))); }

  // ---------------------------------------------------------------- the world, made row by row
  function makeRow(s, api) {
    var r = s.rows.length, g = s.gen;
    var goal = s.levels !== null && r > 0 && r % LEVEL_ROWS === 0;
    if (goal || r < 3) { s.rows.push({type: goal ? "goal" : "grass", trees: r === 0 ? edgeTrees(api) : {}}); return; }
    if (g.left <= 0) {
      var prev = g.kind, roll = api.rng();
      var hard = Math.min(1, r / 80);
      if (prev !== "grass") { g.kind = "grass"; g.left = 1 + (api.rng() < 0.35 ? 1 : 0); }
      else if (roll < 0.58) { g.kind = "road"; g.left = 1 + api.randInt(2 + Math.round(hard * 2)); }
      else { g.kind = "river"; g.left = 1 + api.randInt(2 + Math.round(hard)); }
      g.dir = api.rng() < 0.5 ? 1 : -1;
    }
    g.left--;
    if (g.kind === "grass") { s.rows.push({type: "grass", trees: someTrees(api)}); return; }
    g.dir = -g.dir;
    var lvl = Math.min(1, r / 90);
    if (g.kind === "road") {
      var v = (55 + api.rng() * 55 + 70 * lvl) * api.speed * g.dir, n = 1 + api.randInt(3), cars = [];
      for (var i = 0; i < n; i++) {
        var w = api.rng() < 0.25 ? 118 : 62 + api.randInt(18);
        cars.push({off: i * P / n + api.rng() * Math.max(0, P / n - w - 150), w: w, c: api.randInt(4)});
      }
      s.rows.push({type: "road", v: v, items: cars});
    } else {
      var lv = (35 + api.rng() * 30 + 35 * lvl) * api.speed * g.dir, m = 2 + api.randInt(2), logs = [];
      for (var j = 0; j < m; j++) {
        var lw = 120 + api.randInt(4) * 20;
        logs.push({off: j * P / m + api.rng() * Math.max(0, P / m - lw - 70), w: lw});
      }
      s.rows.push({type: "river", v: lv, items: logs});
    }
  }
  function edgeTrees(api) { void api; return {0: 1, 7: 1}; }
  function someTrees(api) {
    var t = {}, n = api.randInt(3);
    for (var i = 0; i < n; i++) t[api.randInt(COLS)] = 1;
    return t;
  }
  function row(s, r, api) { while (s.rows.length <= r) makeRow(s, api); return s.rows[r]; }
  function itemX(row, it, T) { return mod(it.off + row.v * T, P) - M; }

  // Is (x) on row r safe at time T? "car", "water", "edge" or null.
  function danger(s, r, x, T, api) {
    var rw = row(s, r, api);
    if (x < 6 || x > W - 6) return "edge";
    if (rw.type === "road") {
      for (var i = 0; i < rw.items.length; i++) {
        var cx = itemX(rw, rw.items[i], T);
        if (x + HALF > cx + 4 && x - HALF < cx + rw.items[i].w - 4) return "car";
      }
    } else if (rw.type === "river") {
      if (logUnder(rw, x, T) === null) return "water";
    }
    return null;
  }
  function logUnder(rw, x, T) {
    for (var i = 0; i < rw.items.length; i++) {
      var lx = itemX(rw, rw.items[i], T);
      if (x > lx + 6 && x < lx + rw.items[i].w - 6) return rw.items[i];
    }
    return null;
  }
  function blocked(s, r, x, api) {
    var rw = row(s, r, api);
    return !!(rw.trees && rw.trees[Math.floor(x / CW)]);
  }

  // How long (up to HORIZON) someone who stands still at (r, x) from time T lives.
  function survives(s, r, x, T, api) {
    var rw = row(s, r, api);
    for (var t = 0; t <= HORIZON + 1e-9; t += 0.05) {
      var px = rw.type === "river" ? x + rw.v * t : x;
      if (danger(s, r, px, T + t, api)) return t;
    }
    return HORIZON;
  }

  function landing(s, dir, api) {
    var p = s.p, d = MOVES[dir], r = p.r + d[0], x = p.x + d[1] * CW;
    if (r < Math.max(0, s.best - 4) || x < CW * 0.4 || x > W - CW * 0.4) return null;
    if (d[0] !== 0 && row(s, r, api).type !== "river") x = snap(x);
    if (blocked(s, r, x, api)) return null;
    return {r: r, x: x};
  }

  function hop(s, dir, api) {
    var to = landing(s, dir, api);
    s.p.face = dir;
    if (!to) { s.p.bump = 0.12; return; }
    s.p.from = {r: s.p.r, x: s.p.x}; s.p.hopT = HOP_S;
    s.p.r = to.r; s.p.x = to.x; s.hops++;
    api.beep(660);
    if (s.p.r > s.best) {
      api.addScore(10 * (s.p.r - s.best));
      s.best = s.p.r;
      if (row(s, s.p.r, api).type === "goal") {
        api.popup("Level " + (s.p.r / LEVEL_ROWS + 1), W / 2, yOf(s, s.p.r) - 30, api.pal.accent);
        api.burst(s.p.x, yOf(s, s.p.r), api.pal.accent, 24);
        api.setLevel(s.p.r / LEVEL_ROWS + 1);
      }
    }
  }

  function die(s, api, why) {
    s.deaths++; s.lastDeath = why;
    api.burst(s.p.x, yOf(s, s.p.r), why === "water" ? "#7fd3ff" : api.pal.danger, 26);
    api.popup(why === "car" ? "splat!" : why === "water" ? "splash!" : "swept away!", s.p.x, yOf(s, s.p.r) - 30, api.pal.danger);
    if (!api.loseLife()) return;
    // back on the nearest grass at or below, clear of trees, with a moment of grace
    var r = s.p.r;
    while (r > 0 && row(s, r, api).type !== "grass" && row(s, r, api).type !== "goal") r--;
    var x = snap(s.p.x), rw = row(s, r, api);
    for (var k = 0; rw.trees && rw.trees[Math.floor(x / CW)] && k < COLS; k++) x = colX((Math.floor(x / CW) + 1) % COLS);
    s.p.r = r; s.p.x = x; s.p.hopT = 0; s.grace = 1.2;
  }

  function yOf(s, r) { return H - (r - s.cam + 0.5) * RH; }

  CrumbGame.register({
    genre: "hopper",
    size: [W, H],
    controls: "Arrows / WASD hop \u00b7 tap to hop on \u00b7 swipe to turn",

    init: function (api) {
      var lv = api.cfg && typeof api.cfg.levels === "number" && api.cfg.levels > 0 ? api.cfg.levels : null;
      // the hero is a chicken, or a frog when the spec's extras ask for one (a Frogger pitch)
      var frog = !!(api.cfg && api.cfg.extras && api.cfg.extras.indexOf("frogs") >= 0);
      var s = {rows: [], gen: {kind: "grass", left: 0, dir: 1}, levels: lv, T: 0, cam: 0, best: 0, hops: 0, deaths: 0,
               lastDeath: null, grace: 0, frog: frog, p: {r: 0, x: colX(3), face: "up", hopT: 0, from: null, bump: 0}};
      row(s, 20, api);
      return s;
    },

    update: function (s, dt, input, api) {
      s.T += dt;
      for (var k = 0; k < input.pressed.length; k++) {
        var key = input.pressed[k];
        var dir = {ArrowUp: "up", w: "up", W: "up", ArrowDown: "down", s: "down", S: "down", ArrowLeft: "left",
                   a: "left", A: "left", ArrowRight: "right", d: "right", D: "right", " ": "up"}[key];
        if (dir) hop(s, dir, api);
        if (api.phase !== "playing") return;
      }
      for (var c = 0; c < input.clicks.length; c++) {
        var cl = input.clicks[c], dx = cl.x - s.p.x, dy = cl.y - yOf(s, s.p.r);
        var d2 = "up";
        if (Math.abs(dx) > CW * 0.6 && Math.abs(dx) > Math.abs(dy)) d2 = dx > 0 ? "right" : "left";
        else if (dy > RH * 0.6) d2 = "down";
        hop(s, d2, api);
        if (api.phase !== "playing") return;
      }
      // carried by a log
      var rw = row(s, s.p.r, api);
      if (rw.type === "river" && s.p.hopT <= 0) {
        var log = logUnder(rw, s.p.x, s.T);
        if (log) s.p.x += rw.v * dt;
      }
      s.p.hopT = Math.max(0, s.p.hopT - dt); s.p.bump = Math.max(0, s.p.bump - dt);
      s.grace = Math.max(0, s.grace - dt);
      if (s.p.hopT <= 0) {
        var why = danger(s, s.p.r, s.p.x, s.T, api);
        if (why && (s.grace <= 0 || why !== "car")) { die(s, api, why); if (api.phase !== "playing") return; }
      }
      row(s, s.p.r + 16, api);
      var want = Math.max(0, s.p.r - 3);
      s.cam += (want - s.cam) * Math.min(1, dt * 6);
    },

    draw: function (g, s, api) {
      var pal = api.pal, first = Math.max(0, Math.floor(s.cam) - 1), last = Math.ceil(s.cam + H / RH) + 1;
      var grassA = api.mix("#6cc24a", pal.bg, 0.35), grassB = api.mix("#58ad3f", pal.bg, 0.35);
      var CARS = [pal.danger, pal.accent, pal.accent2, "#4d9de0"];
      for (var r = first; r <= last; r++) {
        var rw = row(s, r, api), y = yOf(s, r) - RH / 2;
        if (rw.type === "grass" || rw.type === "goal") {
          g.fillStyle = r % 2 ? grassA : grassB; g.fillRect(0, y, W, RH);
          if (rw.type === "goal") {
            for (var q = 0; q < 16; q++) {
              g.fillStyle = q % 2 ? "#ffffff" : "#1b1b1b"; g.fillRect(q * W / 16, y + RH / 2 - 6, W / 16, 6);
              g.fillStyle = q % 2 ? "#1b1b1b" : "#ffffff"; g.fillRect(q * W / 16, y + RH / 2, W / 16, 6);
            }
            api.text(g, "GOAL " + (r / LEVEL_ROWS) + (s.levels ? " / " + s.levels : ""), W / 2, y + 12, 13, "#ffffff", "center");
          }
          for (var tc in rw.trees) {
            var tx = colX(+tc);
            g.fillStyle = "#6b4226"; g.fillRect(tx - 6, y + RH - 22, 12, 16);
            g.fillStyle = "#2e7d32"; api.roundRect(g, tx - 20, y + 6, 40, 36, 6); g.fill();
            g.fillStyle = "#43a047"; api.roundRect(g, tx - 16, y + 6, 32, 14, 5); g.fill();
          }
        } else if (rw.type === "road") {
          g.fillStyle = "#3a3d46"; g.fillRect(0, y, W, RH);
          g.fillStyle = "rgba(255,255,255,0.35)";
          for (var dsh = 0; dsh < W; dsh += 48) g.fillRect(dsh + 10, y + RH - 2, 24, 3);
          for (var i = 0; i < rw.items.length; i++) {
            var it = rw.items[i], cx = itemX(rw, it, s.T), col = CARS[it.c], right = rw.v > 0;
            g.fillStyle = "rgba(0,0,0,0.25)"; api.roundRect(g, cx + 2, y + 12, it.w, RH - 18, 8); g.fill();
            g.fillStyle = col; api.roundRect(g, cx, y + 8, it.w, RH - 18, 8); g.fill();
            g.fillStyle = api.alpha("#0b1020", 0.6);
            var cab = it.w > 100 ? 26 : it.w * 0.4;  // over 100 px long it is a truck: a short cab, a long box
            g.fillRect(right ? cx + it.w - cab - 8 : cx + 8, y + 13, cab, RH - 28);
            g.fillStyle = "#fff7c2";
            g.fillRect(right ? cx + it.w - 4 : cx, y + 12, 4, 6); g.fillRect(right ? cx + it.w - 4 : cx, y + RH - 22, 4, 6);
          }
        } else {
          g.fillStyle = api.mix("#2f80d1", pal.bg, 0.15); g.fillRect(0, y, W, RH);
          g.strokeStyle = "rgba(255,255,255,0.18)"; g.lineWidth = 2;
          for (var wv = 0; wv < 6; wv++) {
            var wx = mod(wv * 97 + s.T * rw.v * 0.4, W + 40) - 20;
            g.beginPath(); g.moveTo(wx, y + 20 + (wv % 3) * 12); g.lineTo(wx + 18, y + 20 + (wv % 3) * 12); g.stroke();
          }
          for (var j = 0; j < rw.items.length; j++) {
            var lg = rw.items[j], lx = itemX(rw, lg, s.T);
            g.fillStyle = "#7a4a25"; api.roundRect(g, lx, y + 9, lg.w, RH - 18, 12); g.fill();
            g.fillStyle = "#9c6233"; api.roundRect(g, lx + 4, y + 12, lg.w - 8, 10, 5); g.fill();
            g.strokeStyle = "#5a3418"; g.lineWidth = 2;
            g.beginPath(); g.ellipse(lx + lg.w - 10, y + RH / 2, 5, 14, 0, 0, Math.PI * 2); g.stroke();
          }
        }
      }
      // the chicken: a white block with a red comb and an orange beak, hopping in an arc (or the frog: a green
      // body, big eyes on top and four splayed feet)
      var p = s.p, k = p.hopT > 0 ? 1 - p.hopT / HOP_S : 1;
      var fx = p.from && p.hopT > 0 ? api.lerp(p.from.x, p.x, k) : p.x;
      var fy = p.from && p.hopT > 0 ? api.lerp(yOf(s, p.from.r), yOf(s, p.r), k) : yOf(s, p.r);
      var lift = p.hopT > 0 ? Math.sin(k * Math.PI) * 14 : 0;
      if (!(s.grace > 0 && Math.floor(s.grace * 10) % 2)) {
        g.fillStyle = "rgba(0,0,0,0.25)"; g.beginPath(); g.ellipse(fx, fy + 14, 16, 6, 0, 0, Math.PI * 2); g.fill();
        var by = fy - lift - 4;
        if (s.frog) {
          g.fillStyle = "#2e9e3e";
          g.fillRect(fx - 19, by + 6, 8, 6); g.fillRect(fx + 11, by + 6, 8, 6); g.fillRect(fx - 17, by - 12, 6, 6); g.fillRect(fx + 11, by - 12, 6, 6);
          g.fillStyle = "#43c853"; api.roundRect(g, fx - 14, by - 12, 28, 26, 10); g.fill();
          g.fillStyle = "#8fe39a"; api.roundRect(g, fx - 8, by - 2, 16, 12, 5); g.fill();
          var lk = p.face === "left" ? -2 : p.face === "right" ? 2 : 0;
          for (var ex = -1; ex <= 1; ex += 2) {
            g.fillStyle = "#43c853"; g.beginPath(); g.arc(fx + ex * 8, by - 13, 6, 0, Math.PI * 2); g.fill();
            g.fillStyle = "#ffffff"; g.beginPath(); g.arc(fx + ex * 8, by - 14, 4, 0, Math.PI * 2); g.fill();
            g.fillStyle = "#1b1b1b"; g.fillRect(fx + ex * 8 - 1 + lk, by - 16 + (p.face === "down" ? 2 : 0), 3, 3);
          }
        } else {
          g.fillStyle = "#ffffff"; api.roundRect(g, fx - 15, by - 14, 30, 28, 5); g.fill();
          g.fillStyle = "#e5e5e5"; g.fillRect(fx - 15, by + 8, 30, 6);
          g.fillStyle = "#e53935"; g.fillRect(fx - 4, by - 21, 8, 8);
          var face = p.face === "left" ? -1 : p.face === "right" ? 1 : 0;
          g.fillStyle = "#ff9800"; g.fillRect(fx - 4 + face * 14, by - 4 + (p.face === "down" ? 10 : 0), 8, 6);
          g.fillStyle = "#1b1b1b";
          if (p.face !== "up") { g.fillRect(fx - 9 + face * 6, by - 8, 4, 4); g.fillRect(fx + 5 + face * 6, by - 8, 4, 4); }
          g.fillStyle = "#ff9800"; g.fillRect(fx - 9, by + 14, 5, 4); g.fillRect(fx + 4, by + 14, 5, 4);
        }
      }
      if (api.phase !== "title") api.text(g, "Row " + s.best, W - 14, api.top + 20, 15, "#ffffff", "right");
    },

    hook: function (s, api) {
      // the hint: hop forward when the landing spot stays safe for a moment, else wait if standing
      // still is safe, else step aside, else back
      var hint = [], T = s.T + HOP_S, best = null, bestT = -1;
      var side = s.p.x > W / 2 ? ["left", "right"] : ["right", "left"];
      // a tree ahead: step round it rather than wait in front of it for ever
      var order = landing(s, "up", api) ? ["up", "stay"].concat(side, ["down"]) : side.concat(["stay", "down"]);
      for (var i = 0; i < order.length; i++) {
        var d = order[i], to = d === "stay" ? {r: s.p.r, x: s.p.x} : landing(s, d, api);
        if (!to) continue;
        var t = survives(s, to.r, to.x, d === "stay" ? s.T : T, api);
        if (t >= HORIZON) { best = d; break; }
        if (t > bestT) { bestT = t; best = d; }
      }
      if (best && best !== "stay") hint.push({type: "key", key: KEY_OF[best]});
      var here = row(s, s.p.r, api), lanes = [];
      for (var k = 0; k < 6; k++) {
        var rw = row(s, s.p.r + k, api);
        lanes.push({type: rw.type, speed: rw.v ? +Math.abs(rw.v).toFixed(2) : 0, dir: rw.v > 0 ? "right" : rw.v < 0 ? "left" : null});
      }
      return {hint: hint, row: s.p.r, bestRow: s.best, column: Math.floor(s.p.x / CW), lane: here.type,
              ahead: row(s, s.p.r + 1, api).type, lanes: lanes, hops: s.hops, deaths: s.deaths, lastDeath: s.lastDeath,
              goalEvery: s.levels !== null ? LEVEL_ROWS : null,
              draws: {chickens: !s.frog, frogs: s.frog, cars: true, trucks: true}};
    },
  });
})();
