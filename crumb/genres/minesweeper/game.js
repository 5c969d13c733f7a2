// Minesweeper: reveal every safe cell; a number counts the mines around it; flag the mines.
// Mouse: click reveals, right-click flags (or switch the Dig/Flag button). Touch: tap, with the button.
// Keyboard: arrows move the cursor, Space/Enter reveals, F flags.
(function () {
  "use strict";

  const W = 480, H = 640;
  const NUM = ["", "#5ad1ff", "#7ee081", "#ff7b7b", "#c39bff", "#ffb347", "#4dd0c8", "#f5f7fb", "#aab4d4"];
  const AROUND = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
  const BTN_H = 44;

  // Right-clicks flag: the runtime hands us every click; this notes which ones came from button 2.
  let rightClicks = [];
  function listenRight(api) {
    const canvas = document.getElementById("game");
    if (!canvas || canvas.__mineRight) return;
    canvas.__mineRight = true;
    window.addEventListener("pointerdown", (e) => {
      if (e.button !== 2 || api.phase !== "playing") return;
      const r = canvas.getBoundingClientRect();
      rightClicks.push({ x: (e.clientX - r.left) / (r.width || 1) * W, y: (e.clientY - r.top) / (r.height || 1) * H });
    }, true);
  }

  function minesFor(n, level) {
    const density = Math.min(0.24, 0.13 + 0.025 * (level - 1));
    return Math.max(3, Math.min(n * n - 9, Math.round(n * n * density)));
  }

  function layout(s, api) {
    const top = api.top + 48, bottom = H - BTN_H - 24;
    const cw = Math.floor(Math.min(W - 24, bottom - top) / s.n);
    const span = cw * s.n;
    s.cw = cw; s.ox = Math.round((W - span) / 2); s.oy = Math.round(top + (bottom - top - span) / 2);
    s.btn = { x: W / 2 - 110, y: H - BTN_H - 12, w: 220, h: BTN_H };
  }

  function deal(s, api) {
    const n = s.n;
    s.cells = [];
    for (let i = 0; i < n * n; i++) s.cells.push({ mine: false, open: false, flag: false, boom: false, near: 0, pop: 0 });
    s.mines = minesFor(n, api.level); s.placed = false; s.opened = 0; s.flags = 0; s.booms = 0;
    s.safeLeft = n * n - s.mines;
    s.cur = [Math.floor(n / 2), Math.floor(n / 2)];
    layout(s, api);
  }

  // Mines go down at the first reveal, never on that cell or its neighbours: the first click is safe.
  function place(s, api, r0, c0) {
    const n = s.n, free = [];
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      if (Math.abs(r - r0) <= 1 && Math.abs(c - c0) <= 1) continue;
      free.push(r * n + c);
    }
    for (let k = 0; k < s.mines; k++) {
      const j = k + api.randInt(free.length - k);
      [free[k], free[j]] = [free[j], free[k]];
      s.cells[free[k]].mine = true;
    }
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      let m = 0;
      for (const [dr, dc] of AROUND) { const q = cell(s, r + dr, c + dc); if (q && q.mine) m++; }
      s.cells[r * n + c].near = m;
    }
    s.placed = true;
  }

  function cell(s, r, c) { return r >= 0 && c >= 0 && r < s.n && c < s.n ? s.cells[r * s.n + c] : null; }

  function reveal(s, api, r, c) {
    const first = cell(s, r, c);
    if (!first || first.open || first.flag || s.redeal > 0) return;
    if (!s.placed) place(s, api, r, c);
    if (first.mine) {
      first.open = true; first.boom = true; s.booms++; s.shake = 0.35;
      api.burst(s.ox + (c + 0.5) * s.cw, s.oy + (r + 0.5) * s.cw, api.pal.danger, 28);
      api.beep(110);
      api.loseLife();
      return;
    }
    // flood: a zero opens its neighbours, and theirs, in one move
    const stack = [[r, c]];
    let gained = 0;
    while (stack.length) {
      const [rr, cc] = stack.pop();
      const q = cell(s, rr, cc);
      if (!q || q.open || q.flag || q.mine) continue;
      q.open = true; q.pop = 1; s.opened++; s.safeLeft--; gained++;
      if (q.near === 0) for (const [dr, dc] of AROUND) stack.push([rr + dr, cc + dc]);
    }
    if (gained) {
      api.addScore(gained * 10);
      api.popup("+" + gained * 10, s.ox + (c + 0.5) * s.cw, s.oy + (r + 0.2) * s.cw, api.pal.accent2);
      api.beep(520 + Math.min(gained, 20) * 12);
    }
    if (s.safeLeft === 0 && api.phase === "playing") cleared(s, api);
  }

  function toggleFlag(s, r, c) {
    const q = cell(s, r, c);
    if (!q || q.open || s.redeal > 0) return;
    q.flag = !q.flag; s.flags += q.flag ? 1 : -1; q.pop = 1;
  }

  function cleared(s, api) {
    for (const q of s.cells) if (q.mine && !q.open && !q.flag) { q.flag = true; s.flags++; }
    const bonus = 50 * s.mines;
    api.addScore(bonus);
    api.popup("Cleared! +" + bonus, W / 2, H / 2, api.pal.accent2);
    api.burst(W / 2, H / 2, api.pal.accent, 30);
    if (api.phase !== "playing") return;
    if (api.cfg.levels) {
      api.setLevel(api.level + 1);
      if (api.phase === "playing") { s.banner = 1.4; s.redeal = 1.1; }
    } else {
      api.win();
    }
  }

  function at(s, x, y) {
    const c = Math.floor((x - s.ox) / s.cw), r = Math.floor((y - s.oy) / s.cw);
    return r >= 0 && c >= 0 && r < s.n && c < s.n ? [r, c] : null;
  }

  function onButton(s, x, y) { const b = s.btn; return x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h; }

  function drawMine(g, x, y, r, color) {
    g.strokeStyle = color; g.lineWidth = Math.max(2, r * 0.22); g.lineCap = "round";
    for (let k = 0; k < 4; k++) {
      const a = k * Math.PI / 4;
      g.beginPath(); g.moveTo(x - Math.cos(a) * r * 1.3, y - Math.sin(a) * r * 1.3);
      g.lineTo(x + Math.cos(a) * r * 1.3, y + Math.sin(a) * r * 1.3); g.stroke();
    }
    g.fillStyle = color; g.beginPath(); g.arc(x, y, r, 0, Math.PI * 2); g.fill();
    g.fillStyle = "rgba(255,255,255,0.75)"; g.beginPath(); g.arc(x - r * 0.35, y - r * 0.35, r * 0.28, 0, Math.PI * 2); g.fill();
  }

  function drawFlag(g, x, y, r, color, pole) {
    g.strokeStyle = pole; g.lineWidth = Math.max(2, r * 0.16); g.lineCap = "round";
    g.beginPath(); g.moveTo(x - r * 0.45, y - r * 0.9); g.lineTo(x - r * 0.45, y + r * 0.9); g.stroke();
    g.fillStyle = color; g.beginPath();
    g.moveTo(x - r * 0.4, y - r * 0.9); g.lineTo(x + r * 0.75, y - r * 0.45); g.lineTo(x - r * 0.4, y); g.closePath(); g.fill();
    g.fillStyle = pole; g.fillRect(x - r * 0.8, y + r * 0.8, r * 0.9, r * 0.2);
  }

  CrumbGame.register({
    genre: "minesweeper",
    size: [W, H],
    controls: "Click: dig · Right-click: flag · Arrows, Space, F",

    init(api) {
      listenRight(api); rightClicks = [];
      const n = Math.max(5, Math.min(14, (api.cfg && api.cfg.grid) || 9));
      const s = { n, flagMode: false, keys: false, banner: 0, redeal: 0, shake: 0, clock: 0, reveals: 0 };
      deal(s, api);
      return s;
    },

    update(s, dt, input, api) {
      s.clock += dt;
      if (s.shake > 0) s.shake = Math.max(0, s.shake - dt);
      if (s.banner > 0) s.banner -= dt;
      if (s.redeal > 0) { s.redeal -= dt; if (s.redeal <= 0) deal(s, api); }
      for (const q of s.cells) if (q.pop > 0) q.pop = Math.max(0, q.pop - dt * 4);
      const rights = rightClicks; rightClicks = [];
      for (const key of input.pressed) {
        const d = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0],
          a: [0, -1], d: [0, 1], w: [-1, 0], s: [1, 0] }[key];
        if (d) {
          s.keys = true;
          s.cur = [api.clamp(s.cur[0] + d[0], 0, s.n - 1), api.clamp(s.cur[1] + d[1], 0, s.n - 1)];
        } else if (key === " " || key === "Enter") {
          s.keys = true; s.reveals++;
          if (s.flagMode) toggleFlag(s, s.cur[0], s.cur[1]); else reveal(s, api, s.cur[0], s.cur[1]);
        } else if (key === "f" || key === "F") {
          s.keys = true; toggleFlag(s, s.cur[0], s.cur[1]);
        } else if (key === "Tab" || key === "m" || key === "M") {
          s.flagMode = !s.flagMode;
        }
        if (api.phase !== "playing") return;
      }
      for (const c of input.clicks) {
        if (onButton(s, c.x, c.y)) { s.flagMode = !s.flagMode; continue; }
        const rc = at(s, c.x, c.y);
        if (!rc) continue;
        s.keys = false; s.cur = rc;
        const right = rights.some((p) => Math.abs(p.x - c.x) < 1 && Math.abs(p.y - c.y) < 1);
        if (right || s.flagMode) toggleFlag(s, rc[0], rc[1]);
        else { s.reveals++; reveal(s, api, rc[0], rc[1]); }
        if (api.phase !== "playing") return;
      }
    },

    draw(g, s, api) {
      const pal = api.pal, cw = s.cw, n = s.n;
      const bg = api.cache("mines-bg" + pal.bg, (cg) => {
        const gr = cg.createLinearGradient(0, 0, 0, H);
        gr.addColorStop(0, api.mix(pal.bg, "#ffffff", 0.06)); gr.addColorStop(1, api.mix(pal.bg, "#000000", 0.35));
        cg.fillStyle = gr; cg.fillRect(0, 0, W, H);
        cg.strokeStyle = api.alpha(pal.fg, 0.05); cg.lineWidth = 1;
        for (let y = 0; y < H; y += 24) { cg.beginPath(); cg.moveTo(0, y); cg.lineTo(W, y); cg.stroke(); }
      });
      g.drawImage(bg, 0, 0, W, H);
      // status line: mines left and revealed progress
      const left = s.mines - s.flags - s.booms;
      drawMine(g, 30, api.top + 24, 8, pal.danger);
      api.text(g, String(Math.max(0, left)), 48, api.top + 24, 20, pal.text, "left");
      api.text(g, (s.opened) + " / " + (n * n - s.mines) + " safe", W - 22, api.top + 24, 18, pal.fg, "right");
      const sx = s.shake > 0 ? Math.sin(s.shake * 70) * 6 : 0;
      g.save(); g.translate(sx, 0);
      // board frame
      g.fillStyle = api.alpha("#000000", 0.35);
      api.roundRect(g, s.ox - 8, s.oy - 8, cw * n + 16, cw * n + 16, 12); g.fill();
      const pad = Math.max(1, Math.round(cw * 0.05)), rad = Math.max(3, cw * 0.14);
      // Tiles are painted once into sprites: per-frame gradients on 81+ cells make a software canvas slow.
      const scale = CrumbGame.scaleOf(g);
      const tile = (kind) => CrumbGame.sprite("mine-" + kind + ":" + cw + pal.accent + pal.bg, cw, cw, scale, (cg) => {
        if (kind === "hidden" || kind === "flag") {
          const gr = cg.createLinearGradient(0, 0, 0, cw);
          gr.addColorStop(0, api.mix(pal.accent, "#ffffff", 0.18)); gr.addColorStop(1, api.shade(pal.accent, -70));
          cg.fillStyle = gr; api.roundRect(cg, pad, pad, cw - 2 * pad, cw - 2 * pad, rad); cg.fill();
          cg.fillStyle = "rgba(255,255,255,0.22)"; api.roundRect(cg, pad + 3, pad + 2, cw - 2 * pad - 6, (cw - 2 * pad) * 0.28, rad * 0.6); cg.fill();
          if (kind === "flag") drawFlag(cg, cw / 2, cw / 2, cw * 0.3, pal.danger, pal.text);
        } else {
          cg.fillStyle = kind === "boom" ? api.mix(pal.danger, pal.bg, 0.35) : api.mix(pal.bg, pal.fg, 0.16);
          api.roundRect(cg, pad, pad, cw - 2 * pad, cw - 2 * pad, rad * 0.6); cg.fill();
          if (kind === "boom") drawMine(cg, cw / 2, cw / 2, cw * 0.2, "#15171c");
          else if (kind > 0) api.text(cg, String(kind), cw / 2, cw / 2 + 1, Math.round(cw * 0.52), NUM[kind], "center");
        }
      });
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
        const q = s.cells[r * n + c], x = s.ox + c * cw, y = s.oy + r * cw;
        const img = tile(q.open ? (q.boom ? "boom" : q.near) : (q.flag ? "flag" : "hidden"));
        if (q.pop > 0 && !q.open) {
          const k = 1 + q.pop * 0.08, w = cw * k, o = (cw - w) / 2;
          g.drawImage(img, x + o, y + o, w, w);
        } else g.drawImage(img, x, y, cw, cw);
      }
      // mines of a finished round are shown
      if (api.phase === "over") for (let i = 0; i < s.cells.length; i++) {
        const q = s.cells[i];
        if (q.mine && !q.open && !q.flag) drawMine(g, s.ox + (i % n + 0.5) * cw, s.oy + (Math.floor(i / n) + 0.5) * cw, cw * 0.2, "#15171c");
      }
      if (s.keys) {
        g.strokeStyle = pal.accent2; g.lineWidth = 3;
        api.roundRect(g, s.ox + s.cur[1] * cw + 1, s.oy + s.cur[0] * cw + 1, cw - 2, cw - 2, rad); g.stroke();
      }
      g.restore();
      // dig / flag switch
      const b = s.btn, half = b.w / 2;
      g.fillStyle = api.alpha("#000000", 0.35); api.roundRect(g, b.x, b.y, b.w, b.h, b.h / 2); g.fill();
      g.fillStyle = s.flagMode ? pal.danger : pal.accent;
      api.roundRect(g, b.x + (s.flagMode ? half : 0) + 3, b.y + 3, half - 6, b.h - 6, (b.h - 6) / 2); g.fill();
      api.text(g, "Dig", b.x + half / 2 + 10, b.y + b.h / 2, 17, s.flagMode ? pal.fg : "#10131c", "center");
      // a shovel: handle and blade
      const ix = b.x + half / 2 - 18, iy = b.y + b.h / 2, ic = s.flagMode ? pal.fg : "#10131c";
      g.strokeStyle = ic; g.lineWidth = 2.5; g.lineCap = "round";
      g.beginPath(); g.moveTo(ix + 5, iy - 9); g.lineTo(ix - 1, iy + 3); g.stroke();
      g.fillStyle = ic; g.beginPath(); g.ellipse(ix - 3, iy + 6, 4, 6, 0.45, 0, Math.PI * 2); g.fill();
      drawFlag(g, b.x + half + 26, b.y + b.h / 2, 10, s.flagMode ? "#10131c" : pal.danger, s.flagMode ? "#10131c" : pal.fg);
      api.text(g, "Flag", b.x + half + half / 2 + 10, b.y + b.h / 2, 17, s.flagMode ? "#10131c" : pal.fg, "center");
      if (s.banner > 0) {
        g.fillStyle = "rgba(0,0,0,0.55)"; g.fillRect(0, H / 2 - 36, W, 72);
        api.text(g, "Level " + api.level + " · " + minesFor(s.n, api.level) + " mines", W / 2, H / 2, 32, pal.accent2, "center");
      }
    },

    hook(s, api) {
      const n = s.n, frac = (r, c) => ({ type: "click", x: +((s.ox + (c + 0.5) * s.cw) / W).toFixed(4), y: +((s.oy + (r + 0.5) * s.cw) / H).toFixed(4) });
      let hint = [];
      if (s.redeal <= 0) {
        if (s.flagMode) hint = [{ type: "click", x: +((s.btn.x + s.btn.w / 2) / W).toFixed(4), y: +((s.btn.y + s.btn.h / 2) / H).toFixed(4) }];
        else if (!s.placed) hint = [frac(Math.floor(n / 2), Math.floor(n / 2))];
        else {
          // the safe cell next to what is already open (what a careful player would deduce first)
          let best = -1, bestNear = -1;
          for (let i = 0; i < s.cells.length; i++) {
            const q = s.cells[i];
            if (q.open || q.mine || q.flag) continue;
            const r = Math.floor(i / n), c = i % n;
            let openNear = 0;
            for (const [dr, dc] of AROUND) { const o = cell(s, r + dr, c + dc); if (o && o.open && !o.boom) openNear++; }
            if (openNear > bestNear) { best = i; bestNear = openNear; }
          }
          if (best >= 0) hint = [frac(Math.floor(best / n), best % n)];
        }
      }
      const board = [], mineAt = [];
      for (let r = 0; r < n; r++) {
        let row = "";
        for (let c = 0; c < n; c++) {
          const q = s.cells[r * n + c];
          row += q.open ? (q.boom ? "*" : String(q.near)) : (q.flag ? "F" : "#");
          if (q.mine) mineAt.push([r, c]);
        }
        board.push(row);
      }
      return {
        hint, grid: n, mines: s.mines, minesLeft: s.mines - s.flags - s.booms, flags: s.flags, revealed: s.opened,
        safeLeft: s.safeLeft, exploded: s.booms, placed: s.placed, flagMode: s.flagMode, cursor: s.cur, board, mineAt,
        modeButton: { x: +((s.btn.x + s.btn.w / 2) / W).toFixed(4), y: +((s.btn.y + s.btn.h / 2) / H).toFixed(4) },
        cells: { x: +((s.ox + s.cw / 2) / W).toFixed(4), y: +((s.oy + s.cw / 2) / H).toFixed(4), dx: +(s.cw / W).toFixed(4), dy: +(s.cw / H).toFixed(4) },
      };
    },
  });
})();
