/* CRUMB game runtime: one shared engine for every embedded genre.
 *
 * A genre file calls CrumbGame.register({genre, size, controls, survive, letters, init, update, draw, hook}).
 * letters:true means every letter key is the genre's (typing): Escape pauses instead of P.
 * The runtime owns everything a genre should not have to think about: canvas fitting, phases
 * (title/playing/paused/over/won), timer, lives, score, target, HUD, input, the seeded RNG, the rAF
 * loop (driven by rAF timestamps so QA's fake clock can run a round in milliseconds), fault injection,
 * and the window.__crumb test hook described in docs/game-contract.md.
 *
 * Rules the runtime applies (documented here because QA and the Planner rely on them):
 *  - Time up (cfg.timeLimit): "won" when cfg.targetScore is null and the genre registered
 *    survive:true (dodge, runner...), otherwise "over". timeLeft is 0 afterwards.
 *  - Reaching cfg.targetScore → "won" at once.
 *  - api.setLevel(n) with n > cfg.levels → "won" (all levels cleared).
 *  - api.loseLife(): lives-1, "over" at 0; with cfg.lives null the first lost life ends the round.
 *  - cfg.levelTime (seconds per level): a second clock, levelTimeLeft, apart from the round's timeLeft.
 *    It restarts when api.setLevel moves to another level and after every lost life; running out
 *    costs a life (api.loseLife, so with no lives left the round is "over") and restarts it.
 *  - Phase changes (start, restart, pause) happen in the input event handler itself, so state()
 *    reflects them at once; restart from over/won is accepted RESTART_GRACE s after the round ended
 *    (so a player hammering Space does not skip the result screen).
 *  - A key pressed and released within one frame still reaches the genre in input.pressed.
 *  - api.text sizes are multiplied by cfg.textScale, like the HUD.
 *
 * Extras beyond the documented API (optional for genres): api.top (y below the HUD band),
 * api.burst(x,y,color,n) particles, api.popup(str,x,y,color) floating text, api.glow(g,x,y,r,color) halo,
 * api.cache(key, paint(g)) → an offscreen canvas of the whole field to g.drawImage(c, 0, 0, api.W, api.H), api.clamp, api.lerp,
 * api.keyDir(input) → "up"|"down"|"left"|"right"|null for arrows and WASD, api.beep(freq) (no-op
 * unless cfg.sound), api.roundRect(g,x,y,w,h,r) path, colour helpers api.mix(a,b,t), api.shade(c,d),
 * api.alpha(c,a) taking "#rrggbb" colours.
 */
