/* Tower defense: waves of creeps walk the road; build towers beside it (click or tap a free tile, or
 * move the cursor with the arrows and press Space) and they shoot whatever comes in range. A creep that
 * reaches the end costs a life. Click a tower to upgrade it. Coins come from every creep stopped. */
(function () {
  "use strict";
  var W = 480, H = 720, COLS = 12, ROWS = 14, CELL = 40;
  var WAYPOINTS = [[-1, 1], [9, 1], [9, 4], [2, 4], [2, 7], [10, 7], [10, 10], [5, 10], [5, 14]];
  var COST = 50, UPGRADE = [0, 60, 90];          // cost to build, then to reach level 2 and 3
  var RANGE = [0, 2.3, 2.7, 3.1], RELOAD = [0, 0.6, 0.45, 0.35], DAMAGE = [0, 1, 2, 3];
  var BREAK = 3;
  var statusLayer = null;   // the status line, repainted only when what it says changes

  function oy(api) { return api.top + 56; }

  // the road: segments in cell units, their lengths, and the set of cells it covers
  var SEGS = [], LENGTH = 0, ROAD = {};
  (function () {
    for (var i = 0; i < WAYPOINTS.length - 1; i++) {
      var a = WAYPOINTS[i], b = WAYPOINTS[i + 1], len = Math.abs(b[0] - a[0]) + Math.abs(b[1] - a[1]);
      SEGS.push({a: a, b: b, len: len, at: LENGTH}); LENGTH += len;
      var sx = Math.sign(b[0] - a[0]), sy = Math.sign(b[1] - a[1]);
      for (var k = 0; k <= len; k++) {
        var x = a[0] + sx * k, y = a[1] + sy * k;
        if (x >= 0 && y >= 0 && x < COLS && y < ROWS) ROAD[x + "," + y] = 1;
      }
    }
  })();

  function along(d) {
    for (var i = 0; i < SEGS.length; i++) {
      var sg = SEGS[i];
      if (d <= sg.at + sg.len || i === SEGS.length - 1) {
        var k = Math.max(0, Math.min(sg.len, d - sg.at)) / sg.len;
        return {x: sg.a[0] + (sg.b[0] - sg.a[0]) * k, y: sg.a[1] + (sg.b[1] - sg.a[1]) * k};
      }
    }
    return {x: 0, y: 0};
  }

  /** How many road tiles a tower on (x, y) would reach, and how soon along the road the first one is. */
  var COVER = (function () {
    var out = [];
    for (var y = 0; y < ROWS; y++) for (var x = 0; x < COLS; x++) {
      if (ROAD[x + "," + y]) continue;
      var n = 0, first = Infinity;
      for (var d = 0; d <= LENGTH; d += 0.5) {
        var p = along(d);
        if (Math.hypot(p.x - x, p.y - y) <= RANGE[1]) { n++; first = Math.min(first, d); }
      }
      if (n) out.push({x: x, y: y, n: n, first: first});
    }
    return out;
  })();

  function towerAt(s, x, y) {
    for (var i = 0; i < s.towers.length; i++) if (s.towers[i].x === x && s.towers[i].y === y) return s.towers[i];
    return null;
  }

  function cellAt(s, px, py) {
    var x = Math.floor(px / CELL), y = Math.floor((py - s.oy) / CELL);
    return x >= 0 && y >= 0 && x < COLS && y < ROWS ? [x, y] : null;
  }

  /** Build on a free tile, or upgrade the tower standing there; the road and too few coins say no. */
  function act(s, api, x, y) {
    var px = (x + 0.5) * CELL, py = s.oy + (y + 0.5) * CELL;
    if (ROAD[x + "," + y]) { s.nope = {x: x, y: y, t: 0.5}; return; }
    var t = towerAt(s, x, y);
    if (t) {
      if (t.level >= 3) { api.popup("max", px, py - 18, api.pal.fg); return; }
      var c = UPGRADE[t.level];
      if (s.coins < c) { s.nope = {x: x, y: y, t: 0.5}; api.popup(c + "¢", px, py - 18, api.pal.danger); return; }
      s.coins -= c; t.level++; s.spent += c;
      api.burst(px, py, api.pal.accent2, 12); api.popup("Lv " + t.level, px, py - 18, api.pal.accent2);
      return;
    }
    if (s.coins < COST) { s.nope = {x: x, y: y, t: 0.5}; api.popup(COST + "¢", px, py - 18, api.pal.danger); return; }
    s.coins -= COST; s.spent += COST;
    s.towers.push({x: x, y: y, level: 1, cool: 0, angle: -Math.PI / 2, flash: 0});
    api.burst(px, py, api.pal.accent, 10); api.beep(660);
  }

  function startWave(s, api) {
    s.wave++;
    s.toSpawn = 6 + 2 * s.wave; s.spawnT = 0.2; s.breakT = 0;
    s.banner = {text: "Wave " + s.wave + (s.waves ? " / " + s.waves : ""), t: 1.4};
  }

  function spawn(s, api) {
    var hp = 1 + s.wave + Math.floor(s.wave * s.wave / 4);
    var boss = s.toSpawn === 1 && s.wave % 3 === 0;
    s.enemies.push({id: s.nextId++, d: -0.5, hp: boss ? hp * 4 : hp, max: boss ? hp * 4 : hp, boss: boss,
                    v: (1.6 + 0.08 * s.wave + api.rng() * 0.2) * (boss ? 0.7 : 1), wob: api.rng() * 6});
  }

  CrumbGame.register({
    genre: "towerdefense",
    size: [W, H],
    survive: true,
    controls: "Click / tap a tile to build (50¢) or upgrade · arrows + Space",

    init: function (api) {
      var cfg = api.cfg || {};
      var s = {oy: oy(api), towers: [], enemies: [], shots: [], coins: 120, spent: 0, kills: 0, leaked: 0,
               wave: 0, waves: typeof cfg.levels === "number" && cfg.levels > 0 ? cfg.levels : null,
               toSpawn: 0, spawnT: 0, breakT: 0.5, cursor: [6, 8], keys: false, nextId: 1, clock: 0,
               banner: null, nope: null};
      return s;
    },

    update: function (s, dt, input, api) {
      s.clock += dt;
      for (var k = 0; k < input.pressed.length; k++) {
        var key = input.pressed[k], d = api.keyDir({pressed: [key], held: new Set()});
        if (d) {
          s.keys = true;
          if (d === "left") s.cursor[0] = Math.max(0, s.cursor[0] - 1);
          if (d === "right") s.cursor[0] = Math.min(COLS - 1, s.cursor[0] + 1);
          if (d === "up") s.cursor[1] = Math.max(0, s.cursor[1] - 1);
          if (d === "down") s.cursor[1] = Math.min(ROWS - 1, s.cursor[1] + 1);
        } else if (key === " " || key === "Enter") { s.keys = true; act(s, api, s.cursor[0], s.cursor[1]); }
      }
      for (var c = 0; c < input.clicks.length; c++) {
        var cell = cellAt(s, input.clicks[c].x, input.clicks[c].y);
        if (cell) { s.keys = false; s.cursor = cell; act(s, api, cell[0], cell[1]); }
      }

      // waves: a short break, then creeps one by one
      if (s.toSpawn === 0 && s.enemies.length === 0) {
        if (s.wave > 0 && !s.waveDone) {
          s.waveDone = true;
          var bonus = 20 + 5 * s.wave;
          s.coins += bonus; api.popup("Wave cleared +" + bonus + "¢", W / 2, s.oy + 6 * CELL, api.pal.accent2);
          if (s.waves !== null && s.wave >= s.waves) { api.setLevel(s.wave + 1); return; }
        }
        s.breakT -= dt;
        if (s.breakT <= 0) {
          s.waveDone = false; startWave(s, api);
          if (s.wave > 1) api.setLevel(s.wave);
        }
      } else if (s.toSpawn > 0) {
        s.spawnT -= dt * api.speed;
        if (s.spawnT <= 0) { spawn(s, api); s.toSpawn--; s.spawnT = 0.85; if (s.toSpawn === 0) s.breakT = BREAK; }
      }

      // creeps walk; the ones that get through cost a life
      for (var i = s.enemies.length - 1; i >= 0; i--) {
        var e = s.enemies[i];
        e.d += e.v * api.speed * dt;
        if (e.d >= LENGTH) {
          s.enemies.splice(i, 1); s.leaked++;
          var p = along(LENGTH);
          api.burst((p.x + 0.5) * CELL, s.oy + (p.y - 0.3) * CELL, api.pal.danger, 16);
          if (!api.loseLife()) return;
        }
      }
      // towers shoot the creep furthest along the road within range
      for (var t = 0; t < s.towers.length; t++) {
        var tw = s.towers[t];
        tw.cool -= dt * api.speed; tw.flash = Math.max(0, tw.flash - dt);
        if (tw.cool > 0) continue;
        var best = null, bp = null;
        for (var j = 0; j < s.enemies.length; j++) {
          var en = s.enemies[j];
          if (en.d < 0) continue;
          var ep = along(en.d);
          if (Math.hypot(ep.x - tw.x, ep.y - tw.y) <= RANGE[tw.level] && (!best || en.d > best.d)) { best = en; bp = ep; }
        }
        if (!best) continue;
        tw.cool = RELOAD[tw.level]; tw.flash = 0.12;
        tw.angle = Math.atan2(bp.y - tw.y, bp.x - tw.x);
        best.hp -= DAMAGE[tw.level];
        s.shots.push({x0: tw.x, y0: tw.y, x1: bp.x, y1: bp.y, t: 0.12, lv: tw.level});
        if (best.hp <= 0) {
          s.enemies.splice(s.enemies.indexOf(best), 1);
          s.kills++;
          var gain = 6 + s.wave * 2 + (best.boss ? 30 : 0);
          s.coins += gain;
          var ex = (bp.x + 0.5) * CELL, ey = s.oy + (bp.y + 0.5) * CELL;
          api.burst(ex, ey, api.pal.danger, 12); api.popup("+" + gain + "¢", ex, ey - 14, api.pal.accent2);
          api.addScore(10 * s.wave * (best.boss ? 5 : 1));
          if (api.phase !== "playing") return;
        }
      }
      for (var q = s.shots.length - 1; q >= 0; q--) { s.shots[q].t -= dt; if (s.shots[q].t <= 0) s.shots.splice(q, 1); }
      if (s.banner) { s.banner.t -= dt; if (s.banner.t <= 0) s.banner = null; }
      if (s.nope) { s.nope.t -= dt; if (s.nope.t <= 0) s.nope = null; }
    },

    draw: function (g, s, api) {
      var pal = api.pal, Y = s.oy;
      g.drawImage(api.cache("td" + pal.bg + pal.fg, function (cg) {
        cg.fillStyle = api.shade(pal.bg, -6); cg.fillRect(0, 0, W, H);
        for (var y = 0; y < ROWS; y++) for (var x = 0; x < COLS; x++) {
          cg.fillStyle = (x + y) % 2 ? pal.bg : api.shade(pal.bg, 8);
          cg.fillRect(x * CELL, Y + y * CELL, CELL, CELL);
        }
        // the road: a wide sandy band along the waypoints, with a darker edge
        var pts = WAYPOINTS.map(function (w) { return [(w[0] + 0.5) * CELL, Y + (w[1] + 0.5) * CELL]; });
        cg.lineJoin = "round"; cg.lineCap = "butt";
        cg.strokeStyle = api.mix(pal.bg, pal.fg, 0.35); cg.lineWidth = CELL * 0.92;
        cg.beginPath(); cg.moveTo(pts[0][0], pts[0][1]); for (var i = 1; i < pts.length; i++) cg.lineTo(pts[i][0], pts[i][1]); cg.stroke();
        cg.strokeStyle = api.mix(pal.bg, pal.fg, 0.55); cg.lineWidth = CELL * 0.74;
        cg.stroke();
        cg.setLineDash([6, 10]); cg.strokeStyle = api.alpha(pal.bg, 0.35); cg.lineWidth = 2; cg.stroke(); cg.setLineDash([]);
        // a few bushes and stones on the grass (a fixed pattern: the field looks the same every round)
        for (var yy = 0; yy < ROWS; yy++) for (var xx = 0; xx < COLS; xx++) {
          if (ROAD[xx + "," + yy]) continue;
          var hsh = (xx * 73 + yy * 151 + xx * yy * 7) % 11, bx = (xx + 0.5) * CELL, by = Y + (yy + 0.5) * CELL;
          if (hsh === 0) {
            cg.fillStyle = api.shade(pal.bg, 28); cg.beginPath(); cg.arc(bx - 6, by + 2, 8, 0, Math.PI * 2); cg.arc(bx + 5, by - 3, 9, 0, Math.PI * 2); cg.fill();
            cg.fillStyle = api.shade(pal.bg, 45); cg.beginPath(); cg.arc(bx + 2, by - 6, 4, 0, Math.PI * 2); cg.fill();
          } else if (hsh === 5) {
            cg.fillStyle = api.alpha(pal.fg, 0.28); cg.beginPath(); cg.ellipse(bx + 4, by + 6, 6, 4, 0.3, 0, Math.PI * 2); cg.fill();
            cg.beginPath(); cg.ellipse(bx - 7, by - 5, 3.5, 2.5, 0, 0, Math.PI * 2); cg.fill();
          }
        }
        // the gate the creeps must not reach
        var end = pts[pts.length - 1];
        cg.fillStyle = api.alpha(pal.danger, 0.5); cg.fillRect(end[0] - CELL * 0.5, Y + ROWS * CELL - 8, CELL, 8);
        cg.fillStyle = "rgba(0,0,0,0.25)"; cg.fillRect(0, Y + ROWS * CELL, W, H - Y - ROWS * CELL);
        api.text(cg, "Build 50¢ · upgrade 60¢/90¢ · stop them at the red gate", W / 2, Y + ROWS * CELL + 24, 13, api.alpha(pal.text, 0.6), "center");
      }), 0, 0, W, H);

      // the cursor (keyboard) with the range a tower there would have
      var cur = s.cursor, hx = (cur[0] + 0.5) * CELL, hy = Y + (cur[1] + 0.5) * CELL;
      if (s.keys) {
        var tw0 = towerAt(s, cur[0], cur[1]);
        g.strokeStyle = api.alpha(pal.text, 0.25); g.lineWidth = 1.5;
        g.beginPath(); g.arc(hx, hy, RANGE[tw0 ? tw0.level : 1] * CELL, 0, Math.PI * 2); g.stroke();
        g.strokeStyle = ROAD[cur[0] + "," + cur[1]] ? pal.danger : pal.accent2; g.lineWidth = 3;
        g.strokeRect(cur[0] * CELL + 2, Y + cur[1] * CELL + 2, CELL - 4, CELL - 4);
      }
      if (s.nope) {
        g.fillStyle = api.alpha(pal.danger, s.nope.t); g.fillRect(s.nope.x * CELL, Y + s.nope.y * CELL, CELL, CELL);
      }
      // towers
      for (var t = 0; t < s.towers.length; t++) {
        var tw = s.towers[t], x = (tw.x + 0.5) * CELL, y = Y + (tw.y + 0.5) * CELL;
        g.fillStyle = "rgba(0,0,0,0.3)"; g.beginPath(); g.arc(x + 2, y + 3, CELL * 0.42, 0, Math.PI * 2); g.fill();
        g.fillStyle = api.shade(pal.fg, -70); api.roundRect(g, x - CELL * 0.4, y - CELL * 0.4, CELL * 0.8, CELL * 0.8, 8); g.fill();
        var col = tw.level === 1 ? pal.accent : tw.level === 2 ? pal.accent2 : pal.text;
        g.fillStyle = col; g.beginPath(); g.arc(x, y, CELL * 0.26, 0, Math.PI * 2); g.fill();
        g.save(); g.translate(x, y); g.rotate(tw.angle);
        g.fillStyle = api.shade(col, -50); g.fillRect(0, -3.5, CELL * 0.45, 7);
        if (tw.flash > 0) { g.fillStyle = pal.accent2; g.beginPath(); g.arc(CELL * 0.5, 0, 5, 0, Math.PI * 2); g.fill(); }
        g.restore();
        for (var pip = 0; pip < tw.level; pip++) { g.fillStyle = pal.accent2; g.fillRect(x - 9 + pip * 7, y + CELL * 0.28, 5, 4); }
      }
      // creeps, with their health
      for (var i = 0; i < s.enemies.length; i++) {
        var e = s.enemies[i];
        if (e.d < -0.45) continue;
        var p = along(e.d), ex = (p.x + 0.5) * CELL, ey = Y + (p.y + 0.5) * CELL + Math.sin(s.clock * 10 + e.wob) * 1.5;
        var r = e.boss ? 15 : 11;
        g.fillStyle = "rgba(0,0,0,0.3)"; g.beginPath(); g.ellipse(ex, ey + r * 0.8, r, r * 0.35, 0, 0, Math.PI * 2); g.fill();
        g.fillStyle = pal.danger; g.beginPath(); g.arc(ex, ey, r, 0, Math.PI * 2); g.fill();
        g.fillStyle = api.shade(pal.danger, 60); g.beginPath(); g.arc(ex - r * 0.3, ey - r * 0.35, r * 0.35, 0, Math.PI * 2); g.fill();
        g.fillStyle = "#fff"; g.fillRect(ex - 5, ey - 2, 3, 3); g.fillRect(ex + 2, ey - 2, 3, 3);
        var f = Math.max(0, e.hp / e.max);
        g.fillStyle = "rgba(0,0,0,0.6)"; g.fillRect(ex - 13, ey - r - 8, 26, 4);
        g.fillStyle = f > 0.5 ? "#6be675" : f > 0.25 ? pal.accent2 : pal.danger; g.fillRect(ex - 13, ey - r - 8, 26 * f, 4);
      }
      // shots
      for (var k = 0; k < s.shots.length; k++) {
        var sh = s.shots[k];
        g.strokeStyle = api.alpha(sh.lv === 1 ? pal.accent : pal.accent2, Math.min(1, sh.t / 0.12)); g.lineWidth = 1 + sh.lv;
        g.beginPath(); g.moveTo((sh.x0 + 0.5) * CELL, Y + (sh.y0 + 0.5) * CELL); g.lineTo((sh.x1 + 0.5) * CELL, Y + (sh.y1 + 0.5) * CELL); g.stroke();
      }
      // status line above the field and the footer
      // text is slow on a software canvas: the status line is painted once per value and blitted
      var status = "Wave " + Math.max(1, s.wave) + (s.waves ? "/" + s.waves : "") + "|" + s.coins + "|" + s.towers.length;
      var parts = status.split("|");
      var sc = CrumbGame.scaleOf(g);
      if (!statusLayer || statusLayer.key !== status + sc) {
        var c = statusLayer ? statusLayer.canvas : document.createElement("canvas");
        c.width = Math.ceil(W * sc); c.height = Math.ceil(40 * sc);
        var cg = c.getContext("2d");
        cg.setTransform(sc, 0, 0, sc, 0, 0);
        api.text(cg, parts[0], 14, 20, 16, pal.text, "left");
        api.text(cg, "¢ " + parts[1], W / 2, 20, 18, pal.accent2, "center");
        api.text(cg, "Towers " + parts[2], W - 14, 20, 16, pal.text, "right");
        statusLayer = {key: status + sc, canvas: c};
      }
      g.drawImage(statusLayer.canvas, 0, Y - 42, W, 40);
      if (s.banner) {
        g.globalAlpha = Math.min(1, s.banner.t * 2);
        g.fillStyle = "rgba(0,0,0,0.5)"; g.fillRect(0, Y + 5.3 * CELL, W, 56);
        api.text(g, s.banner.text, W / 2, Y + 6 * CELL, 30, pal.accent2, "center");
        g.globalAlpha = 1;
      }
    },

    hook: function (s, api) {
      // the hint: build on the free tile that covers the most road (early in the round: near the start),
      // else upgrade the tower that covers the most, else wait for coins
      var hint = [], pick = null, up = null;
      if (s.coins >= COST) {
        var early = s.towers.length === 0;
        for (var i = 0; i < COVER.length; i++) {
          var cv = COVER[i];
          if (towerAt(s, cv.x, cv.y)) continue;
          if (early && cv.first > 2.5) continue;
          if (!pick || cv.n > pick.n || (cv.n === pick.n && cv.first < pick.first)) pick = cv;
        }
      }
      for (var j = 0; j < s.towers.length; j++) {
        var tw = s.towers[j];
        if (tw.level >= 3 || s.coins < UPGRADE[tw.level]) continue;
        var cov = COVER.filter(function (c) { return c.x === tw.x && c.y === tw.y; })[0] || {x: tw.x, y: tw.y, n: 0};
        if (!up || cov.n > up.n) up = cov;
      }
      if (up && (s.towers.length >= 4 || !pick)) pick = up;
      if (pick) hint = [{type: "click", x: +(((pick.x + 0.5) * CELL) / W).toFixed(4), y: +((s.oy + (pick.y + 0.5) * CELL) / H).toFixed(4)}];
      return {
        hint: hint,
        wave: s.wave,
        coins: s.coins,
        cost: COST,
        towers: s.towers.map(function (t) { return {x: t.x, y: t.y, level: t.level}; }),
        enemies: s.enemies.length,
        kills: s.kills,
        leaked: s.leaked,
        cursor: [s.cursor[0], s.cursor[1]],
        road: Object.keys(ROAD).map(function (k) { return k.split(",").map(Number); }),
        // where tile (0, 0)'s centre is and how far apart tiles are, in canvas fractions
        cells: {x: +((CELL / 2) / W).toFixed(4), y: +((s.oy + CELL / 2) / H).toFixed(4), dx: +(CELL / W).toFixed(4), dy: +(CELL / H).toFixed(4)},
      };
    },
  });
})();
