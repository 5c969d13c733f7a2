/* Maze chase (Pac-Man): eat every pellet in the maze while four ghosts hunt you; a power pellet turns
 * them blue for a few seconds and then they are worth eating. Arrows/WASD, swipe, or click/tap on the
 * side of the hero you want to go. A turn is remembered until the corridor allows it. */
(function () {
  "use strict";
  var MAP = [
    "###################",
    "#........#........#",
    "#o##.###.#.###.##o#",
    "#.................#",
    "#.##.#.#####.#.##.#",
    "#....#...#...#....#",
    "####.### # ###.####",
    "XXX#.#       #.#XXX",
    "####.# ##-## #.####",
    "    .  #GGG#  .    ",
    "####.# ##### #.####",
    "XXX#.#       #.#XXX",
    "####.# ##### #.####",
    "#........#........#",
    "#.##.###.#.###.##.#",
    "#o.#.....P.....#.o#",
    "##.#.#.#####.#.#.##",
    "#....#...#...#....#",
    "#.######.#.######.#",
    "#.................#",
    "###################",
  ];
  var COLS = 19, ROWS = 21, CELL = 24;
  var DIRS = {up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0]};
  var ORDER = ["up", "left", "down", "right"];   // the classic tie-break order for ghosts
  var OPP = {up: "down", down: "up", left: "right", right: "left"};
  var KEY = {up: "ArrowUp", down: "ArrowDown", left: "ArrowLeft", right: "ArrowRight"};
  var START = {x: 9, y: 15}, DOOR = {x: 9, y: 7}, PEN = {x: 9, y: 9};
  var GHOSTS = [
    {name: "blinky", color: null, corner: {x: 18, y: -2}, release: 0},
    {name: "pinky", color: "#ff9ad5", corner: {x: 0, y: -2}, release: 1.5},
    {name: "inky", color: "#5ef0ff", corner: {x: 18, y: 22}, release: 4.5},
    {name: "clyde", color: "#ffb347", corner: {x: 0, y: 22}, release: 7.5},
  ];
  // scatter, chase, scatter, chase...: seconds each phase lasts (the last one lasts for ever)
  var MODES = [5, 18, 5, 30, 4];

  function wrapX(x) { return (x + COLS) % COLS; }
  function tile(s, x, y) {
    if (y < 0 || y >= ROWS) return "#";
    return s.map[y][wrapX(x)];
  }
  function open(s, x, y) { var t = tile(s, x, y); return t !== "#" && t !== "X" && t !== "-" && t !== "G"; }
  function ghostOpen(s, x, y) { var t = tile(s, x, y); return t !== "#" && t !== "X"; }

  function field(api) {
    return {x: Math.floor((api.W - COLS * CELL) / 2), y: api.top + 34};
  }

  function newMaze(s) {
    s.map = MAP.map(function (row) { return row.split(""); });
    s.pellets = 0;
    for (var y = 0; y < ROWS; y++) for (var x = 0; x < COLS; x++) {
      var t = s.map[y][x];
      if (t === "." || t === "o") s.pellets++;
      if (t === "P") s.map[y][x] = " ";
    }
    s.total = s.pellets;
  }

  function place(s) {
    s.pac = {cx: START.x, cy: START.y, t: 0, dir: "left", want: "left", moving: true};
    s.ghosts = GHOSTS.map(function (d, i) {
      var inside = i > 0;
      return {i: i, cx: inside ? PEN.x - 1 + i - 1 : DOOR.x, cy: inside ? PEN.y : DOOR.y, t: 0, dir: "left",
              mode: inside ? "pen" : "hunt", wait: d.release, leave: 0};
    });
    s.modeIx = 0; s.modeT = 0; s.fright = 0; s.chain = 0; s.dying = 0; s.ready = 1.2;
  }

  function pos(e) {
    var d = DIRS[e.dir];
    return {x: e.cx + d[0] * e.t, y: e.cy + d[1] * e.t};
  }

  // each level is faster, up to the 20th: Pac-Man's 255 levels stay playable
  function ramp(api) { return Math.min(api.level, 20) - 1; }
  function pacSpeed(s, api) { return 7.4 * api.speed * (1 + 0.06 * ramp(api)); }
  function ghostSpeed(s, g, api) {
    var base = 6.7 * api.speed * (1 + 0.08 * ramp(api));
    if (g.mode === "eyes") return base * 2.2;
    if (g.mode === "fright") return base * 0.55;
    if (g.cy === 9 && (g.cx < 4 || g.cx > 14)) return base * 0.6;   // the tunnel slows ghosts down
    return base;
  }

  /** Move the hero `dist` cells: a wanted turn is taken at the first cell centre that allows it. */
  function movePac(s, dist) {
    var p = s.pac;
    if (p.want && p.want === OPP[p.dir] && p.t > 0) {      // reversing is allowed at once
      var d0 = DIRS[p.dir];
      p.cx = wrapX(p.cx + d0[0]); p.cy += d0[1]; p.t = 1 - p.t; p.dir = p.want;
    }
    var guard = 0;
    while (dist > 0 && guard++ < 8) {
      if (p.t === 0) {
        if (p.want && open(s, p.cx + DIRS[p.want][0], p.cy + DIRS[p.want][1])) p.dir = p.want;
        p.moving = open(s, p.cx + DIRS[p.dir][0], p.cy + DIRS[p.dir][1]);
        if (!p.moving) return;
      }
      var step = Math.min(dist, 1 - p.t);
      p.t += step; dist -= step;
      if (p.t >= 1 - 1e-9) {
        var d = DIRS[p.dir];
        p.cx = wrapX(p.cx + d[0]); p.cy += d[1]; p.t = 0;
        arrive(s, p.cx, p.cy);
      }
    }
  }

  function arrive(s, x, y) {
    var t = s.map[y][x];
    if (t === "." || t === "o") {
      s.map[y][x] = " "; s.pellets--; s.eaten++;
      s.events.push(t === "o" ? "power" : "pellet");
    }
  }

  function target(s, g) {
    var p = s.pac, d = DIRS[p.dir], def = GHOSTS[g.i];
    if (g.mode === "eyes") return DOOR;
    if (MODES_SCATTER(s)) return def.corner;
    if (g.i === 0) return {x: p.cx, y: p.cy};
    if (g.i === 1) return {x: p.cx + d[0] * 4, y: p.cy + d[1] * 4};
    if (g.i === 2) {
      var r = s.ghosts[0], ax = p.cx + d[0] * 2, ay = p.cy + d[1] * 2;
      return {x: ax * 2 - r.cx, y: ay * 2 - r.cy};
    }
    var far = Math.abs(g.cx - p.cx) + Math.abs(g.cy - p.cy) > 8;
    return far ? {x: p.cx, y: p.cy} : def.corner;
  }
  function MODES_SCATTER(s) { return s.modeIx % 2 === 0 && s.modeIx < MODES.length; }

  function chooseGhostDir(s, g, api) {
    var opts = [];
    for (var k = 0; k < 4; k++) {
      var dname = ORDER[k], d = DIRS[dname];
      if (dname === OPP[g.dir]) continue;
      var nx = g.cx + d[0], ny = g.cy + d[1], t = tile(s, nx, ny);
      if (!ghostOpen(s, nx, ny)) continue;
      if ((t === "-" || t === "G") && g.mode !== "eyes") continue;   // only eyes go back into the pen
      opts.push(dname);
    }
    if (!opts.length) return OPP[g.dir];
    if (g.mode === "fright") return opts[api.randInt(opts.length)];
    var tg = target(s, g), best = opts[0], bestD = Infinity;
    for (var j = 0; j < opts.length; j++) {
      var dd = DIRS[opts[j]], ex = g.cx + dd[0] - tg.x, ey = g.cy + dd[1] - tg.y, dist = ex * ex + ey * ey;
      if (dist < bestD) { bestD = dist; best = opts[j]; }
    }
    return best;
  }

  function moveGhost(s, g, dist, api) {
    if (g.mode === "pen") {
      g.wait -= dist / ghostSpeed(s, g, api);
      if (g.wait <= 0) { g.mode = "leave"; g.leave = 0; g.from = {x: g.cx, y: g.cy}; }
      return;
    }
    if (g.mode === "leave") {
      g.leave += dist / 2.2;
      if (g.leave >= 1) { g.cx = DOOR.x; g.cy = DOOR.y; g.t = 0; g.dir = "left"; g.mode = s.fright > 0 ? "fright" : "hunt"; }
      return;
    }
    var guard = 0;
    while (dist > 0 && guard++ < 8) {
      if (g.t === 0) {
        if (g.mode === "eyes" && g.cx === DOOR.x && g.cy === DOOR.y) {
          g.mode = "pen"; g.cx = PEN.x; g.cy = PEN.y; g.wait = 1; return;
        }
        g.dir = chooseGhostDir(s, g, api);
      }
      var step = Math.min(dist, 1 - g.t);
      g.t += step; dist -= step;
      if (g.t >= 1 - 1e-9) { var d = DIRS[g.dir]; g.cx = wrapX(g.cx + d[0]); g.cy += d[1]; g.t = 0; }
    }
  }

  function reverseHunters(s) {
    for (var i = 0; i < s.ghosts.length; i++) {
      var g = s.ghosts[i];
      if ((g.mode === "hunt" || g.mode === "fright") && g.t > 0) {
        var d = DIRS[g.dir];
        g.cx = wrapX(g.cx + d[0]); g.cy += d[1]; g.t = 1 - g.t; g.dir = OPP[g.dir];
      }
    }
  }

  // ------------------------------------------------------------ the hint: a breadth-first route

  /** The cell the hero decides at next and the cells a hunting ghost is about to reach. */
  function danger(s) {
    var out = {};
    for (var i = 0; i < s.ghosts.length; i++) {
      var g = s.ghosts[i];
      if (g.mode !== "hunt") continue;
      var d = DIRS[g.dir], cells = [[g.cx, g.cy], [wrapX(g.cx + d[0]), g.cy + d[1]]];
      for (var c = 0; c < cells.length; c++) {
        for (var dx = -1; dx <= 1; dx++) for (var dy = -1; dy <= 1; dy++) {
          if (Math.abs(dx) + Math.abs(dy) > 1) continue;
          out[wrapX(cells[c][0] + dx) + "," + (cells[c][1] + dy)] = 1;
        }
      }
    }
    return out;
  }

  function route(s, goal, avoid) {
    var p = s.pac, sx = p.cx, sy = p.cy;
    if (p.t > 0) { sx = wrapX(p.cx + DIRS[p.dir][0]); sy = p.cy + DIRS[p.dir][1]; }
    var seen = {}, q = [], head = 0;
    seen[sx + "," + sy] = 1;
    if (goal(sx, sy)) return {dir: p.dir, len: 0};
    for (var k = 0; k < 4; k++) {
      var dn = ORDER[k], d = DIRS[dn], nx = wrapX(sx + d[0]), ny = sy + d[1], key = nx + "," + ny;
      if (!open(s, nx, ny) || (avoid && avoid[key])) continue;
      seen[key] = 1; q.push([nx, ny, dn, 1]);
    }
    while (head < q.length) {
      var cur = q[head++];
      if (goal(cur[0], cur[1])) return {dir: cur[2], len: cur[3]};
      for (var j = 0; j < 4; j++) {
        var e = DIRS[ORDER[j]], ex = wrapX(cur[0] + e[0]), ey = cur[1] + e[1], ek = ex + "," + ey;
        if (seen[ek] || !open(s, ex, ey) || (avoid && avoid[ek])) continue;
        seen[ek] = 1; q.push([ex, ey, cur[2], cur[3] + 1]);
      }
    }
    return null;
  }

  function bestDir(s) {
    if (s.dying > 0 || s.clear > 0) return null;
    var avoid = danger(s), r = null;
    if (s.fright > 1.2) {
      r = route(s, function (x, y) {
        for (var i = 0; i < s.ghosts.length; i++) {
          var g = s.ghosts[i];
          if (g.mode === "fright" && g.cx === x && g.cy === y) return true;
        }
        return false;
      }, avoid);
      if (r && r.len <= 12) return r.dir;
    }
    var near = false;
    for (var i = 0; i < s.ghosts.length; i++) {
      var g = s.ghosts[i];
      if (g.mode === "hunt" && Math.abs(g.cx - s.pac.cx) + Math.abs(g.cy - s.pac.cy) <= 5) near = true;
    }
    if (near) {
      r = route(s, function (x, y) { return s.map[y][x] === "o"; }, avoid);
      if (r && r.len <= 8) return r.dir;
    }
    r = route(s, function (x, y) { var t = s.map[y][x]; return t === "." || t === "o"; }, avoid) ||
        route(s, function (x, y) { var t = s.map[y][x]; return t === "." || t === "o"; }, null);
    return r ? r.dir : null;
  }

  // ------------------------------------------------------------ drawing

  function paintWalls(g, api, f) {
    var pal = api.pal;
    g.fillStyle = api.shade(pal.bg, -6); g.fillRect(0, 0, api.W, api.H);
    var glow = g.createRadialGradient(api.W / 2, f.y + ROWS * CELL / 2, 40, api.W / 2, f.y + ROWS * CELL / 2, api.H * 0.7);
    glow.addColorStop(0, api.alpha(pal.accent, 0.10)); glow.addColorStop(1, api.alpha(pal.accent, 0));
    g.fillStyle = glow; g.fillRect(0, 0, api.W, api.H);
    function wall(x, y) { var t = y < 0 || y >= ROWS || x < 0 || x >= COLS ? "X" : MAP[y][x]; return t === "#" || t === "X"; }
    // wall blocks: a soft fill, then a bright rim on every side that faces a corridor
    for (var y = 0; y < ROWS; y++) for (var x = 0; x < COLS; x++) {
      var t = MAP[y][x], px = f.x + x * CELL, py = f.y + y * CELL;
      if (t !== "#") continue;
      g.fillStyle = api.alpha(pal.accent, 0.16); g.fillRect(px, py, CELL, CELL);
    }
    g.strokeStyle = pal.accent; g.lineWidth = 2.5; g.lineCap = "round";
    g.beginPath();
    for (var yy = 0; yy < ROWS; yy++) for (var xx = 0; xx < COLS; xx++) {
      if (MAP[yy][xx] !== "#") continue;
      var x0 = f.x + xx * CELL, y0 = f.y + yy * CELL, i = 3;
      if (!wall(xx, yy - 1)) { g.moveTo(x0 + (wall(xx - 1, yy) ? 0 : i), y0 + i); g.lineTo(x0 + CELL - (wall(xx + 1, yy) ? 0 : i), y0 + i); }
      if (!wall(xx, yy + 1)) { g.moveTo(x0 + (wall(xx - 1, yy) ? 0 : i), y0 + CELL - i); g.lineTo(x0 + CELL - (wall(xx + 1, yy) ? 0 : i), y0 + CELL - i); }
      if (!wall(xx - 1, yy)) { g.moveTo(x0 + i, y0 + (wall(xx, yy - 1) ? 0 : i)); g.lineTo(x0 + i, y0 + CELL - (wall(xx, yy + 1) ? 0 : i)); }
      if (!wall(xx + 1, yy)) { g.moveTo(x0 + CELL - i, y0 + (wall(xx, yy - 1) ? 0 : i)); g.lineTo(x0 + CELL - i, y0 + CELL - (wall(xx, yy + 1) ? 0 : i)); }
    }
    g.stroke();
    // the pen's door
    g.fillStyle = pal.accent2; g.fillRect(f.x + DOOR.x * CELL + 2, f.y + (DOOR.y + 1) * CELL + CELL / 2 - 2, CELL - 4, 4);
    api.text(g, "Eat every dot · a big one makes ghosts edible", api.W / 2, f.y + ROWS * CELL + 26, 13, api.alpha(pal.text, 0.6), "center");
  }

  /** A soft halo painted once per colour and size, then blitted: a gradient per frame is what makes a
   *  software-rendered canvas slow (measured: the four power pellets' halos tripled the frame cost). */
  function halo(g, api, x, y, r, color) {
    var img = CrumbGame.sprite("halo" + color + r, r * 2, r * 2, CrumbGame.scaleOf(g), function (cg) {
      var gr = cg.createRadialGradient(r, r, 0, r, r, r);
      gr.addColorStop(0, color); gr.addColorStop(1, api.alpha(color, 0));
      cg.globalAlpha = 0.45; cg.fillStyle = gr; cg.fillRect(0, 0, r * 2, r * 2);
    });
    g.drawImage(img, x - r, y - r, r * 2, r * 2);
  }

  function drawGhost(g, api, x, y, r, body, mode, t, dir, flash) {
    var eyesOnly = mode === "eyes";
    if (!eyesOnly) {
      g.fillStyle = body;
      g.beginPath();
      g.arc(x, y - r * 0.15, r, Math.PI, 0);
      g.lineTo(x + r, y + r * 0.85);
      var waves = 3, w = (2 * r) / waves, wob = Math.sin(t * 14) > 0 ? 1 : 0;
      for (var k = 0; k < waves; k++) {
        var x1 = x + r - k * w;
        g.lineTo(x1 - w / 2, y + r * (wob ? 0.55 : 0.7));
        g.lineTo(x1 - w, y + r * 0.85);
      }
      g.closePath(); g.fill();
    }
    if (mode === "fright") {
      g.fillStyle = flash ? "#ff4d6d" : "#ffe9f0";
      g.fillRect(x - r * 0.45, y - r * 0.35, r * 0.22, r * 0.22); g.fillRect(x + r * 0.23, y - r * 0.35, r * 0.22, r * 0.22);
      g.strokeStyle = g.fillStyle; g.lineWidth = 1.6; g.beginPath();
      for (var m = 0; m <= 4; m++) g.lineTo(x - r * 0.55 + m * r * 0.275, y + r * 0.3 + (m % 2 ? -r * 0.12 : 0));
      g.stroke();
      return;
    }
    var d = DIRS[dir] || [0, 0];
    for (var e = -1; e <= 1; e += 2) {
      var ex = x + e * r * 0.38, ey = y - r * 0.2;
      g.fillStyle = "#ffffff"; g.beginPath(); g.ellipse(ex, ey, r * 0.28, r * 0.34, 0, 0, Math.PI * 2); g.fill();
      g.fillStyle = "#1d2aa8"; g.beginPath(); g.arc(ex + d[0] * r * 0.12, ey + d[1] * r * 0.14, r * 0.14, 0, Math.PI * 2); g.fill();
    }
  }

  CrumbGame.register({
    genre: "maze",
    size: [480, 680],
    controls: "Arrows / WASD or swipe · click a side of the hero to turn",

    init: function (api) {
      var s = {eaten: 0, ghostsEaten: 0, deaths: 0, events: [], clock: 0, clear: 0, mouth: 0, f: field(api)};
      newMaze(s); place(s);
      return s;
    },

    update: function (s, dt, input, api) {
      s.clock += dt; s.mouth += dt;
      var f = s.f, p = s.pac;
      // input: arrows/WASD/swipes, or a click on the side of the hero to go
      var kd = null;
      for (var k = 0; k < input.pressed.length; k++) {
        var key = input.pressed[k];
        var dn = {ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right", w: "up", a: "left",
                  s: "down", d: "right", W: "up", A: "left", S: "down", D: "right"}[key];
        if (dn) kd = dn;
      }
      if (!kd) { var held = api.keyDir(input); if (held) kd = held; }
      for (var c = 0; c < input.clicks.length; c++) {
        var pp = pos(p), hx = f.x + (pp.x + 0.5) * CELL, hy = f.y + (pp.y + 0.5) * CELL;
        var dx = input.clicks[c].x - hx, dy = input.clicks[c].y - hy;
        if (Math.abs(dx) + Math.abs(dy) > 4) kd = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up");
      }
      if (kd) p.want = kd;

      if (s.ready > 0) { s.ready -= dt; return; }
      if (s.clear > 0) {
        s.clear -= dt;
        if (s.clear <= 0) {
          api.setLevel(api.level + 1);
          if (api.phase !== "playing") return;
          newMaze(s); place(s);
        }
        return;
      }
      if (s.dying > 0) {
        s.dying -= dt;
        if (s.dying <= 0) {
          if (!api.loseLife()) return;
          place(s);
        }
        return;
      }

      // scatter/chase schedule; a change makes the hunters turn round (so the player sees it)
      if (s.fright <= 0 && s.modeIx < MODES.length) {
        s.modeT += dt;
        if (s.modeT >= MODES[s.modeIx]) { s.modeT = 0; s.modeIx++; reverseHunters(s); }
      }
      if (s.fright > 0) {
        s.fright -= dt;
        if (s.fright <= 0) {
          s.fright = 0; s.chain = 0;
          for (var q = 0; q < s.ghosts.length; q++) if (s.ghosts[q].mode === "fright") s.ghosts[q].mode = "hunt";
        }
      }

      movePac(s, pacSpeed(s, api) * dt);
      for (var e = 0; e < s.events.length; e++) {
        var ev = s.events[e], at = {x: f.x + (p.cx + 0.5) * CELL, y: f.y + (p.cy + 0.5) * CELL};
        if (ev === "pellet") { api.addScore(10); api.beep(880); }
        else {
          api.addScore(50); api.burst(at.x, at.y, api.pal.text, 14); api.popup("+50", at.x, at.y - 14, api.pal.accent2);
          s.fright = Math.max(2.5, 7 - (api.level - 1)); s.chain = 0;
          for (var m = 0; m < s.ghosts.length; m++) {
            var gh = s.ghosts[m];
            if (gh.mode === "hunt") {
              gh.mode = "fright";
              if (gh.t > 0) { var d0 = DIRS[gh.dir]; gh.cx = wrapX(gh.cx + d0[0]); gh.cy += d0[1]; gh.t = 1 - gh.t; gh.dir = OPP[gh.dir]; }
            }
          }
        }
      }
      s.events = [];
      if (api.phase !== "playing") return;

      for (var i = 0; i < s.ghosts.length; i++) moveGhost(s, s.ghosts[i], ghostSpeed(s, s.ghosts[i], api) * dt, api);

      // touching a ghost: eat it when it is blue, else lose a life
      var pp2 = pos(p);
      for (var j = 0; j < s.ghosts.length; j++) {
        var g = s.ghosts[j];
        if (g.mode !== "hunt" && g.mode !== "fright") continue;
        var gp = pos(g), ddx = Math.abs(gp.x - pp2.x);
        ddx = Math.min(ddx, COLS - ddx);
        if (ddx + Math.abs(gp.y - pp2.y) > 0.7) continue;
        var sx = f.x + (gp.x + 0.5) * CELL, sy = f.y + (gp.y + 0.5) * CELL;
        if (g.mode === "fright") {
          var pts = 200 * Math.pow(2, s.chain++);
          g.mode = "eyes"; s.ghostsEaten++;
          api.addScore(pts); api.popup("+" + pts, sx, sy - 12, api.pal.accent2); api.burst(sx, sy, "#4d6bff", 18); api.beep(220);
          if (api.phase !== "playing") return;
        } else {
          s.dying = 1.3; s.deaths++; s.deathAt = {x: sx, y: sy};
          api.burst(f.x + (pp2.x + 0.5) * CELL, f.y + (pp2.y + 0.5) * CELL, api.pal.accent2, 24);
          return;
        }
      }
      if (s.pellets <= 0) { s.clear = 1.6; api.popup("Maze cleared!", api.W / 2, f.y + 9 * CELL + 12, api.pal.accent2); }
    },

    draw: function (g, s, api) {
      var f = s.f, pal = api.pal;
      g.drawImage(api.cache("maze" + pal.bg + pal.accent, function (cg) { paintWalls(cg, api, f); }), 0, 0, api.W, api.H);
      // pellets
      var flashOn = s.clear > 0 && Math.floor(s.clear * 6) % 2 === 0;
      g.fillStyle = pal.fg;
      for (var y = 0; y < ROWS; y++) for (var x = 0; x < COLS; x++) {
        if (s.map[y][x] !== ".") continue;
        g.fillRect(f.x + x * CELL + CELL / 2 - 2, f.y + y * CELL + CELL / 2 - 2, 4, 4);
      }
      var pulse = 0.75 + 0.25 * Math.sin(s.clock * 8);
      for (var yy = 0; yy < ROWS; yy++) for (var xx = 0; xx < COLS; xx++) {
        if (s.map[yy][xx] !== "o") continue;
        var cx = f.x + xx * CELL + CELL / 2, cy = f.y + yy * CELL + CELL / 2;
        halo(g, api, cx, cy, 14, pal.text);
        g.fillStyle = pal.text; g.beginPath(); g.arc(cx, cy, 6 * pulse, 0, Math.PI * 2); g.fill();
      }
      if (flashOn) { g.fillStyle = api.alpha(pal.text, 0.12); g.fillRect(f.x, f.y, COLS * CELL, ROWS * CELL); }
      g.save();
      g.beginPath(); g.rect(f.x, f.y, COLS * CELL, ROWS * CELL); g.clip();
      // ghosts
      var r = CELL * 0.46;
      for (var i = 0; i < s.ghosts.length; i++) {
        var gh = s.ghosts[i], gp = pos(gh);
        if (gh.mode === "leave") {
          var k = Math.min(1, gh.leave);
          gp = {x: api.lerp(gh.from.x, DOOR.x, k), y: api.lerp(gh.from.y, DOOR.y, k)};
        } else if (gh.mode === "pen") {
          gp = {x: gh.cx, y: gh.cy + Math.sin(s.clock * 5 + i) * 0.18};
        }
        if (s.dying > 0 && s.dying < 0.9) continue;
        var body = gh.mode === "fright" ? "#2d49ff" : (GHOSTS[i].color || pal.danger);
        var flash = gh.mode === "fright" && s.fright < 1.6 && Math.floor(s.fright * 6) % 2 === 0;
        if (flash) body = "#f0f3ff";
        drawGhost(g, api, f.x + (gp.x + 0.5) * CELL, f.y + (gp.y + 0.5) * CELL + 1, r, body, gh.mode, s.clock + i, gh.dir, flash);
      }
      // the hero
      var p = s.pac, pp = pos(p), px = f.x + (pp.x + 0.5) * CELL, py = f.y + (pp.y + 0.5) * CELL;
      var rot = {right: 0, down: Math.PI / 2, left: Math.PI, up: -Math.PI / 2}[p.dir];
      // the mouth: half its opening angle chomps while moving; dying, it opens all the way round
      var half = (p.moving ? 0.08 + 0.32 * Math.abs(Math.sin(s.mouth * 12)) : 0.22) * Math.PI / 2;
      var R = CELL * 0.5;
      if (s.dying > 0) { half = Math.min(Math.PI * 0.98, (1.3 - s.dying) * Math.PI); rot = -Math.PI / 2; }
      halo(g, api, px, py, Math.round(R * 2.2), pal.accent2);
      g.fillStyle = pal.accent2;
      g.beginPath(); g.moveTo(px, py); g.arc(px, py, R, rot + half, rot - half + Math.PI * 2); g.closePath(); g.fill();
      g.restore();
      if (s.ready > 0 && api.phase === "playing") api.text(g, "Ready!", api.W / 2, f.y + 11 * CELL + 12, 22, pal.accent2, "center");
      if (s.fright > 0) {
        var w = COLS * CELL * Math.min(1, s.fright / 7);
        g.fillStyle = api.alpha("#4d6bff", 0.85); g.fillRect(f.x, f.y - 14, w, 6);
      }
      api.text(g, "Dots left " + s.pellets, f.x, f.y - 20, 13, api.alpha(pal.text, 0.75), "left");
      if (s.ghostsEaten) api.text(g, "Ghosts eaten " + s.ghostsEaten, f.x + COLS * CELL, f.y - 20, 13, api.alpha(pal.text, 0.75), "right");
    },

    hook: function (s, api) {
      var d = bestDir(s), hint = d ? [{type: "key", key: KEY[d]}] : [];
      var pp = pos(s.pac);
      return {
        hint: hint,
        pelletsLeft: s.pellets,
        pelletsEaten: s.eaten,
        powered: Math.round(s.fright * 100) / 100,
        ghostsEaten: s.ghostsEaten,
        deaths: s.deaths,
        dying: s.dying > 0,
        player: {x: +pp.x.toFixed(3), y: +pp.y.toFixed(3), cell: [s.pac.cx, s.pac.cy], dir: s.pac.dir, want: s.pac.want},
        ghosts: s.ghosts.map(function (g) { var gp = pos(g); return {x: +gp.x.toFixed(3), y: +gp.y.toFixed(3), mode: g.mode}; }),
        maze: s.map.map(function (row) { return row.join(""); }),
        // where cell (0, 0)'s centre is and how far apart cells are, in canvas fractions
        cells: {x: +((s.f.x + CELL / 2) / api.W).toFixed(4), y: +((s.f.y + CELL / 2) / api.H).toFixed(4),
                dx: +(CELL / api.W).toFixed(4), dy: +(CELL / api.H).toFixed(4)},
      };
    },
  });
})();