(function () {
  "use strict";
  var RESTART_GRACE = 0.3;
  var VERSION = 1;

  var DEFAULT_PAL = {bg: "#14161f", fg: "#e8ecf4", accent: "#5ad1ff", accent2: "#ffcf5a",
                     danger: "#ff5d73", text: "#f5f7fb"};

  function mulberry32(a) {
    a = a >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function readSeed(cfg) {
    var m = /[?&]seed=(-?\d+)/.exec(window.location.search || "");
    if (m) return parseInt(m[1], 10) >>> 0;
    var s = cfg.seed;
    return (typeof s === "number" && isFinite(s)) ? (s >>> 0) : 1;
  }

  var KEY_ALIAS = {"Spacebar": " ", "Space": " ", "Left": "ArrowLeft", "Right": "ArrowRight",
                   "Up": "ArrowUp", "Down": "ArrowDown", "Esc": "Escape"};
  var DIRS = {ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
              w: "up", W: "up", s: "down", S: "down", a: "left", A: "left", d: "right", D: "right"};
  var NO_SCROLL = {" ": 1, ArrowUp: 1, ArrowDown: 1, ArrowLeft: 1, ArrowRight: 1};

  function hexRgb(c) {
    var m = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(c || "");
    if (!m) return [128, 128, 128];
    var h = m[1].length === 3 ? m[1].replace(/./g, "$&$&") : m[1];
    return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
  }
  function mixColor(a, b, t) {
    var x = hexRgb(a), y = hexRgb(b);
    return "rgb(" + Math.round(x[0] + (y[0] - x[0]) * t) + "," + Math.round(x[1] + (y[1] - x[1]) * t) + "," +
      Math.round(x[2] + (y[2] - x[2]) * t) + ")";
  }
  function shadeColor(c, d) {
    var x = hexRgb(c), f = function (v) { return Math.max(0, Math.min(255, v + d)); };
    return "rgb(" + f(x[0]) + "," + f(x[1]) + "," + f(x[2]) + ")";
  }
  function alphaColor(c, a) {
    var x = hexRgb(c);
    return "rgba(" + x[0] + "," + x[1] + "," + x[2] + "," + a + ")";
  }
  function roundPath(g, x, y, w, h, r) {
    r = Math.max(0, Math.min(r, w / 2, h / 2));
    g.beginPath();
    g.moveTo(x + r, y); g.arcTo(x + w, y, x + w, y + h, r); g.arcTo(x + w, y + h, x, y + h, r);
    g.arcTo(x, y + h, x, y, r); g.arcTo(x, y, x + w, y, r); g.closePath();
  }

  function boot(def) {
    var cfg = window.CRUMB_CONFIG || {};
    var pal = {};
    var k;
    for (k in DEFAULT_PAL) pal[k] = DEFAULT_PAL[k];
    if (cfg.palette) for (k in cfg.palette) if (cfg.palette[k]) pal[k] = cfg.palette[k];
    var size = def.size || [480, 720];
    var W = size[0], H = size[1];
    var textScale = (typeof cfg.textScale === "number" && cfg.textScale > 0) ? cfg.textScale : 1;
    var fault = cfg.fault || null;
    var seed = readSeed(cfg);
    var rng = mulberry32(seed);
    var fxRng = mulberry32(seed ^ 0x9E3779B9);
    var timeLimit = (typeof cfg.timeLimit === "number" && cfg.timeLimit > 0) ? cfg.timeLimit : null;
    var maxLives = (typeof cfg.lives === "number" && cfg.lives > 0) ? Math.floor(cfg.lives) : null;
    var target = (typeof cfg.targetScore === "number" && cfg.targetScore > 0) ? cfg.targetScore : null;
    var levels = (typeof cfg.levels === "number" && cfg.levels > 0) ? cfg.levels : null;
    var levelTime = (typeof cfg.levelTime === "number" && cfg.levelTime > 0) ? cfg.levelTime : null;
    var genre = def.genre || cfg.genre || "game";
    // Dark text (chosen for a light background) needs light veils behind the HUD and the screens.
    var rgbT = hexRgb(pal.text);
    var darkText = (0.2126 * rgbT[0] + 0.7152 * rgbT[1] + 0.0722 * rgbT[2]) / 255 < 0.5;
    var veil = darkText ? "250,250,252" : "0,0,0";

    // ------------------------------------------------------------ canvas
    var canvas = document.getElementById("game");
    if (!canvas) {
      canvas = document.createElement("canvas");
      canvas.id = "game";
      document.body.appendChild(canvas);
    }
    var g = canvas.getContext("2d");
    var pxScale = 1;

    function fit() {
      var vw = window.innerWidth || W, vh = window.innerHeight || H;
      var k2 = Math.min(vw / W, vh / H);
      var cssW = Math.max(1, Math.floor(W * k2)), cssH = Math.max(1, Math.floor(H * k2));
      canvas.style.width = cssW + "px";
      canvas.style.height = cssH + "px";
      var dpr = Math.min(window.devicePixelRatio || 1, 2);
      pxScale = Math.max(0.5, (cssW * dpr) / W);
      var bw = Math.round(W * pxScale), bh = Math.round(H * pxScale);
      if (canvas.width !== bw || canvas.height !== bh) { canvas.width = bw; canvas.height = bh; }
    }
    fit();
    window.addEventListener("resize", fit);

    // ------------------------------------------------------------ round state
    var phase = "title";
    var score = 0, lives = maxLives, time = 0, level = 1, endedAt = 0, clockNow = 0;
    var timeLeft = timeLimit;
    var levelStart = 0, levelTimeLeft = levelTime;
    var s = null;           // the genre's round state
    var particles = [], popups = [];
    var layers = {}, layerKeys = [];
    var thrown = false;

    var input = {held: new Set(), pressed: [], clicks: [], pointer: {x: W / 2, y: H / 2, down: false}};

    var api = {
      W: W, H: H, cfg: cfg, pal: pal, speed: (typeof cfg.speed === "number" && cfg.speed > 0) ? cfg.speed : 1,
      top: Math.round(44 * textScale),
      rng: function () { return rng(); },
      randInt: function (n) { return Math.floor(rng() * n); },
      addScore: function (n) {
        if (phase !== "playing" || !(n > 0)) return;
        score += Math.round(n);
        if (target !== null && score >= target) end("won");
      },
      loseLife: function () {
        if (phase !== "playing") return false;
        if (lives === null) { end("over"); return false; }
        lives = Math.max(0, lives - 1);
        if (lives <= 0) { end("over"); return false; }
        restartLevelClock();
        return true;
      },
      win: function () { if (phase === "playing") end("won"); },
      lose: function () { if (phase === "playing") end("over"); },
      setLevel: function (n) {
        if (levels !== null && n > levels) { level = levels; end("won"); return; }
        if (n !== level) restartLevelClock();
        level = n;
      },
      text: function (gg, str, x, y, size2, color, align) {
        gg.save();
        gg.font = "600 " + Math.round((size2 || 16) * textScale) + "px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
        gg.fillStyle = color || pal.text;
        gg.textAlign = align || "left";
        gg.textBaseline = "middle";
        gg.fillText(String(str), x, y);
        gg.restore();
      },
      clamp: function (v, a, b) { return v < a ? a : (v > b ? b : v); },
      lerp: function (a, b, t) { return a + (b - a) * t; },
      keyDir: function (inp) {
        for (var i = inp.pressed.length - 1; i >= 0; i--) if (DIRS[inp.pressed[i]]) return DIRS[inp.pressed[i]];
        var found = null;
        inp.held.forEach(function (key) { if (DIRS[key]) found = DIRS[key]; });
        return found;
      },
      burst: function (x, y, color, n) {
        n = n || 12;
        for (var i = 0; i < n && particles.length < 400; i++) {
          var a = fxRng() * Math.PI * 2, v = 60 + fxRng() * 180;
          particles.push({x: x, y: y, vx: Math.cos(a) * v, vy: Math.sin(a) * v, life: 0.5 + fxRng() * 0.4,
                          age: 0, r: 1.5 + fxRng() * 2.5, c: color || pal.accent2});
        }
      },
      popup: function (str, x, y, color) {
        if (popups.length < 40) popups.push({t: String(str), x: x, y: y, age: 0, c: color || pal.text});
      },
      beep: function (freq) { if (cfg.sound) tone(freq || 440); },
      roundRect: function (gg, x, y, w, h, r) { roundPath(gg, x, y, w, h, r); },
      mix: mixColor, shade: shadeColor, alpha: alphaColor,
      // A static full-field layer drawn once (per key and canvas size), then blitted each frame:
      // big static backgrounds cost one drawImage instead of hundreds of fills.
      cache: function (key, paint) {
        var id = key + "@" + canvas.width + "x" + canvas.height;
        if (!layers[id]) {
          var c = document.createElement("canvas");
          c.width = canvas.width; c.height = canvas.height;
          var cg = c.getContext("2d");
          cg.setTransform(pxScale, 0, 0, pxScale, 0, 0);
          paint(cg);
          layerKeys.push(id); layers[id] = c;
          if (layerKeys.length > 6) delete layers[layerKeys.shift()];
        }
        return layers[id];
      },
      // A soft halo: far cheaper than shadowBlur on a software-rendered canvas.
      glow: function (gg, x, y, r, color) {
        var gr = gg.createRadialGradient(x, y, 0, x, y, r);
        gr.addColorStop(0, alphaColor(color, 0.45)); gr.addColorStop(1, alphaColor(color, 0));
        gg.fillStyle = gr; gg.fillRect(x - r, y - r, r * 2, r * 2);
      },
    };
    Object.defineProperty(api, "score", {get: function () { return score; }});
    Object.defineProperty(api, "lives", {get: function () { return lives; }});
    Object.defineProperty(api, "phase", {get: function () { return phase; }});
    Object.defineProperty(api, "time", {get: function () { return time; }});
    Object.defineProperty(api, "level", {get: function () { return level; }});
    Object.defineProperty(api, "timeLeft", {get: function () { return timeLeft; }});
    Object.defineProperty(api, "levelTimeLeft", {get: function () { return levelTimeLeft; }});

    function restartLevelClock() {
      levelStart = time;
      if (levelTime !== null) levelTimeLeft = levelTime;
    }

    var audio = null;
    function tone(freq) {
      try {
        audio = audio || new (window.AudioContext || window.webkitAudioContext)();
        var o = audio.createOscillator(), gn = audio.createGain();
        o.frequency.value = freq; gn.gain.value = 0.05;
        o.connect(gn); gn.connect(audio.destination); o.start(); o.stop(audio.currentTime + 0.08);
      } catch (e) { /* sound is optional */ }
    }

    function newRound() {
      score = 0; lives = maxLives; time = 0; level = 1; timeLeft = timeLimit; thrown = false;
      levelStart = 0; levelTimeLeft = levelTime;
      particles = []; popups = [];
      s = def.init(api);
    }

    function end(result) {
      if (phase !== "playing") return;
      phase = result;
      endedAt = clockNow;
      api.burst(W / 2, H / 2, result === "won" ? pal.accent2 : pal.danger, 30);
    }

    function startPlaying() {
      newRound();
      phase = "playing";
      clearInput();
    }

    function clearInput() { input.pressed = []; input.clicks = []; input.held.clear(); }

    // Phase-level input: returns true when the event was consumed by a phase change.
    function phaseInput(isKey, key) {
      if (phase === "title") { startPlaying(); return true; }
      if (phase === "over" || phase === "won") {
        if (clockNow - endedAt >= RESTART_GRACE) startPlaying();
        return true;
      }
      if (phase === "paused") {
        if (!isKey || isPauseKey(key)) { phase = "playing"; clearInput(); }
        return true;
      }
      if (phase === "playing" && isKey && isPauseKey(key)) {
        phase = "paused"; clearInput(); return true;
      }
      return false;
    }

    // P pauses; a genre that reads letters (def.letters: typing) pauses with Escape instead.
    var PAUSE_KEYS = def.letters ? ["Escape"] : ["p", "P"];
    function isPauseKey(key) { return PAUSE_KEYS.indexOf(key) >= 0; }

    function gameplayBlocked() { return fault === "noinput"; }

    // ------------------------------------------------------------ input
    window.addEventListener("keydown", function (e) {
      var key = KEY_ALIAS[e.key] || e.key;
      if (NO_SCROLL[key]) e.preventDefault();
      var starter = key === "Enter" || key === " ";
      if (phase === "playing") {
        if (phaseInput(true, key)) return;
        if (gameplayBlocked()) return;
        if (!e.repeat) input.pressed.push(key);
        input.held.add(key);
        return;
      }
      if (phase === "paused") { if (isPauseKey(key) || starter) phaseInput(false, key); return; }
      if (starter && !e.repeat) phaseInput(true, key);
    });
    window.addEventListener("keyup", function (e) {
      var key = KEY_ALIAS[e.key] || e.key;
      input.held.delete(key);
    });
    window.addEventListener("blur", function () { input.held.clear(); input.pointer.down = false; });

    function toCanvas(e) {
      var r = canvas.getBoundingClientRect();
      return {x: (e.clientX - r.left) / (r.width || 1) * W, y: (e.clientY - r.top) / (r.height || 1) * H};
    }
    var touchStart = null;
    function pointerTap(p) {
      if (phaseInput(false, null)) return;
      if (phase === "playing" && !gameplayBlocked()) input.clicks.push({x: p.x, y: p.y});
    }
    canvas.addEventListener("pointerdown", function (e) {
      var p = toCanvas(e);
      if (!gameplayBlocked() || phase !== "playing") { input.pointer.x = p.x; input.pointer.y = p.y; }
      if (phase === "playing" && !gameplayBlocked()) input.pointer.down = true;
      if (e.pointerType === "mouse") { pointerTap(p); }
      else { touchStart = {x: p.x, y: p.y, cx: e.clientX, cy: e.clientY}; }
      e.preventDefault();
    });
    canvas.addEventListener("pointermove", function (e) {
      if (gameplayBlocked() && phase === "playing") return;
      var p = toCanvas(e);
      input.pointer.x = p.x; input.pointer.y = p.y;
    });
    function pointerEnd(e) {
      input.pointer.down = false;
      if (e.pointerType === "mouse" || !touchStart) return;
      var dx = e.clientX - touchStart.cx, dy = e.clientY - touchStart.cy;
      var start = touchStart;
      touchStart = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) > 24) {
        var key = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "ArrowRight" : "ArrowLeft") : (dy > 0 ? "ArrowDown" : "ArrowUp");
        if (phase === "playing" && !gameplayBlocked()) input.pressed.push(key);
        else phaseInput(false, null);
      } else {
        pointerTap({x: start.x, y: start.y});
      }
    }
    canvas.addEventListener("pointerup", pointerEnd);
    canvas.addEventListener("pointercancel", function () { input.pointer.down = false; touchStart = null; });
    canvas.addEventListener("contextmenu", function (e) { e.preventDefault(); });
    canvas.style.touchAction = "none";

    // ------------------------------------------------------------ drawing helpers
    function roundRect(x, y, w, h, r) { roundPath(g, x, y, w, h, r); }

    function heart(x, y, r, color) {
      g.save(); g.fillStyle = color; g.beginPath();
      g.moveTo(x, y + r * 0.9);
      g.bezierCurveTo(x - r * 1.6, y - r * 0.2, x - r * 0.6, y - r * 1.4, x, y - r * 0.45);
      g.bezierCurveTo(x + r * 0.6, y - r * 1.4, x + r * 1.6, y - r * 0.2, x, y + r * 0.9);
      g.fill(); g.restore();
    }

    function fmtTime(t) {
      var sec = Math.ceil(Math.max(0, t));
      return sec >= 60 ? Math.floor(sec / 60) + ":" + ("0" + (sec % 60)).slice(-2) : sec + "s";
    }

    function drawHud() {
      var h = api.top;
      var grad = g.createLinearGradient(0, 0, 0, h);
      grad.addColorStop(0, "rgba(" + veil + ",0.6)"); grad.addColorStop(1, "rgba(" + veil + ",0.2)");
      g.fillStyle = grad; g.fillRect(0, 0, W, h);
      var fs = 18;
      api.text(g, target !== null ? score + " / " + target : String(score), 14, h / 2, fs, pal.text, "left");
      var mid = [];
      var lv = levels !== null || level > 1 || levelTimeLeft !== null ? "Lv " + level + (levels !== null ? "/" + levels : "") : "";
      if (levelTimeLeft !== null) lv += " \u00b7 " + fmtTime(levelTimeLeft);
      if (lv) mid.push(lv);
      if (timeLeft !== null) mid.push(fmtTime(timeLeft));
      var hurry = (timeLeft !== null && timeLeft < 10) || (levelTimeLeft !== null && levelTimeLeft < 5);
      if (mid.length) api.text(g, mid.join("   "), W / 2, h / 2, fs, hurry ? pal.danger : pal.text, "center");
      if (lives !== null) {
        var r = 7 * textScale, shown = Math.min(lives, 8);
        for (var i = 0; i < shown; i++) heart(W - 18 - i * r * 2.8, h / 2, r, pal.danger);
        if (lives > 8) api.text(g, "×" + lives, W - 18 - 8 * r * 2.8, h / 2, 14, pal.text, "right");
      }
    }

    function overlay(lines) {
      g.save();
      g.fillStyle = darkText ? "rgba(250,250,252,0.55)" : "rgba(6,8,14,0.62)"; g.fillRect(0, 0, W, H);
      var widest = 0;
      for (var m = 0; m < lines.length; m++) {
        g.font = "600 " + Math.round(lines[m][1] * textScale) + "px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
        widest = Math.max(widest, g.measureText(String(lines[m][0])).width);
      }
      var bw = Math.min(W - 16, Math.max(Math.min(W - 40, 320), widest + 48)), bh = 40 + lines.length * 44 * textScale;
      var bx = (W - bw) / 2, by = (H - bh) / 2;
      var grad = g.createLinearGradient(0, by, 0, by + bh);
      grad.addColorStop(0, darkText ? "rgba(255,255,255,0.85)" : "rgba(255,255,255,0.12)");
      grad.addColorStop(1, darkText ? "rgba(255,255,255,0.7)" : "rgba(255,255,255,0.04)");
      g.fillStyle = grad; roundRect(bx, by, bw, bh, 18); g.fill();
      g.strokeStyle = pal.accent; g.globalAlpha = 0.6; g.lineWidth = 2; g.stroke(); g.globalAlpha = 1;
      var y = by + 20 + 22 * textScale;
      for (var i = 0; i < lines.length; i++) {
        var L = lines[i];
        api.text(g, L[0], W / 2, y, L[1], L[2] || pal.text, "center");
        y += 44 * textScale;
      }
      g.restore();
    }

    function wrapTitle(str) {
      if (str.length <= 18) return [str];
      var words = str.split(" "), out = [""];
      for (var i = 0; i < words.length; i++) {
        var cur = out[out.length - 1];
        if (cur && (cur + " " + words[i]).length > 18) out.push(words[i]);
        else out[out.length - 1] = cur ? cur + " " + words[i] : words[i];
      }
      return out.slice(0, 3);
    }

    function drawFx(dt) {
      for (var i = particles.length - 1; i >= 0; i--) {
        var p = particles[i];
        p.age += dt; p.x += p.vx * dt; p.y += p.vy * dt; p.vy += 240 * dt;
        if (p.age >= p.life) { particles.splice(i, 1); continue; }
        g.globalAlpha = 1 - p.age / p.life; g.fillStyle = p.c;
        g.beginPath(); g.arc(p.x, p.y, p.r, 0, Math.PI * 2); g.fill();
      }
      g.globalAlpha = 1;
      for (var j = popups.length - 1; j >= 0; j--) {
        var q = popups[j];
        q.age += dt;
        if (q.age >= 0.8) { popups.splice(j, 1); continue; }
        g.globalAlpha = 1 - q.age / 0.8;
        api.text(g, q.t, q.x, q.y - q.age * 40, 16, q.c, "center");
      }
      g.globalAlpha = 1;
    }

    function drawFrame(dt) {
      g.setTransform(pxScale, 0, 0, pxScale, 0, 0);
      g.fillStyle = pal.bg; g.fillRect(0, 0, W, H);
      if (s) def.draw(g, s, api);
      drawFx(phase === "paused" ? 0 : dt);
      if (phase !== "title") drawHud();
      if (phase === "title") {
        var title = wrapTitle(String(cfg.title || genre));
        var lines = [];
        for (var i = 0; i < title.length; i++) lines.push([title[i], 30, pal.accent2]);
        lines.push(["Press Enter / tap to start", 17, pal.text]);
        if (def.controls) lines.push([def.controls, 13, pal.fg]);
        var info = [];
        if (target !== null) info.push("Reach " + target);
        if (timeLimit !== null) info.push(fmtTime(timeLimit));
        if (levelTime !== null) info.push(fmtTime(levelTime) + " per level");
        if (maxLives !== null) info.push(maxLives + (maxLives === 1 ? " life" : " lives"));
        if (info.length) lines.push([info.join(" · "), 13, pal.accent]);
        overlay(lines);
      } else if (phase === "paused") {
        overlay([["Paused", 30, pal.accent2], ["P or click to resume", 15]]);
      } else if (phase === "over" || phase === "won") {
        overlay([[phase === "won" ? "You win!" : "Game over", 32, phase === "won" ? pal.accent2 : pal.danger],
                 ["Score " + score, 22],
                 ["Enter / tap to play again", 15]]);
      }
    }

    // ------------------------------------------------------------ loop
    var last = null;
    function frame(ts) {
      var dt = last === null ? 0 : (ts - last) / 1000;
      last = ts;
      if (!(dt > 0)) dt = 0;
      if (dt > 0.1) dt = 0.1;
      clockNow += dt;
      if (phase === "playing") {
        time += dt;
        if (timeLimit !== null && fault !== "wrongtimer") {
          timeLeft = Math.max(0, timeLimit - time);
        }
        if (levelTime !== null && fault !== "wrongtimer") {
          levelTimeLeft = Math.max(0, levelTime - (time - levelStart));
        }
        var frameInput = {held: input.held, pressed: input.pressed, clicks: input.clicks, pointer: input.pointer};
        input.pressed = []; input.clicks = [];
        def.update(s, dt, frameInput, api);
        if (phase === "playing" && timeLimit !== null && timeLeft <= 0 && fault !== "wrongtimer") {
          end(target === null && def.survive ? "won" : "over");
        }
        if (phase === "playing" && levelTime !== null && levelTimeLeft <= 0 && fault !== "wrongtimer") {
          // the level's clock ran out: it costs a life (and restarts if one is left)
          api.burst(W / 2, api.top + 20, pal.danger, 20);
          api.popup("Time!", W / 2, api.top + 40, pal.danger);
          api.loseLife();
        }
        if (fault === "throws" && time >= 1 && !thrown) {
          thrown = true;
          throw new Error("CRUMB fault injection: the game crashed 1 s into the round");
        }
      } else {
        input.pressed = []; input.clicks = [];
      }
      if (fault !== "blank") drawFrame(dt);
      window.requestAnimationFrame(frame);
    }

    // ------------------------------------------------------------ test hook
    window.__crumb = {
      version: VERSION,
      genre: genre,
      seed: seed,
      state: function () {
        var extra = {}, hint = [];
        if (s && def.hook) {
          try { extra = def.hook(s, api) || {}; } catch (e) { extra = {}; }
        }
        if (phase === "playing") hint = Array.isArray(extra.hint) ? extra.hint : [];
        else if (phase === "paused") hint = [{type: "key", key: PAUSE_KEYS[0]}];
        else hint = [{type: "key", key: "Enter"}];
        var out = JSON.parse(JSON.stringify(extra));
        out.phase = phase; out.score = score; out.lives = lives;
        out.timeLeft = timeLeft === null ? null : Math.round(timeLeft * 1000) / 1000;
        out.level = level; out.levels = levels; out.target = target; out.speed = api.speed;
        out.levelTimeLeft = levelTimeLeft === null ? null : Math.round(levelTimeLeft * 1000) / 1000;
        out.hint = JSON.parse(JSON.stringify(hint));
        out.genre = genre; out.time = Math.round(time * 1000) / 1000;
        return out;
      },
    };

    s = def.init(api);
    window.requestAnimationFrame(frame);
  }

  // A static piece of art painted once into an offscreen canvas at the drawing scale, then blitted.
  const sprites = new Map();
  function sprite(key, w, h, scale, paint) {
    const k = key + "@" + scale;
    let c = sprites.get(k);
    if (!c) {
      c = document.createElement("canvas");
      c.width = Math.ceil(w * scale); c.height = Math.ceil(h * scale);
      const cg = c.getContext("2d"); cg.scale(scale, scale); paint(cg);
      sprites.set(k, c);
    }
    return c;
  }
  function scaleOf(g) { return Math.round(Math.abs(g.getTransform().a) * 100) / 100 || 1; }

  window.CrumbGame = {
    version: VERSION,
    sprite: sprite,
    scaleOf: scaleOf,
    register: function (def) {
      if (window.__crumbBooted) throw new Error("CrumbGame.register called twice");
      window.__crumbBooted = true;
      if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", function () { boot(def); });
      } else {
        boot(def);
      }
    },
  };
})();
