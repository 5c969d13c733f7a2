/* Rhythm tiles (Piano Tiles): rows of four lanes scroll down on the beat; tap the black tile of each row
 * in order and never a white one. Keys D F J K or 1-4 tap a lane; click or tap the tile itself. */
(function () {
  "use strict";

  var W = 480, H = 720, LANES = 4, LW = W / LANES, TH = 150;
  var KEYS = {d: 0, f: 1, j: 2, k: 3, D: 0, F: 1, J: 2, K: 3, "1": 0, "2": 1, "3": 2, "4": 3};
  var LANE_KEYS = ["d", "f", "j", "k"];
  // a melody for the taps (heard only with sound on): C major pentatonic, up and down
  var NOTES = [523, 587, 659, 784, 880, 784, 659, 587, 523, 440, 392, 440];

  function newRow(s, api) {
    var lane = api.randInt(LANES);
    // never three in one lane: a run of taps on one key is no rhythm
    if (s.tiles.length >= 2 && s.tiles[s.tiles.length - 1].lane === lane && s.tiles[s.tiles.length - 2].lane === lane) {
      lane = (lane + 1 + api.randInt(LANES - 1)) % LANES;
    }
    s.tiles.push({i: s.rows, lane: lane, hit: false, missed: false, fade: 0});
    s.rows++;
  }

  // screen y of the bottom edge of row i
  function bottomOf(s, i) { return s.base + s.scroll - i * TH; }

  function nextTile(s) {
    for (var i = 0; i < s.tiles.length; i++) if (!s.tiles[i].hit && !s.tiles[i].missed) return s.tiles[i];
    return null;
  }

  function visible(s, t, api) { return bottomOf(s, t.i) > api.top + 24 && bottomOf(s, t.i) - TH < H; }

  function mistake(s, api, lane, y, why) {
    s.mistakes++; s.combo = 0;
    s.flash.push({lane: lane, y: y, t: 0.45, why: why});
    api.burst(lane * LW + LW / 2, y, api.pal.danger, 14);
    api.popup(why === "late" ? "missed!" : "white tile!", lane * LW + LW / 2, y - 20, api.pal.danger);
    api.loseLife();
  }

  function hit(s, api, t) {
    t.hit = true; s.hits++; s.combo++; s.best = Math.max(s.best, s.combo);
    var pts = 10 + 2 * Math.min(10, s.combo - 1);
    var y = bottomOf(s, t.i) - TH / 2;
    api.burst(t.lane * LW + LW / 2, y, api.pal.accent, 10);
    api.popup("+" + pts, t.lane * LW + LW / 2, y, api.mix(api.pal.accent, "#000000", 0.5));   // on a white lane
    api.beep(NOTES[s.hits % NOTES.length]);
    s.pulse = 1;
    api.addScore(pts);
  }

  function tapLane(s, api, lane) {
    var t = nextTile(s);
    if (!t || !visible(s, t, api)) return;            // nothing to tap yet: a free press
    if (t.lane === lane) hit(s, api, t);
    else mistake(s, api, lane, bottomOf(s, t.i) - TH / 2, "white");
  }

  function tapAt(s, api, x, y) {
    if (y < api.top) return;
    var lane = Math.max(0, Math.min(LANES - 1, Math.floor(x / LW)));
    var t = nextTile(s);
    if (!t || !visible(s, t, api)) return;
    var b = bottomOf(s, t.i);
    if (lane === t.lane && y <= b + 30 && y >= b - TH - 30) { hit(s, api, t); return; }
    // a black tile further up, or one already played, is no mistake; any white cell is
    for (var k = 0; k < s.tiles.length; k++) {
      var o = s.tiles[k], ob = bottomOf(s, o.i);
      if (o.lane === lane && y <= ob && y >= ob - TH) return;
    }
    mistake(s, api, lane, y, "white");
  }

  CrumbGame.register({
    genre: "rhythm",
    size: [W, H],
    survive: true,
    controls: "Tap the black tiles in order \u00b7 keys D F J K or 1-4",

    init: function (api) {
      var s = {tiles: [], rows: 0, scroll: 0, base: H * 0.55, hits: 0, mistakes: 0, combo: 0, best: 0,
               flash: [], pulse: 0, beat: 0, t: 0, tempo: 0};
      for (var i = 0; i < 8; i++) newRow(s, api);
      return s;
    },

    update: function (s, dt, input, api) {
      s.t += dt;
      // tempo in rows (beats) per second: it quickens as the song goes on
      s.tempo = Math.min(5.5, (1.6 + 0.03 * s.t)) * api.speed;
      var was = Math.floor(s.scroll / TH);
      s.scroll += s.tempo * TH * dt;
      if (Math.floor(s.scroll / TH) !== was) s.beat = 1;
      for (var k = 0; k < input.pressed.length; k++) {
        var lane = KEYS[input.pressed[k]];
        if (lane !== undefined) tapLane(s, api, lane);
        if (api.phase !== "playing") return;
      }
      for (var c = 0; c < input.clicks.length; c++) {
        tapAt(s, api, input.clicks[c].x, input.clicks[c].y);
        if (api.phase !== "playing") return;
      }
      // a black tile that leaves the bottom of the screen unplayed is a mistake
      var t = nextTile(s);
      if (t && bottomOf(s, t.i) - TH * 0.35 > H) {
        t.missed = true;
        mistake(s, api, t.lane, H - TH * 0.4, "late");
        if (api.phase !== "playing") return;
      }
      while (bottomOf(s, s.rows - 1) > api.top - TH) newRow(s, api);
      s.tiles = s.tiles.filter(function (o) { return bottomOf(s, o.i) - TH < H + 10; });
      for (var f = 0; f < s.flash.length; f++) s.flash[f].t -= dt;
      s.flash = s.flash.filter(function (o) { return o.t > 0; });
      for (var j = 0; j < s.tiles.length; j++) if (s.tiles[j].hit) s.tiles[j].fade = Math.min(1, s.tiles[j].fade + dt * 4);
      s.pulse = Math.max(0, s.pulse - dt * 4);
      s.beat = Math.max(0, s.beat - dt * 3);
    },

    draw: function (g, s, api) {
      var pal = api.pal;
      var white = api.mix("#ffffff", pal.bg, 0.07), ivory = api.mix("#f4f1ea", pal.bg, 0.12);
      // the white tiles: lanes painted once, with faint row lines that scroll on the beat
      g.drawImage(api.cache("rhythm-lanes", function (cg) {
        for (var l = 0; l < LANES; l++) { cg.fillStyle = l % 2 ? white : ivory; cg.fillRect(l * LW, 0, LW, H); }
        cg.strokeStyle = api.alpha(pal.bg, 0.35); cg.lineWidth = 2;
        for (var v = 1; v < LANES; v++) { cg.beginPath(); cg.moveTo(v * LW, 0); cg.lineTo(v * LW, H); cg.stroke(); }
      }), 0, 0, W, H);
      g.strokeStyle = api.alpha(s.beat > 0.05 ? pal.accent : pal.bg, 0.18 + 0.4 * s.beat); g.lineWidth = 1 + 2 * s.beat;
      var off = (s.base + s.scroll) % TH;
      g.beginPath();
      for (var y = off; y < H; y += TH) { g.moveTo(0, y); g.lineTo(W, y); }
      g.stroke();
      // the black tiles
      var next = nextTile(s);
      for (var i = 0; i < s.tiles.length; i++) {
        var t = s.tiles[i], b = bottomOf(s, t.i), x = t.lane * LW;
        if (b < 0) continue;
        if (t.hit) {
          g.fillStyle = api.alpha(pal.accent, 0.55 * (1 - t.fade) + 0.12);
          api.roundRect(g, x + 3, b - TH + 3, LW - 6, TH - 6, 8); g.fill();
          continue;
        }
        var grad = g.createLinearGradient(0, b - TH, 0, b);
        grad.addColorStop(0, api.mix("#1a1c26", pal.bg, 0.35)); grad.addColorStop(1, api.mix("#05060a", pal.bg, 0.2));
        g.fillStyle = t.missed ? pal.danger : grad;
        api.roundRect(g, x + 3, b - TH + 3, LW - 6, TH - 6, 8); g.fill();
        g.fillStyle = api.alpha(pal.accent, t === next ? 0.9 : 0.35);
        g.fillRect(x + 10, b - 12, LW - 20, 4);
        if (t === next) {
          g.strokeStyle = api.alpha(pal.accent2, 0.5 + 0.5 * s.beat); g.lineWidth = 3;
          api.roundRect(g, x + 3, b - TH + 3, LW - 6, TH - 6, 8); g.stroke();
          api.text(g, LANE_KEYS[t.lane].toUpperCase(), x + LW / 2, b - TH / 2, 22, api.alpha("#ffffff", 0.75), "center");
        }
      }
      for (var f = 0; f < s.flash.length; f++) {
        var fl = s.flash[f];
        g.fillStyle = api.alpha(pal.danger, Math.min(0.7, fl.t * 1.6));
        g.fillRect(fl.lane * LW, fl.y - TH / 2, LW, TH);
      }
      // the beat: a pulse along the bottom, the lane keys under it
      g.fillStyle = api.alpha(pal.bg, 0.82); g.fillRect(0, H - 34, W, 34);
      g.fillStyle = api.alpha(pal.accent, 0.35 + 0.65 * s.beat); g.fillRect(0, H - 34, W, 3 + 3 * s.beat);
      for (var q = 0; q < LANES; q++) {
        api.text(g, LANE_KEYS[q].toUpperCase() + " \u00b7 " + (q + 1), q * LW + LW / 2, H - 16, 14,
                 next && next.lane === q ? pal.accent2 : api.alpha(pal.text, 0.7), "center");
      }
      if (s.combo > 1) {
        api.text(g, "\u00d7" + s.combo, W / 2, api.top + 40 + 8 * s.pulse, 30 + 8 * s.pulse, api.mix(pal.accent, "#000000", 0.35), "center");
      }
    },

    hook: function (s, api) {
      // the hint: the lanes of the next black tiles, in order (up to three, so a slow
      // autopilot keeps up with a quick song)
      var hint = [], shown = [];
      for (var i = 0; i < s.tiles.length; i++) {
        var t = s.tiles[i];
        // tiles in the lower two thirds, as a player plays them (not the moment they show at the top)
        if (t.hit || t.missed || !visible(s, t, api) || bottomOf(s, t.i) < H * 0.35) continue;
        if (hint.length < 3) hint.push({type: "key", key: LANE_KEYS[t.lane]});
      }
      for (var j = 0; j < s.tiles.length; j++) {
        var o = s.tiles[j];
        if (!o.hit && !o.missed && bottomOf(s, o.i) > api.top) {
          shown.push({lane: o.lane + 1, x: +((o.lane + 0.5) / LANES).toFixed(4),
                      y: +(api.clamp(bottomOf(s, o.i) - TH / 2, api.top, H) / H).toFixed(4)});
        }
      }
      var nt = nextTile(s);
      return {hint: hint, lanes: LANES, nextLane: nt ? nt.lane + 1 : null, tiles: shown, hits: s.hits,
              mistakes: s.mistakes, combo: s.combo, bestCombo: s.best, tempo: +s.tempo.toFixed(3)};
    },
  });
})();
