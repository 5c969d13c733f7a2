// Memory: flip two cards at a time and find every pair.
// Mouse/touch: tap a card. Keyboard: arrows move the cursor, Space/Enter flips.
(function () {
  "use strict";

  const W = 480, H = 640;
  const COLORS = ["#ff5d73", "#ffb02e", "#ffe14d", "#4ade80", "#38bdf8", "#818cf8", "#e879f9", "#2dd4bf"];
  const MISMATCH_S = 0.8, FLIP_S = 0.18;

  function symbolOf(k) { return { shape: k % 8, color: COLORS[(k * 3 + Math.floor(k / 8)) % 8] }; }

  function shapePath(g, shape, x, y, r) {
    g.beginPath();
    if (shape === 0) g.arc(x, y, r, 0, Math.PI * 2);
    else if (shape === 1) g.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
    else if (shape === 2) { g.moveTo(x, y - r); g.lineTo(x + r, y + r * 0.8); g.lineTo(x - r, y + r * 0.8); g.closePath(); }
    else if (shape === 3) { g.moveTo(x, y - r * 1.1); g.lineTo(x + r * 0.85, y); g.lineTo(x, y + r * 1.1); g.lineTo(x - r * 0.85, y); g.closePath(); }
    else if (shape === 4) { for (let k = 0; k < 10; k++) { const a = -Math.PI / 2 + k * Math.PI / 5, q = k % 2 ? r * 0.45 : r * 1.05; g.lineTo(x + Math.cos(a) * q, y + Math.sin(a) * q); } g.closePath(); }
    else if (shape === 5) {
      g.moveTo(x, y + r * 0.9);
      g.bezierCurveTo(x - r * 1.6, y - r * 0.2, x - r * 0.6, y - r * 1.4, x, y - r * 0.45);
      g.bezierCurveTo(x + r * 0.6, y - r * 1.4, x + r * 1.6, y - r * 0.2, x, y + r * 0.9);
    }
    else if (shape === 6) { for (let k = 0; k < 6; k++) { const a = k * Math.PI / 3; g.lineTo(x + Math.cos(a) * r, y + Math.sin(a) * r); } g.closePath(); }
    else {
      const t = r * 0.36, pts = [[-t, -r], [t, -r], [t, -t], [r, -t], [r, t], [t, t], [t, r], [-t, r], [-t, t], [-r, t], [-r, -t], [-t, -t]];
      for (const [px, py] of pts) g.lineTo(x + px, y + py);
      g.closePath();
    }
  }

  // Cards are painted once into sprites: per-frame gradients and shadows make a software canvas slow.
  const { sprite } = CrumbGame; // static art painted once, at the drawing scale

  function paintFace(g, api, symIndex, cw) {
    g.shadowColor = "rgba(0,0,0,0.4)"; g.shadowBlur = 8; g.shadowOffsetY = 3;
    api.roundRect(g, -cw / 2, -cw / 2, cw, cw, cw * 0.14);
    const fg = g.createLinearGradient(0, -cw / 2, 0, cw / 2);
    fg.addColorStop(0, "#ffffff"); fg.addColorStop(1, "#dfe4f0");
    g.fillStyle = fg; g.fill();
    g.shadowColor = "transparent";
    const sym = symbolOf(symIndex);
    shapePath(g, sym.shape, 0, 0, cw * 0.27);
    const sg = g.createRadialGradient(-cw * 0.08, -cw * 0.1, 1, 0, 0, cw * 0.35);
    sg.addColorStop(0, api.mix(sym.color, "#ffffff", 0.45)); sg.addColorStop(1, sym.color);
    g.fillStyle = sg; g.fill();
    g.lineWidth = 2; g.strokeStyle = api.shade(sym.color, -60); g.stroke();
  }

  function paintBack(g, api, cw) {
    const pal = api.pal;
    g.shadowColor = "rgba(0,0,0,0.4)"; g.shadowBlur = 8; g.shadowOffsetY = 3;
    api.roundRect(g, -cw / 2, -cw / 2, cw, cw, cw * 0.14);
    const bgC = g.createLinearGradient(-cw / 2, -cw / 2, cw / 2, cw / 2);
    bgC.addColorStop(0, pal.accent); bgC.addColorStop(1, api.shade(pal.accent, -90));
    g.fillStyle = bgC; g.fill();
    g.shadowColor = "transparent";
    g.save(); g.clip();
    g.strokeStyle = "rgba(255,255,255,0.18)"; g.lineWidth = 2;
    for (let d = -cw; d < cw; d += cw / 5) { g.beginPath(); g.moveTo(d, -cw / 2); g.lineTo(d + cw, cw / 2); g.stroke(); }
    g.restore();
    g.lineWidth = 2; g.strokeStyle = "rgba(255,255,255,0.5)"; api.roundRect(g, -cw / 2 + 5, -cw / 2 + 5, cw - 10, cw - 10, cw * 0.1); g.stroke();
    api.text(g, "?", 0, 2, Math.round(cw * 0.36), "rgba(255,255,255,0.85)", "center");
  }

  function deal(s, api) {
    const n = s.n, total = n * n, pairs = Math.floor(total / 2);
    const blank = total % 2 ? Math.floor(total / 2) : -1;
    const syms = [];
    for (let k = 0; k < pairs; k++) syms.push(k, k);
    for (let i = syms.length - 1; i > 0; i--) { const j = api.randInt(i + 1); [syms[i], syms[j]] = [syms[j], syms[i]]; }
    const gap = 10, avail = Math.min(W - 32, H - s.top - 40);
    const cw = Math.floor((avail - gap * (n - 1)) / n);
    const span = cw * n + gap * (n - 1);
    const ox = Math.round((W - span) / 2), oy = Math.round(s.top + Math.max(0, (H - s.top - 16 - span) / 2));
    s.cards = []; s.cw = cw;
    let k = 0;
    for (let i = 0; i < total; i++) {
      if (i === blank) continue;
      const r = Math.floor(i / n), c = i % n;
      s.cards.push({ sym: syms[k++], r, c, x: ox + c * (cw + gap), y: oy + r * (cw + gap), state: "down", flip: 0, glow: 0 });
    }
    s.pairs = pairs; s.pairsLeft = pairs; s.open = []; s.wait = 0;
  }

  function cardAt(s, x, y) {
    return s.cards.findIndex((c) => x >= c.x && x <= c.x + s.cw && y >= c.y && y <= c.y + s.cw);
  }

  function hideMismatch(s) {
    for (const i of s.open) s.cards[i].state = "down";
    s.open = []; s.wait = 0;
  }

  function flipCard(s, i, api) {
    if (i < 0) return;
    if (s.wait > 0) hideMismatch(s);      // a new tap skips the wait after a miss
    const card = s.cards[i];
    if (card.state !== "down" || s.open.length >= 2) return;
    card.state = "up"; s.open.push(i); s.flips++;
    if (s.open.length < 2) return;
    const [a, b] = s.open.map((j) => s.cards[j]);
    if (a.sym === b.sym) {
      a.state = b.state = "done"; a.glow = b.glow = 1;
      s.streak++;
      const pts = 100 + 50 * (s.streak - 1);
      api.addScore(pts);
      s.floats.push({ text: "+" + pts, x: b.x + s.cw / 2, y: b.y + s.cw / 2, t: 0 });
      s.open = []; s.pairsLeft--;
      if (s.pairsLeft === 0) boardCleared(s, api);
    } else {
      s.streak = 0; s.mistakes++; s.wait = MISMATCH_S;
      a.shake = b.shake = 0.3;
      if (api.cfg.lives) api.loseLife();
    }
  }

  function boardCleared(s, api) {
    if (api.timeLeft != null && api.timeLeft > 0) api.addScore(Math.round(api.timeLeft) * 10);
    if (api.cfg.levels && api.level < api.cfg.levels) {
      api.setLevel(api.level + 1);
      s.n = Math.min(8, s.n + 1);
      s.banner = 1.4; s.redeal = 1.0;
    } else if (api.cfg.levels) {
      api.setLevel(api.level + 1);   // past the last level: the runtime declares the win
    } else {
      api.win();
    }
  }

  CrumbGame.register({
    genre: "memory",
    size: [480, 640],
    controls: "Tap two cards to find a pair \u00b7 Arrows + Space",

    init(api) {
      const n = Math.max(2, Math.min(8, (api.cfg && api.cfg.grid) || 4));
      const s = { n, top: api.top + 64, cards: [], cur: 0, keys: false, streak: 0, mistakes: 0, flips: 0,
        floats: [], banner: 0, redeal: 0, clock: 0 };
      deal(s, api);
      return s;
    },

    update(s, dt, input, api) {
      s.clock += dt;
      if (s.redeal > 0) { s.redeal -= dt; if (s.redeal <= 0) deal(s, api); }
      if (s.wait > 0) { s.wait -= dt; if (s.wait <= 0) hideMismatch(s); }
      const n = s.n;
      for (const key of input.pressed) {
        const d = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[key];
        if (d && s.cards.length) {
          s.keys = true;
          const cur = s.cards[s.cur] || s.cards[0];
          const r = Math.max(0, Math.min(n - 1, cur.r + d[0])), c = Math.max(0, Math.min(n - 1, cur.c + d[1]));
          let j = s.cards.findIndex((q) => q.r === r && q.c === c);
          if (j < 0) j = s.cards.findIndex((q) => q.r === r && q.c === c + (d[1] || 1));   // hop the blank
          if (j >= 0) s.cur = j;
        } else if ((key === " " || key === "Enter") && s.redeal <= 0) {
          s.keys = true; flipCard(s, s.cur, api);
        }
      }
      if (s.redeal <= 0) for (const c of input.clicks) { s.keys = false; flipCard(s, cardAt(s, c.x, c.y), api); }
      for (const c of s.cards) {
        const want = c.state === "down" ? 0 : 1;
        c.flip += Math.sign(want - c.flip) * Math.min(Math.abs(want - c.flip), dt / FLIP_S);
        if (c.glow > 0) c.glow = Math.max(0, c.glow - dt * 1.5);
        if (c.shake > 0) c.shake = Math.max(0, c.shake - dt);
      }
      for (const f of s.floats) f.t += dt;
      s.floats = s.floats.filter((f) => f.t < 1);
      if (s.banner > 0) s.banner -= dt;
    },

    draw(g, s, api) {
      // Sprites are painted at the canvas's pixel scale and blitted 1:1; smoothing would resample
      // every blit (measured: about 4x the frame cost in headless Chromium). Scaled blits turn it on.
      g.imageSmoothingEnabled = false;
      const pal = api.pal, cw = s.cw;
      const bg = g.createLinearGradient(0, 0, 0, H);
      bg.addColorStop(0, pal.bg); bg.addColorStop(1, api.mix(pal.bg, "#2a1650", 0.7));
      g.fillStyle = bg; g.fillRect(0, 0, W, H);
      // status line
      api.text(g, "Pairs " + (s.pairs - s.pairsLeft) + " / " + s.pairs, 24, api.top + 30, 20, pal.text, "left");
      api.text(g, s.streak > 1 ? "Streak x" + s.streak : "Misses " + s.mistakes, W - 24, api.top + 30, 20,
        s.streak > 1 ? pal.accent2 : pal.fg, "right");
      for (let i = 0; i < s.cards.length; i++) {
        const c = s.cards[i];
        const k = Math.abs(Math.cos(Math.PI * c.flip));
        const face = c.flip > 0.5;
        const cx = c.x + cw / 2 + (c.shake > 0 ? Math.sin(c.shake * 60) * 5 : 0), cy = c.y + cw / 2;
        const scale = Math.round(Math.abs(g.getTransform().a) * 100) / 100 || 1;
        const m = 10, size = cw + 2 * m;
        const img = face
          ? sprite("face" + c.sym + ":" + cw, size, size, scale, (cg) => { cg.translate(m + cw / 2, m + cw / 2); paintFace(cg, api, c.sym, cw); })
          : sprite("back:" + cw + pal.accent, size, size, scale, (cg) => { cg.translate(m + cw / 2, m + cw / 2); paintBack(cg, api, cw); });
        g.save();
        g.translate(cx, cy); g.scale(Math.max(0.02, k), 1);
        g.imageSmoothingEnabled = k < 0.999;     // mid-flip cards are squeezed
        g.drawImage(img, -size / 2, -size / 2, size, size);
        g.imageSmoothingEnabled = false;
        if (face && c.state === "done") {
          api.roundRect(g, -cw / 2, -cw / 2, cw, cw, cw * 0.14);
          g.lineWidth = 4; g.strokeStyle = api.alpha(pal.accent, 0.5 + 0.5 * c.glow); g.stroke();
          g.globalAlpha = 0.25 * (1 - c.glow); g.fillStyle = "#fff"; g.fill();
        }
        g.restore();
        if (s.keys && i === s.cur) {
          g.strokeStyle = pal.accent2; g.lineWidth = 3; g.setLineDash([7, 5]);
          api.roundRect(g, c.x - 5, c.y - 5, cw + 10, cw + 10, cw * 0.18); g.stroke(); g.setLineDash([]);
        }
      }
      for (const f of s.floats) {
        g.globalAlpha = 1 - f.t;
        api.text(g, f.text, f.x + 2, f.y - 40 * f.t + 2, 28, "rgba(0,0,0,0.8)", "center");
        api.text(g, f.text, f.x, f.y - 40 * f.t, 28, pal.accent2, "center");
      }
      g.globalAlpha = 1;
      if (s.banner > 0) {
        g.fillStyle = "rgba(0,0,0,0.55)"; g.fillRect(0, H / 2 - 36, W, 72);
        api.text(g, "Level " + api.level, W / 2, H / 2, 36, pal.accent2, "center");
      }
      g.imageSmoothingEnabled = true;
    },

    hook(s) {
      const at = (i) => ({ type: "click", x: +((s.cards[i].x + s.cw / 2) / W).toFixed(4), y: +((s.cards[i].y + s.cw / 2) / H).toFixed(4) });
      let hint = [];
      if (s.redeal <= 0 && s.wait <= 0) {
        if (s.open.length === 1) {
          const a = s.open[0], b = s.cards.findIndex((c, j) => j !== a && c.sym === s.cards[a].sym);
          if (b >= 0) hint = [at(b)];
        } else {
          const a = s.cards.findIndex((c) => c.state === "down");
          const b = a < 0 ? -1 : s.cards.findIndex((c, j) => j !== a && c.sym === s.cards[a].sym);
          if (b >= 0) hint = [at(a), at(b)];
        }
      }
      return {
        hint, pairs: s.pairs, pairsLeft: s.pairsLeft, mistakes: s.mistakes, streak: s.streak, flips: s.flips,
        flipped: s.open.length, grid: s.n, cursor: s.cur,
        // where the top-left card is and how far apart cards are, in canvas fractions
        cells: s.cards.length ? { x: +((s.cards[0].x + s.cw / 2) / W).toFixed(4), y: +((s.cards[0].y + s.cw / 2) / H).toFixed(4), dx: +((s.cw + 10) / W).toFixed(4), dy: +((s.cw + 10) / H).toFixed(4) } : null,
      };
    },
  });
})();
