/* Colour Gates: tap (Space / ↑ / click / tap) to bounce the ball up through spinning rings and sliding bars.
 * The ball passes only through the part of a gate that is its own colour; a colour changer gives it a new one. */
(function () {
  var G = 1300, J = 530, BR = 11, R = 120, TH = 16, SEG = 150, GATES_PER_LEVEL = 4, SPACE = 230;
  var RISE = J * J / (2 * G);   // how far one tap lifts the ball (108 px)
  var TAU = Math.PI * 2, Q = Math.PI / 2;

  function hash(i) { var v = Math.sin(i * 91.7 + 17.3) * 43758.5453; return v - Math.floor(v); }
  function cols(api) { return [api.pal.accent, api.pal.accent2, api.pal.danger, api.pal.fg]; }
  function mod(a, n) { return ((a % n) + n) % n; }

  function spin(s, gate) { return gate.w * (1 + 0.18 * (s.level - 1)) * s.speed; }
  function angleAt(s, gate, t) { return gate.a0 + spin(s, gate) * t; }
  function barOffset(s, gate, t) { return gate.a0 + spin(s, gate) * t; }

  // The colours (indexes) a band shows across the ball's width at game time t.
  function bandColours(s, gate, band, t) {
    var out = {};
    if (gate.type === "ring") {
      var base = band === "bottom" ? Q : -Q, a = angleAt(s, gate, t);
      for (var k = -1; k <= 1; k++) out[Math.floor(mod(base + k * 0.1 - a, TAU) / Q)] = 1;
    } else {
      var o = barOffset(s, gate, t), cx = s.W / 2;
      for (var m = -1; m <= 1; m++) out[Math.floor(mod(cx + m * BR - o, 4 * SEG) / SEG)] = 1;
    }
    return Object.keys(out).map(Number);
  }

  function bands(gate) {
    if (gate.type === "ring") {
      return [{gate: gate, band: "bottom", y0: gate.cy + R - TH / 2, y1: gate.cy + R + TH / 2},
              {gate: gate, band: "top", y0: gate.cy - R - TH / 2, y1: gate.cy - R + TH / 2}];
    }
    return [{gate: gate, band: "bar", y0: gate.cy - TH / 2, y1: gate.cy + TH / 2}];
  }
  function half(type) { return type === "ring" ? R + TH / 2 : TH / 2; }

  function addGate(s, api) {
    var lv = s.level, prev = s.gates.length ? s.gates[s.gates.length - 1] : null;
    var type = s.made === 0 || lv < 2 || api.rng() < 0.6 ? "ring" : "bar";
    var gate = {type: type, id: s.made++, a0: api.rng() * TAU, w: 0, star: true, changer: true, cy: 0};
    if (type === "ring") gate.w = (api.rng() < 0.5 ? -1 : 1) * 1.8;
    else { gate.w = (api.rng() < 0.5 ? -1 : 1) * 110; gate.a0 = api.rng() * 4 * SEG; }
    gate.cy = prev ? prev.cy - half(prev.type) - SPACE - half(type) : s.startY - 170 - half(type);
    gate.changerY = gate.cy - half(type) - SPACE / 2;   // above the gate: the colour for the next one
    gate.starY = type === "ring" ? gate.cy : gate.cy - SPACE / 4;
    s.gates.push(gate);
  }

  function fill(s, api) {
    while (!s.gates.length || s.gates[s.gates.length - 1].cy > s.cam - 300) addGate(s, api);
    s.gates = s.gates.filter(function (g) { return g.cy - half(g.type) < s.cam + api.H + 80; });
  }

  // The band the ball meets next on its way up (the nearest one wholly above its top), or null.
  function nextBand(s) {
    var best = null, top = s.y - BR;
    for (var i = 0; i < s.gates.length; i++) {
      var bs = bands(s.gates[i]);
      for (var j = 0; j < bs.length; j++) if (bs[j].y1 < top && (!best || bs[j].y1 > best.y1)) best = bs[j];
    }
    return best;
  }

  function overlapping(s) {
    for (var i = 0; i < s.gates.length; i++) {
      var bs = bands(s.gates[i]);
      for (var j = 0; j < bs.length; j++) if (s.y + BR > bs[j].y0 && s.y - BR < bs[j].y1) return bs[j];
    }
    return null;
  }

  function safeY(s, y) {
    for (var n = 0; n < 40; n++) {
      var bad = false;
      for (var i = 0; i < s.gates.length && !bad; i++) {
        var bs = bands(s.gates[i]);
        for (var j = 0; j < bs.length; j++) if (y + BR + 50 > bs[j].y0 && y - BR - 90 < bs[j].y1) bad = true;
      }
      if (!bad) return y;
      y += 12;
    }
    return y;
  }

  // Would a tap now carry the ball cleanly through `b` while it shows only the ball's colour, with room to spare?
  function tapClears(s, b) {
    var d = s.y - BR - b.y1, d2 = s.y + BR - b.y0;
    if (d2 + 12 > RISE) return false;
    var tin = (J - Math.sqrt(Math.max(0, J * J - 2 * G * d))) / G;
    var tout = (J - Math.sqrt(J * J - 2 * G * d2)) / G;
    for (var t = Math.max(0, tin - 0.02); t <= tout + 0.04; t += 0.02) {
      var cs = bandColours(s, b.gate, b.band, s.t + t);
      if (cs.length !== 1 || cs[0] !== s.colour) return false;
    }
    return true;
  }

  function respawn(s, api, y) {
    s.y = safeY(s, y); s.vy = 0; s.wait = true; s.safe = 0.8;
  }

  function hit(s, api) {
    s.hits++;
    api.burst(api.W / 2, s.y - s.cam, cols(api)[s.colour], 28);
    if (!api.loseLife()) return;
    // Back below the gate that was hit, waiting for a tap.
    var low = s.y;
    for (var i = 0; i < s.gates.length; i++) {
      var g = s.gates[i];
      if (Math.abs(g.cy - s.y) < half(g.type) + 40) low = Math.max(low, g.cy + half(g.type) + 60);
    }
    respawn(s, api, Math.min(low, s.cam + api.H - 60));
  }

  CrumbGame.register({
    genre: "colorgate",
    size: [480, 720],
    controls: "Space / ↑ / click / tap to bounce the ball",
    init: function (api) {
      var startY = api.H - 150;
      var s = {W: api.W, y: startY, vy: 0, cam: 0, startY: startY, gates: [], made: 0, level: 1, t: 0, colour: 0,
               wait: true, safe: 0, passed: 0, changers: 0, hits: 0, trail: [], speed: api.speed, flash: 0};
      fill(s, api);
      // Start in the colour the first ring shows at its bottom a moment from now.
      s.colour = bandColours(s, s.gates[0], "bottom", 1.1)[0];
      return s;
    },
    update: function (s, dt, input, api) {
      s.t += dt;
      var tap = input.clicks.length > 0;
      for (var i = 0; i < input.pressed.length; i++) {
        var k = input.pressed[i];
        if (k === " " || k === "ArrowUp" || k === "w" || k === "W" || k === "Enter") tap = true;
      }
      if (tap) { s.vy = -J; s.wait = false; api.beep(620); }
      if (s.safe > 0) s.safe -= dt;
      if (s.flash > 0) s.flash -= dt;
      if (!s.wait) { s.vy += G * dt; s.y += s.vy * dt; }
      s.trail.push(s.y); if (s.trail.length > 8) s.trail.shift();

      for (var n = 0; n < s.gates.length; n++) {
        var g = s.gates[n];
        if (g.star && Math.abs(s.y - g.starY) < BR + 12) {
          g.star = false; s.passed++;
          api.addScore(1); api.popup("+1", api.W / 2 + 30, g.starY - s.cam, api.pal.text);
          api.burst(api.W / 2, g.starY - s.cam, api.pal.text, 12); api.beep(990);
          if (api.phase !== "playing") return;
          var lv = 1 + Math.floor(s.passed / GATES_PER_LEVEL);
          if (lv > s.level) {
            s.level = lv; s.flash = 1; api.popup("Level " + lv, api.W / 2, api.H * 0.35, api.pal.accent2);
            api.setLevel(lv);
            if (api.phase !== "playing") return;
          }
        }
        if (g.changer && Math.abs(s.y - g.changerY) < BR + 13) {
          g.changer = false; s.changers++;
          s.colour = (s.colour + 1 + api.randInt(3)) % 4;
          api.burst(api.W / 2, g.changerY - s.cam, cols(api)[s.colour], 14); api.beep(740);
        }
      }
      if (s.safe <= 0) {
        var b = overlapping(s);
        if (b) {
          var cs = bandColours(s, b.gate, b.band, s.t);
          if (cs.length !== 1 || cs[0] !== s.colour) { hit(s, api); if (api.phase !== "playing") return; }
        }
      }
      if (s.y - s.cam < api.H * 0.5) s.cam = s.y - api.H * 0.5;
      if (s.y - BR > s.cam + api.H) {
        s.hits++;
        api.burst(api.W / 2, api.H - 6, api.pal.danger, 20);
        if (!api.loseLife()) return;
        respawn(s, api, s.cam + api.H * 0.72);
      }
      fill(s, api);
    },
    draw: function (g, s, api) {
      var p = api.pal, W = api.W, H = api.H, C = cols(api);
      g.drawImage(api.cache("colorgate-bg", function (cg) {
        var bgr = cg.createRadialGradient(W / 2, H * 0.45, 40, W / 2, H * 0.45, H * 0.8);
        bgr.addColorStop(0, api.shade(p.bg, 16)); bgr.addColorStop(1, api.shade(p.bg, -8));
        cg.fillStyle = bgr; cg.fillRect(0, 0, W, H);
      }), 0, 0, W, H);
      var par = s.cam * 0.3, first = Math.floor(par / 60) - 1;
      for (var i = first; i < first + 14; i++) {
        g.fillStyle = api.alpha(C[i & 3], 0.18 + 0.2 * hash(i + 2));
        g.beginPath(); g.arc(hash(i) * W, i * 60 - par, 1 + 1.6 * hash(i + 9), 0, TAU); g.fill();
      }
      if (s.cam > -10 && s.startY - s.cam < H) {
        var gy = s.startY + BR + 30 - s.cam;
        g.fillStyle = api.alpha(p.text, 0.08); api.roundRect(g, W / 2 - 70, gy, 140, 8, 4); g.fill();
      }
      for (var n = 0; n < s.gates.length; n++) {
        var gate = s.gates[n], cy = gate.cy - s.cam;
        if (cy < -R - 40 || cy > H + R + 40) continue;
        if (gate.type === "ring") {
          var a = angleAt(s, gate, s.t);
          g.lineCap = "butt";
          for (var q = 0; q < 4; q++) {
            g.strokeStyle = api.alpha(C[q], 0.18); g.lineWidth = TH + 10;
            g.beginPath(); g.arc(W / 2, cy, R, a + q * Q + 0.03, a + (q + 1) * Q - 0.03); g.stroke();
            g.strokeStyle = C[q]; g.lineWidth = TH;
            g.beginPath(); g.arc(W / 2, cy, R, a + q * Q + 0.03, a + (q + 1) * Q - 0.03); g.stroke();
          }
        } else {
          var o = barOffset(s, gate, s.t), x0 = mod(o, 4 * SEG) - 4 * SEG;
          for (var x = x0, j = 0; x < W; x += SEG, j++) {
            if (x + SEG < 0) continue;
            g.fillStyle = api.alpha(C[j & 3], 0.18); api.roundRect(g, x + 2, cy - TH / 2 - 5, SEG - 4, TH + 10, 9); g.fill();
            g.fillStyle = C[j & 3]; api.roundRect(g, x + 3, cy - TH / 2, SEG - 6, TH, TH / 2); g.fill();
          }
        }
        if (gate.star) {
          var sy = gate.starY - s.cam, sp = 1 + 0.08 * Math.sin(s.t * 5 + gate.id);
          g.save(); g.translate(W / 2, sy); g.scale(sp, sp); g.rotate(s.t * 0.8);
          g.fillStyle = p.text; g.beginPath();
          for (var k = 0; k < 10; k++) {
            var rr = k % 2 ? 5.5 : 13, aa = -Math.PI / 2 + k * Math.PI / 5;
            g.lineTo(Math.cos(aa) * rr, Math.sin(aa) * rr);
          }
          g.closePath(); g.fill(); g.restore();
        }
        if (gate.changer) {
          var chy = gate.changerY - s.cam;
          for (var c = 0; c < 4; c++) {
            g.fillStyle = C[c]; g.beginPath(); g.moveTo(W / 2, chy);
            g.arc(W / 2, chy, 13, s.t * 2 + c * Q, s.t * 2 + (c + 1) * Q); g.closePath(); g.fill();
          }
          g.strokeStyle = api.alpha(p.text, 0.8); g.lineWidth = 2; g.beginPath(); g.arc(W / 2, chy, 13, 0, TAU); g.stroke();
        }
      }
      var by = s.y - s.cam, bc = C[s.colour];
      for (var t = 0; t < s.trail.length - 1; t++) {
        g.fillStyle = api.alpha(bc, 0.06 + 0.04 * t);
        g.beginPath(); g.arc(W / 2, s.trail[t] - s.cam, BR * (0.5 + t * 0.06), 0, TAU); g.fill();
      }
      api.glow(g, W / 2, by, BR * 3, bc);
      if (s.safe > 0 && Math.floor(s.safe * 10) % 2) g.globalAlpha = 0.4;
      var ball = g.createRadialGradient(W / 2 - 3, by - 4, 1, W / 2, by, BR);
      ball.addColorStop(0, api.shade(bc, 70)); ball.addColorStop(1, bc);
      g.fillStyle = ball; g.beginPath(); g.arc(W / 2, by, BR, 0, TAU); g.fill();
      g.globalAlpha = 1;
      if (s.wait && api.phase === "playing") {
        api.text(g, "tap!", W / 2, by + 34 + 3 * Math.sin(s.t * 6), 14, api.alpha(p.text, 0.8), "center");
      }
      if (s.flash > 0) { g.fillStyle = api.alpha(p.accent2, 0.1 * s.flash); g.fillRect(0, 0, W, H); }
    },
    hook: function (s, api) {
      var b = nextBand(s), over = overlapping(s), tap = false, C = cols(api);
      if (over) tap = s.vy > -200;                         // already crossing: keep going up
      else if (b) {
        var d = s.y - BR - b.y1;
        if (tapClears(s, b)) tap = true;                   // the gap is the ball's colour: go
        else if ((s.wait || s.vy >= 0) && d >= RISE + 6) tap = true;   // hover below it, out of reach
        else if (s.vy < 0 && d >= RISE + 6 && d - s.vy * s.vy / (2 * G) > 40) tap = true;  // lift a low hop to just under it
      } else if (s.vy >= 0) tap = true;
      var now = b ? bandColours(s, b.gate, b.band, s.t) : [];
      return {hint: tap ? [{type: "key", key: " "}] : [], ballY: Math.round(s.y - s.cam), ballColor: C[s.colour],
              vy: Math.round(s.vy), gatesPassed: s.passed, changers: s.changers, waiting: s.wait,
              nextGate: b ? {type: b.gate.type, band: b.band, y: Math.round(b.y1 - s.cam)} : null,
              gateColor: now.length === 1 ? C[now[0]] : null};
    },
  });
})();
