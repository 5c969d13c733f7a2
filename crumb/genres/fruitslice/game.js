/* Fruit slicing (Fruit Ninja): fruit is thrown up from below; swipe (drag) through it to slice it, and
 * never through a bomb. A click or tap slices where it lands; arrows move the blade and Space slashes. */
(function () {
  "use strict";

  var W = 480, H = 720, SLASH = 70;
  var LEVEL_FRUIT = 12;   // fruit sliced to clear a level; each level throws faster
  // [name, body colour, flesh colour, radius]; the melon is a watermelon: striped green, red inside
  var FRUITS = [["apple", "#e23b3b", "#fff2c4", 26], ["orange", "#ff9a1f", "#ffd27a", 27],
                ["lime", "#7ccf3a", "#d9f7a6", 23], ["melon", "#2f9e44", "#ff5a6e", 36],
                ["plum", "#8e44ad", "#f1c6ff", 24], ["lemon", "#ffe14d", "#fff8c9", 25]];

  function drawItem(g, it, s, api) {
    var pal = api.pal;
    g.save(); g.translate(it.x, it.y); g.rotate(it.rot);
    if (it.bomb) {
      api.glow(g, 0, 0, it.r * 2, pal.danger);
      g.fillStyle = "#1b1b22"; g.beginPath(); g.arc(0, 0, it.r, 0, Math.PI * 2); g.fill();
      g.strokeStyle = pal.danger; g.lineWidth = 3; g.beginPath(); g.arc(0, 0, it.r - 3, 0, Math.PI * 2); g.stroke();
      g.fillStyle = "#555"; g.fillRect(-5, -it.r - 7, 10, 8);
      g.strokeStyle = "#c8a06a"; g.lineWidth = 2; g.beginPath(); g.moveTo(0, -it.r - 7); g.quadraticCurveTo(8, -it.r - 16, 4, -it.r - 22); g.stroke();
      g.fillStyle = (s.t * 8) % 2 < 1 ? pal.accent2 : "#ffffff"; g.beginPath(); g.arc(4, -it.r - 23, 4, 0, Math.PI * 2); g.fill();
      g.strokeStyle = "#ffffff"; g.lineWidth = 3;
      g.beginPath(); g.moveTo(-8, -8); g.lineTo(8, 8); g.moveTo(8, -8); g.lineTo(-8, 8); g.stroke();
    } else {
      var k = it.kind, grad = g.createRadialGradient(-it.r * 0.35, -it.r * 0.35, it.r * 0.1, 0, 0, it.r);
      grad.addColorStop(0, api.shade(k[1], 60)); grad.addColorStop(1, k[1]);
      g.fillStyle = grad; g.beginPath(); g.arc(0, 0, it.r, 0, Math.PI * 2); g.fill();
      if (k[0] === "melon") {
        g.strokeStyle = api.shade(k[1], -40); g.lineWidth = 3;
        for (var st = -2; st <= 2; st++) { g.beginPath(); g.ellipse(0, 0, Math.abs(st) * it.r * 0.3 + 2, it.r - 1, 0, 0, Math.PI * 2); g.stroke(); }
      }
      g.fillStyle = "#5b3a1a"; g.fillRect(-2, -it.r - 6, 4, 8);
      g.fillStyle = "#4caf50"; g.beginPath(); g.ellipse(7, -it.r - 3, 8, 4, -0.5, 0, Math.PI * 2); g.fill();
    }
    g.restore();
  }

  var DECO = [[120, 190, 3, -0.3], [350, 160, 1, 0.4], [250, 600, 0, 0.2], [400, 560, 4, -0.5], [80, 560, 5, 0.9],
              [300, 260, -1, 0]].map(function (d) {
    var k = FRUITS[Math.max(0, d[2])];
    return {x: d[0], y: d[1], r: d[2] < 0 ? 24 : k[3], bomb: d[2] < 0, kind: k, rot: d[3]};
  });

  function throwVolley(s, api) {
    var n = 1 + api.randInt(Math.min(4, 2 + Math.floor(s.t / 15)));
    var bombP = Math.min(0.22, 0.08 + s.t * 0.004);
    for (var i = 0; i < n; i++) {
      var bomb = s.t > 2 && api.rng() < bombP;
      var kind = FRUITS[api.randInt(FRUITS.length)];
      var x = 70 + api.rng() * (W - 140);
      var peak = api.top + 60 + api.rng() * 240;              // the height it rises to
      var vy = -Math.sqrt(2 * s.g * (H + 40 - peak));
      var vx = (W / 2 - x) * (0.25 + api.rng() * 0.5) / 1.4 * api.speed;
      s.items.push({x: x, y: H + 40, vx: vx, vy: vy, r: bomb ? 24 : kind[3], bomb: bomb, kind: kind,
                    rot: api.rng() * 6, spin: (api.rng() - 0.5) * 6, id: s.nextId++});
    }
  }

  function segDist(px, py, ax, ay, bx, by) {
    var dx = bx - ax, dy = by - ay, L = dx * dx + dy * dy;
    var t = L > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / L)) : 0;
    return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
  }

  // Every item the blade's path from a to b passes through: fruit is sliced, a bomb goes off.
  function cut(s, api, ax, ay, bx, by, pad) {
    var sliced = 0;
    for (var i = s.items.length - 1; i >= 0; i--) {
      var it = s.items[i];
      if (segDist(it.x, it.y, ax, ay, bx, by) > it.r + pad) continue;
      s.items.splice(i, 1);
      if (it.bomb) {
        s.bombs++; s.combo = 0;
        s.boom = 0.5;
        api.burst(it.x, it.y, api.pal.danger, 30); api.burst(it.x, it.y, "#ffffff", 12);
        api.popup("BOOM", it.x, it.y - 30, api.pal.danger);
        if (!api.loseLife()) return sliced;
        continue;
      }
      sliced++; s.sliced++;
      var ang = Math.atan2(by - ay, bx - ax) || 0;
      for (var h = -1; h <= 1; h += 2) {
        s.halves.push({x: it.x, y: it.y, vx: it.vx + h * 90 * Math.sin(ang), vy: it.vy * 0.3 - 60 - h * 90 * Math.cos(ang) * 0.3,
                       r: it.r, kind: it.kind, rot: ang + (h > 0 ? 0 : Math.PI), spin: h * 3, t: 0});
      }
      s.splats.push({x: it.x, y: it.y, r: it.r * 1.6, c: it.kind[1], t: 0});
      api.burst(it.x, it.y, it.kind[2], 14);
    }
    if (sliced) {
      s.combo += sliced;
      var pts = 10 * sliced + (sliced >= 3 ? 10 * sliced : 0);
      api.popup(sliced >= 3 ? "combo \u00d7" + sliced + "  +" + pts : "+" + pts, bx, by - 20, sliced >= 3 ? api.pal.accent2 : api.pal.text);
      api.beep(500 + 80 * sliced);
      api.addScore(pts);
      var lv = 1 + Math.floor(s.sliced / LEVEL_FRUIT);
      if (lv > api.level) {           // past the last level the runtime declares the win
        api.setLevel(lv);
        if (api.phase === "playing") api.popup("Level " + lv, W / 2, H * 0.4, api.pal.accent2);
      }
    }
    return sliced;
  }

  CrumbGame.register({
    genre: "fruitslice",
    size: [W, H],
    survive: true,
    controls: "Swipe fruit, not bombs \u00b7 arrows + Space",

    init: function (api) {
      return {items: [], halves: [], splats: [], trail: [], t: 0, wait: 0.6, g: 620 * api.speed * api.speed,
              nextId: 1, sliced: 0, missed: 0, bombs: 0, combo: 0, boom: 0,
              blade: {x: W / 2, y: H * 0.55}, slash: 0, last: null, keys: false};
    },

    update: function (s, dt, input, api) {
      s.t += dt;
      s.wait -= dt;
      if (s.wait <= 0) {
        throwVolley(s, api);
        s.wait = Math.max(0.7, 1.7 - s.t * 0.015 - 0.06 * (api.level - 1)) / api.speed * (0.8 + api.rng() * 0.4);
      }
      // the mouse or finger held down and moving is a swipe: its path cuts
      var p = input.pointer;
      if (p.down) {
        if (s.last) { cut(s, api, s.last.x, s.last.y, p.x, p.y, 4); if (api.phase !== "playing") return; }
        s.last = {x: p.x, y: p.y};
        s.trail.push({x: p.x, y: p.y, t: 0}); s.keys = false;
      } else {
        s.last = null;
      }
      for (var c = 0; c < input.clicks.length; c++) {
        var k = input.clicks[c];
        s.trail.push({x: k.x - 18, y: k.y + 18, t: 0.05}, {x: k.x + 18, y: k.y - 18, t: 0});
        cut(s, api, k.x - 10, k.y + 10, k.x + 10, k.y - 10, 12);
        if (api.phase !== "playing") return;
      }
      // keyboard: held arrows move the blade, Space slashes across it
      var step = 420 * dt, held = input.held;
      if (held.has("ArrowLeft") || held.has("a") || held.has("A")) { s.blade.x -= step; s.keys = true; }
      if (held.has("ArrowRight") || held.has("d") || held.has("D")) { s.blade.x += step; s.keys = true; }
      if (held.has("ArrowUp") || held.has("w") || held.has("W")) { s.blade.y -= step; s.keys = true; }
      if (held.has("ArrowDown") || held.has("s") || held.has("S")) { s.blade.y += step; s.keys = true; }
      s.blade.x = api.clamp(s.blade.x, 20, W - 20); s.blade.y = api.clamp(s.blade.y, api.top + 20, H - 20);
      for (var q = 0; q < input.pressed.length; q++) {
        if (input.pressed[q] !== " " && input.pressed[q] !== "Enter") continue;
        s.keys = true; s.slash = 0.18;
        var b = s.blade;
        s.trail.push({x: b.x - SLASH, y: b.y + 14, t: 0.06}, {x: b.x + SLASH, y: b.y - 14, t: 0});
        cut(s, api, b.x - SLASH, b.y + 14, b.x + SLASH, b.y - 14, 6);
        if (api.phase !== "playing") return;
      }
      // flight; fruit that falls back out of sight unsliced costs a life (a bomb does not)
      for (var i = s.items.length - 1; i >= 0; i--) {
        var it = s.items[i];
        it.vy += s.g * dt; it.x += it.vx * dt; it.y += it.vy * dt; it.rot += it.spin * dt;
        if (it.x < it.r || it.x > W - it.r) { it.vx = -it.vx; it.x = api.clamp(it.x, it.r, W - it.r); }
        if (it.vy > 0 && it.y > H + it.r + 10) {
          s.items.splice(i, 1);
          if (it.bomb) continue;
          s.missed++; s.combo = 0;
          api.popup("missed", it.x, H - 40, api.pal.danger);
          if (!api.loseLife()) return;
        }
      }
      for (var j = s.halves.length - 1; j >= 0; j--) {
        var hv = s.halves[j];
        hv.t += dt; hv.vy += s.g * dt; hv.x += hv.vx * dt; hv.y += hv.vy * dt; hv.rot += hv.spin * dt;
        if (hv.y > H + 60) s.halves.splice(j, 1);
      }
      for (var m = 0; m < s.trail.length; m++) s.trail[m].t += dt;
      s.trail = s.trail.filter(function (o) { return o.t < 0.16; });
      for (var n = 0; n < s.splats.length; n++) s.splats[n].t += dt;
      s.splats = s.splats.filter(function (o) { return o.t < 1.2; });
      s.slash = Math.max(0, s.slash - dt); s.boom = Math.max(0, s.boom - dt);
    },

    draw: function (g, s, api) {
      var pal = api.pal;
      // a wooden board: planks in the theme's background colour
      g.drawImage(api.cache("fruit-board", function (cg) {
        for (var i = 0; i < 6; i++) {
          cg.fillStyle = api.shade(pal.bg, (i % 2 ? 10 : -2) + i * 3); cg.fillRect(i * W / 6, 0, W / 6, H);
          cg.fillStyle = api.alpha("#000000", 0.25); cg.fillRect(i * W / 6, 0, 3, H);
          cg.strokeStyle = api.alpha("#000000", 0.12); cg.lineWidth = 2;
          for (var k = 0; k < 5; k++) {
            var y = 80 + ((i * 131 + k * 157) % (H - 120));
            cg.beginPath(); cg.ellipse(i * W / 6 + W / 12, y, 12, 4, 0, 0, Math.PI * 2); cg.stroke();
          }
        }
      }), 0, 0, W, H);
      for (var sp = 0; sp < s.splats.length; sp++) {
        var o = s.splats[sp];
        g.fillStyle = api.alpha(o.c, 0.35 * (1 - o.t / 1.2));
        g.beginPath(); g.arc(o.x, o.y, o.r, 0, Math.PI * 2); g.fill();
      }
      // halves
      for (var h = 0; h < s.halves.length; h++) {
        var hv = s.halves[h];
        g.save(); g.translate(hv.x, hv.y); g.rotate(hv.rot);
        g.fillStyle = hv.kind[1]; g.beginPath(); g.arc(0, 0, hv.r, 0, Math.PI); g.fill();
        g.fillStyle = hv.kind[2]; g.beginPath(); g.ellipse(0, 0, hv.r * 0.85, hv.r * 0.22, 0, 0, Math.PI * 2); g.fill();
        g.restore();
      }
      // whole fruit and bombs (on the title screen, a still life of them)
      var shown = api.phase === "title" ? DECO : s.items;
      for (var i = 0; i < shown.length; i++) drawItem(g, shown[i], s, api);
      // the blade's trail
      if (s.trail.length > 1) {
        g.lineCap = "round"; g.lineJoin = "round";
        for (var tr = 1; tr < s.trail.length; tr++) {
          var a = s.trail[tr - 1], b = s.trail[tr];
          if (b.t > 0.16 || Math.hypot(b.x - a.x, b.y - a.y) > 260) continue;
          var f = 1 - b.t / 0.16;
          g.strokeStyle = api.alpha(pal.accent2, 0.35 * f); g.lineWidth = 14 * f;
          g.beginPath(); g.moveTo(a.x, a.y); g.lineTo(b.x, b.y); g.stroke();
          g.strokeStyle = api.alpha("#ffffff", 0.95 * f); g.lineWidth = 5 * f;
          g.beginPath(); g.moveTo(a.x, a.y); g.lineTo(b.x, b.y); g.stroke();
        }
      }
      if (s.keys) {
        var bl = s.blade;
        g.strokeStyle = api.alpha(pal.accent2, 0.8); g.lineWidth = 2; g.setLineDash([6, 6]);
        g.beginPath(); g.moveTo(bl.x - SLASH, bl.y + 14); g.lineTo(bl.x + SLASH, bl.y - 14); g.stroke(); g.setLineDash([]);
        g.fillStyle = pal.accent2; g.beginPath(); g.arc(bl.x, bl.y, 5, 0, Math.PI * 2); g.fill();
      }
      if (s.boom > 0) { g.fillStyle = api.alpha("#ffffff", s.boom); g.fillRect(0, 0, W, H); }
      if (api.phase !== "title") api.text(g, "Sliced " + s.sliced, 14, api.top + 22, 15, api.alpha(pal.text, 0.85), "left");
      if (s.combo > 2) api.text(g, "Combo " + s.combo, W - 14, api.top + 22, 15, pal.accent2, "right");
    },

    hook: function (s, api) {
      // the hint: a click on the fruit that will fall out first (where it is a moment from now), unless a
      // bomb is close enough to be caught in the cut
      var best = null;
      for (var i = 0; i < s.items.length; i++) {
        var it = s.items[i];
        if (it.bomb || it.y > H - 10 || it.y < api.top + 10) continue;
        var safe = true;
        for (var j = 0; j < s.items.length; j++) {
          var o = s.items[j];
          if (o.bomb && Math.hypot(o.x - it.x, o.y - it.y) < o.r + 40) safe = false;
        }
        if (safe && (best === null || it.vy > best.vy)) best = it;
      }
      var hint = [];
      if (best) {
        var lead = 0.03;
        hint.push({type: "click", x: +((best.x + best.vx * lead) / W).toFixed(4),
                   y: +((best.y + best.vy * lead + 0.5 * s.g * lead * lead) / H).toFixed(4)});
      }
      var fruit = 0, bombs = 0;
      for (var k = 0; k < s.items.length; k++) { if (s.items[k].bomb) bombs++; else fruit++; }
      return {hint: hint, sliced: s.sliced, levelLeft: LEVEL_FRUIT - s.sliced % LEVEL_FRUIT, missed: s.missed, bombsHit: s.bombs, combo: s.combo, fruit: fruit,
              bombs: bombs, blade: {x: +(s.blade.x / W).toFixed(4), y: +(s.blade.y / H).toFixed(4)},
              items: s.items.map(function (o) {
                return {x: +(o.x / W).toFixed(4), y: +(o.y / H).toFixed(4), bomb: o.bomb, r: +(o.r / W).toFixed(4)};
              })};
    },
  });
})();
