// Slingshot: pull the bird back in the sling and let go; knock down the towers and pop every target.
// Mouse/touch: drag back from the sling and release (or click where to throw). Keyboard: Up/Down aim,
// Left/Right power, Space fires.
(function () {
  "use strict";

  const W = 720, H = 480;
  const GROUND = 432, SLING = { x: 118, y: 348 };
  const G = 620, VMAX = 760, MAX_DRAG = 96, GRAB = 56, AIM_RANGE = 250, BIRD_R = 14, BIRD_M = 8;
  const MAT = {
    wood: { d: 0.5, hp: 1.0, pts: 50, c: "#c98e4f" },
    glass: { d: 0.3, hp: 0.45, pts: 30, c: "#9fd8ef" },
    stone: { d: 1.2, hp: 2.2, pts: 80, c: "#9aa3ad" },
    target: { d: 0.5, hp: 0.3, pts: 500, c: "#78c850" },
  };

  function box(x, y, w, h, mat) {
    return { x, y, hw: w / 2, hh: h / 2, vx: 0, vy: 0, mat, hp: MAT[mat].hp, m: (w * h / 100) * MAT[mat].d, hit: 0, dead: false };
  }

  // Level L: towers of pillars and planks, a target inside each and (from level 2) one on top.
  function buildLevel(s, api) {
    const L = api.level;
    const towers = Math.min(3, 1 + Math.floor(L / 2));
    const storeys = Math.min(3, 1 + Math.floor((L + api.randInt(2)) / 2));
    s.bodies = [];
    const span = 250 / towers;
    for (let t = 0; t < towers; t++) {
      const cx = 470 + t * span + api.randInt(20) - 10 + (towers === 1 ? 60 : 0);
      const mats = ["wood", L > 2 && api.rng() < 0.4 ? "stone" : "wood", api.rng() < 0.5 ? "glass" : "wood"];
      let base = GROUND;
      const storeysHere = Math.max(1, storeys - (t === 0 && towers > 1 ? 1 : 0));
      for (let k = 0; k < storeysHere; k++) {
        const mat = mats[k % mats.length], ph = 62, pw = 14, plank = 92;
        s.bodies.push(box(cx - 36, base - ph / 2, pw, ph, mat));
        s.bodies.push(box(cx + 36, base - ph / 2, pw, ph, mat));
        if (k === 0) s.bodies.push(box(cx, base - 16, 32, 32, "target"));
        s.bodies.push(box(cx, base - ph - 7, plank, 14, k === storeysHere - 1 ? "wood" : mats[(k + 1) % 3]));
        base -= ph + 14;
      }
      if (L >= 2) s.bodies.push(box(cx, base - 16, 32, 32, "target"));
    }
    s.shots = s.shotsPerLevel; s.bird = null; s.mode = "ready"; s.wait = 0; s.drag = null;
  }

  function targetsLeft(s) { return s.bodies.filter((b) => b.mat === "target" && !b.dead).length; }

  function launch(s, api, vx, vy) {
    if (s.mode !== "ready" || s.shots <= 0) return;
    s.shots--; s.fired++;
    s.bird = { x: SLING.x, y: SLING.y, vx, vy, t: 0, still: 0, trail: [] };
    s.mode = "flying"; s.drag = null;
    api.beep(300);
  }

  function fromAim(angleDeg, power) {
    const a = angleDeg * Math.PI / 180;
    return [Math.cos(a) * power * VMAX, -Math.sin(a) * power * VMAX];
  }

  function damage(s, api, b, amount) {
    if (b.dead || amount <= 0) return;
    b.hp -= amount; b.hit = 0.25;
    if (b.hp > 0) return;
    b.dead = true;
    const m = MAT[b.mat];
    api.addScore(m.pts);
    api.popup("+" + m.pts, b.x, b.y - b.hh - 8, b.mat === "target" ? api.pal.accent2 : api.pal.text);
    api.burst(b.x, b.y, b.mat === "target" ? m.c : m.c, b.mat === "target" ? 26 : 12);
    if (b.mat === "target") { s.popped++; api.beep(880); }
  }

  function step(s, api, h) {
    const live = s.bodies.filter((b) => !b.dead);
    for (const b of live) { b.vy += G * h; b.x += b.vx * h; b.y += b.vy * h; }
    for (let it = 0; it < 3; it++) {
      for (const b of live) {
        if (b.y + b.hh > GROUND) {
          const impact = b.vy;
          b.y = GROUND - b.hh;
          if (b.vy > 0) b.vy = impact > 60 ? -impact * 0.15 : 0;
          b.vx *= 0.9;
          if (it === 0 && impact > 230) damage(s, api, b, (impact - 230) / 260);
        }
      }
      for (let i = 0; i < live.length; i++) for (let j = i + 1; j < live.length; j++) {
        const a = live[i], b = live[j];
        if (a.dead || b.dead) continue;
        const dx = b.x - a.x, dy = b.y - a.y;
        const ox = a.hw + b.hw - Math.abs(dx), oy = a.hh + b.hh - Math.abs(dy);
        if (ox <= 0 || oy <= 0) continue;
        const ia = 1 / a.m, ib = 1 / b.m, k = ia + ib;
        if (oy < ox) {
          const sgn = dy > 0 ? 1 : -1;
          a.y -= sgn * oy * ia / k; b.y += sgn * oy * ib / k;
          const rel = (a.vy - b.vy) * sgn;
          if (rel > 0) {
            const v = (a.m * a.vy + b.m * b.vy) / (a.m + b.m);
            a.vy = v; b.vy = v;
            const fx = (a.vx - b.vx) * 0.25;
            a.vx -= fx * ia / k * 2; b.vx += fx * ib / k * 2;
            if (it === 0 && rel > 150) { damage(s, api, a, (rel - 150) / 300); damage(s, api, b, (rel - 150) / 300); }
          }
        } else {
          const sgn = dx > 0 ? 1 : -1;
          a.x -= sgn * ox * ia / k; b.x += sgn * ox * ib / k;
          const rel = (a.vx - b.vx) * sgn;
          if (rel > 0) {
            const v = (a.m * a.vx + b.m * b.vx) / (a.m + b.m);
            a.vx = v; b.vx = v;
            if (it === 0 && rel > 150) { damage(s, api, a, (rel - 150) / 300); damage(s, api, b, (rel - 150) / 300); }
          }
        }
      }
    }
    for (const b of live) {
      if (Math.abs(b.vx) < 4) b.vx = 0;
      if (b.x < -60 || b.x > W + 60 || b.y > H + 60) damage(s, api, b, 99);   // off the field
    }
    const bird = s.bird;
    if (!bird || s.mode !== "flying") return;
    bird.vy += G * h; bird.x += bird.vx * h; bird.y += bird.vy * h;
    if (bird.y + BIRD_R > GROUND) {
      bird.y = GROUND - BIRD_R;
      if (bird.vy > 0) bird.vy = bird.vy > 80 ? -bird.vy * 0.35 : 0;
      bird.vx *= 0.94;
    }
    for (const b of live) {
      if (b.dead) continue;
      const px = api.clamp(bird.x, b.x - b.hw, b.x + b.hw), py = api.clamp(bird.y, b.y - b.hh, b.y + b.hh);
      let nx = bird.x - px, ny = bird.y - py, d = Math.hypot(nx, ny);
      if (d >= BIRD_R) continue;
      if (d < 1e-6) { nx = bird.x < b.x ? -1 : 1; ny = 0; d = 0; } else { nx /= d; ny /= d; }
      bird.x += nx * (BIRD_R - d); bird.y += ny * (BIRD_R - d);
      const vn = (bird.vx - b.vx) * nx + (bird.vy - b.vy) * ny;
      if (vn >= 0) continue;
      const J = -(1.25) * vn / (1 / BIRD_M + 1 / b.m);
      bird.vx += J / BIRD_M * nx; bird.vy += J / BIRD_M * ny;
      b.vx -= J / b.m * nx; b.vy -= J / b.m * ny;
      damage(s, api, b, -vn / 480);
    }
  }

  function settled(s) {
    return s.bodies.every((b) => b.dead || (Math.abs(b.vx) < 12 && Math.abs(b.vy) < 25));
  }

  function afterShot(s, api) {
    if (targetsLeft(s) === 0) {
      const bonus = 1000 * s.shots;
      if (bonus) { api.addScore(bonus); api.popup("Birds left +" + bonus, W / 2, H / 2 - 60, api.pal.accent2); }
      if (api.phase !== "playing") return;
      s.cleared++;
      if (api.cfg.levels) {
        api.setLevel(api.level + 1);
        if (api.phase !== "playing") return;
      } else api.setLevel(api.level + 1);
      s.banner = 1.4; buildLevel(s, api);
      return;
    }
    if (s.shots > 0) { s.mode = "ready"; s.bird = null; return; }
    // out of birds with targets standing
    if (api.loseLife()) { s.banner = 1.4; s.retry = true; buildLevel(s, api); }
  }

  // The throw a careful player would try: the flattest arc that reaches a target without a block in the way.
  function plan(s) {
    const targets = s.bodies.filter((b) => b.mat === "target" && !b.dead).sort((a, b) => a.x - b.x);
    let best = null;
    for (const t of targets) {
      const dx = t.x - SLING.x, up = SLING.y - t.y;
      for (let deg = 12; deg <= 78; deg += 3) {
        const a = deg * Math.PI / 180, c = Math.cos(a), tn = Math.tan(a);
        const den = 2 * c * c * (dx * tn - up);
        if (den <= 0) continue;
        const v = Math.sqrt(G * dx * dx / den);
        if (v > VMAX * 0.98) continue;
        let blocked = 0;
        for (let x = SLING.x + 10; x < t.x - t.hw - BIRD_R; x += 8) {
          const tt = (x - SLING.x) / (v * c), y = SLING.y - v * Math.sin(a) * tt + 0.5 * G * tt * tt;
          for (const b of s.bodies) {
            if (b.dead || b === t) continue;
            if (Math.abs(x - b.x) < b.hw + BIRD_R * 0.6 && Math.abs(y - b.y) < b.hh + BIRD_R * 0.6) blocked += b.mat === "target" ? 0 : MAT[b.mat].hp;
          }
        }
        const cost = blocked * 10 + deg / 100;
        if (!best || cost < best.cost) best = { deg, power: v / VMAX, cost };
      }
      if (best && best.cost < 1) break;
    }
    return best;
  }

  function drawBird(g, api, x, y, r, angle) {
    g.save(); g.translate(x, y); g.rotate(angle || 0);
    g.fillStyle = api.pal.danger; g.beginPath(); g.arc(0, 0, r, 0, Math.PI * 2); g.fill();
    g.fillStyle = api.mix(api.pal.danger, "#ffffff", 0.55); g.beginPath(); g.arc(-r * 0.1, r * 0.35, r * 0.55, 0, Math.PI); g.fill();
    g.fillStyle = "#fff"; g.beginPath(); g.arc(r * 0.3, -r * 0.25, r * 0.3, 0, Math.PI * 2); g.fill();
    g.fillStyle = "#111"; g.beginPath(); g.arc(r * 0.38, -r * 0.25, r * 0.14, 0, Math.PI * 2); g.fill();
    g.strokeStyle = "#111"; g.lineWidth = 2.5; g.beginPath(); g.moveTo(r * 0.05, -r * 0.62); g.lineTo(r * 0.6, -r * 0.45); g.stroke();
    g.fillStyle = api.pal.accent2; g.beginPath(); g.moveTo(r * 0.7, -r * 0.05); g.lineTo(r * 1.35, r * 0.12); g.lineTo(r * 0.7, r * 0.32); g.closePath(); g.fill();
    g.restore();
  }

  // A target is a green pig: a round body, a snout with two nostrils, two eyes.
  function drawTarget(g, api, b) {
    const r = b.hw;
    const body = api.mix(MAT.target.c, api.pal.accent, 0.25);
    g.fillStyle = b.hit > 0 ? "#ffffff" : body; g.beginPath(); g.arc(b.x, b.y, r, 0, Math.PI * 2); g.fill();
    g.strokeStyle = api.shade(MAT.target.c, -70); g.lineWidth = 2; g.stroke();
    g.fillStyle = api.mix(body, "#ffffff", 0.35); g.beginPath(); g.ellipse(b.x, b.y + r * 0.15, r * 0.42, r * 0.3, 0, 0, Math.PI * 2); g.fill();
    g.fillStyle = api.shade(MAT.target.c, -80);
    g.beginPath(); g.arc(b.x - r * 0.15, b.y + r * 0.15, r * 0.09, 0, Math.PI * 2); g.arc(b.x + r * 0.15, b.y + r * 0.15, r * 0.09, 0, Math.PI * 2); g.fill();
    for (const sx of [-1, 1]) {
      g.fillStyle = "#fff"; g.beginPath(); g.arc(b.x + sx * r * 0.42, b.y - r * 0.35, r * 0.22, 0, Math.PI * 2); g.fill();
      g.fillStyle = "#111"; g.beginPath(); g.arc(b.x + sx * r * 0.42, b.y - r * 0.33, r * 0.1, 0, Math.PI * 2); g.fill();
    }
  }

  function drawBlock(g, api, b) {
    const m = MAT[b.mat], x = b.x - b.hw, y = b.y - b.hh, w = b.hw * 2, h = b.hh * 2;
    const worn = Math.max(0, 1 - b.hp / m.hp);
    g.fillStyle = b.hit > 0 ? "#ffffff" : (b.mat === "glass" ? api.alpha(m.c, 0.75) : m.c);
    api.roundRect(g, x, y, w, h, 3); g.fill();
    g.strokeStyle = api.shade(m.c, -80); g.lineWidth = 1.5; g.stroke();
    if (b.mat === "wood") {
      g.strokeStyle = api.alpha("#5a3413", 0.35); g.lineWidth = 1;
      g.beginPath();
      if (w > h) { g.moveTo(x + 4, y + h / 2); g.lineTo(x + w - 4, y + h / 2); } else { g.moveTo(x + w / 2, y + 4); g.lineTo(x + w / 2, y + h - 4); }
      g.stroke();
    } else if (b.mat === "glass") {
      g.strokeStyle = "rgba(255,255,255,0.7)"; g.lineWidth = 1.5;
      g.beginPath(); g.moveTo(x + 3, y + Math.min(h, w) * 0.8); g.lineTo(x + Math.min(h, w) * 0.8, y + 3); g.stroke();
    }
    if (worn > 0.2) {
      g.strokeStyle = "rgba(20,10,0,0.6)"; g.lineWidth = 1.5;
      g.beginPath(); g.moveTo(b.x - w * 0.3, b.y - h * 0.3); g.lineTo(b.x + w * 0.05, b.y); g.lineTo(b.x - w * 0.1, b.y + h * 0.3); g.stroke();
    }
  }

  function aimVector(s) {
    if (s.drag) {
      const dx = SLING.x - s.drag.x, dy = SLING.y - s.drag.y, d = Math.hypot(dx, dy);
      if (d < 8) return null;
      const p = Math.min(1, d / MAX_DRAG);
      return [dx / d * p * VMAX, dy / d * p * VMAX];
    }
    return fromAim(s.angle, s.power);
  }

  CrumbGame.register({
    genre: "slingshot",
    size: [W, H],
    controls: "Drag back from the sling and let go · or click where to throw · Arrows aim, Space fires",

    init(api) {
      const shots = Math.max(1, Math.min(20, (api.cfg && api.cfg.moves) || 4));
      const s = { shotsPerLevel: shots, angle: 38, power: 0.78, bodies: [], fired: 0, popped: 0, cleared: 0, banner: 0,
        clock: 0, usedKeys: false, retry: false };
      buildLevel(s, api);
      return s;
    },

    update(s, dt, input, api) {
      s.clock += dt;
      if (s.banner > 0) s.banner -= dt;
      for (const b of s.bodies) if (b.hit > 0) b.hit -= dt;
      const ready = s.mode === "ready";
      // keyboard aim
      for (const key of input.pressed) {
        if (key === "ArrowUp" || key === "w") { s.angle = Math.min(80, s.angle + 3); s.usedKeys = true; }
        else if (key === "ArrowDown" || key === "s") { s.angle = Math.max(5, s.angle - 3); s.usedKeys = true; }
        else if (key === "ArrowRight" || key === "d") { s.power = Math.min(1, s.power + 0.04); s.usedKeys = true; }
        else if (key === "ArrowLeft" || key === "a") { s.power = Math.max(0.2, s.power - 0.04); s.usedKeys = true; }
        else if ((key === " " || key === "Enter") && ready) { const v = fromAim(s.angle, s.power); launch(s, api, v[0], v[1]); }
      }
      if (input.held.has("ArrowUp")) s.angle = Math.min(80, s.angle + 40 * dt);
      if (input.held.has("ArrowDown")) s.angle = Math.max(5, s.angle - 40 * dt);
      if (input.held.has("ArrowRight")) s.power = Math.min(1, s.power + 0.5 * dt);
      if (input.held.has("ArrowLeft")) s.power = Math.max(0.2, s.power - 0.5 * dt);
      // pointer: grab the bird and pull, or click where to throw
      const p = input.pointer;
      if (s.mode === "ready") {
        if (p.down && !s.drag && Math.hypot(p.x - SLING.x, p.y - SLING.y) < GRAB) s.drag = { x: p.x, y: p.y };
        if (s.drag && p.down) { s.drag.x = p.x; s.drag.y = p.y; }
        if (s.drag && !p.down) {
          const v = aimVector(s);
          if (v) launch(s, api, v[0], v[1]); else s.drag = null;
        }
        for (const c of input.clicks) {
          const d = Math.hypot(c.x - SLING.x, c.y - SLING.y);
          if (d < GRAB || s.mode !== "ready") continue;
          const pw = Math.min(1, d / AIM_RANGE);
          launch(s, api, (c.x - SLING.x) / d * pw * VMAX, (c.y - SLING.y) / d * pw * VMAX);
        }
      }
      // physics, in small steps
      const n = Math.max(1, Math.ceil(dt / 0.008)), h = dt / n;
      for (let i = 0; i < n; i++) step(s, api, h);
      if (api.phase !== "playing") return;
      const bird = s.bird;
      if (s.mode === "flying" && bird) {
        bird.t += dt;
        if (bird.trail.length === 0 || Math.hypot(bird.x - bird.trail[bird.trail.length - 1][0], bird.y - bird.trail[bird.trail.length - 1][1]) > 18) bird.trail.push([bird.x, bird.y]);
        const slow = Math.hypot(bird.vx, bird.vy) < 30;
        bird.still = slow ? bird.still + dt : 0;
        if (bird.still > 0.4 || bird.x > W + 40 || bird.x < -40 || bird.t > 6) { s.mode = "settling"; s.wait = 0; }
      }
      if (s.mode === "settling") {
        s.wait += dt;
        if ((s.wait > 0.5 && settled(s)) || s.wait > 3) afterShot(s, api);
      }
    },

    draw(g, s, api) {
      const pal = api.pal;
      const bg = api.cache("sling-bg" + pal.bg + pal.accent, (cg) => {
        const sky = cg.createLinearGradient(0, 0, 0, GROUND);
        sky.addColorStop(0, api.mix(pal.bg, "#000000", 0.2)); sky.addColorStop(1, api.mix(pal.bg, pal.fg, 0.35));
        cg.fillStyle = sky; cg.fillRect(0, 0, W, GROUND);
        cg.fillStyle = api.alpha(pal.fg, 0.12);
        for (const [cx, cy, r] of [[160, 110, 34], [200, 100, 44], [245, 112, 30], [520, 80, 28], [556, 70, 38], [590, 84, 26]]) {
          cg.beginPath(); cg.arc(cx, cy, r, 0, Math.PI * 2); cg.fill();
        }
        cg.fillStyle = api.mix(pal.bg, pal.accent, 0.3);
        cg.beginPath(); cg.moveTo(0, GROUND);
        for (let x = 0; x <= W; x += 20) cg.lineTo(x, GROUND - 40 - 28 * Math.sin(x / 90) - 16 * Math.sin(x / 37));
        cg.lineTo(W, GROUND); cg.closePath(); cg.fill();
        const gr = cg.createLinearGradient(0, GROUND, 0, H);
        gr.addColorStop(0, api.mix(pal.accent, "#3a7d2c", 0.5)); gr.addColorStop(1, api.mix(pal.bg, "#1c2a12", 0.5));
        cg.fillStyle = gr; cg.fillRect(0, GROUND, W, H - GROUND);
        cg.fillStyle = api.alpha("#ffffff", 0.18); cg.fillRect(0, GROUND, W, 3);
        // the sling's back arm
        cg.strokeStyle = "#6b4423"; cg.lineWidth = 11; cg.lineCap = "round";
        cg.beginPath(); cg.moveTo(SLING.x + 4, GROUND); cg.lineTo(SLING.x + 4, SLING.y + 30); cg.lineTo(SLING.x + 16, SLING.y - 6); cg.stroke();
      });
      g.drawImage(bg, 0, 0, W, H);
      // trajectory preview
      const ready = s.mode === "ready" && s.shots > 0;
      const v = ready ? aimVector(s) : null;
      if (v && (s.drag || s.usedKeys)) {
        g.fillStyle = api.alpha(pal.text, 0.7);
        for (let i = 1; i < 16; i++) {
          const t = i * 0.06, x = SLING.x + v[0] * t, y = SLING.y + v[1] * t + 0.5 * G * t * t;
          g.beginPath(); g.arc(x, y, 3.2 - i * 0.12, 0, Math.PI * 2); g.fill();
        }
      }
      // last shot's trail
      if (s.bird) { g.fillStyle = api.alpha(pal.text, 0.45); for (const [x, y] of s.bird.trail) { g.beginPath(); g.arc(x, y, 2.5, 0, Math.PI * 2); g.fill(); } }
      for (const b of s.bodies) if (!b.dead) { if (b.mat === "target") drawTarget(g, api, b); else drawBlock(g, api, b); }
      // the sling: bands, the bird in the pouch, the front arm
      const pouch = s.drag ? { x: SLING.x + Math.max(-MAX_DRAG, Math.min(MAX_DRAG, s.drag.x - SLING.x)), y: SLING.y + Math.max(-MAX_DRAG, Math.min(MAX_DRAG, s.drag.y - SLING.y)) } : SLING;
      if (ready) {
        g.strokeStyle = "#3b2313"; g.lineWidth = 5;
        g.beginPath(); g.moveTo(SLING.x + 16, SLING.y - 6); g.lineTo(pouch.x, pouch.y); g.stroke();
        drawBird(g, api, pouch.x, pouch.y, BIRD_R, v ? Math.atan2(v[1], v[0]) : 0);
        g.strokeStyle = "#3b2313"; g.lineWidth = 5;
        g.beginPath(); g.moveTo(pouch.x, pouch.y); g.lineTo(SLING.x - 14, SLING.y - 4); g.stroke();
      }
      g.strokeStyle = "#8b5a2b"; g.lineWidth = 11; g.lineCap = "round";
      g.beginPath(); g.moveTo(SLING.x - 4, GROUND); g.lineTo(SLING.x - 4, SLING.y + 30); g.lineTo(SLING.x - 16, SLING.y - 6); g.stroke();
      if (s.bird && s.mode !== "ready") drawBird(g, api, s.bird.x, s.bird.y, BIRD_R, Math.atan2(s.bird.vy, s.bird.vx));
      // birds waiting
      const waiting = s.shots - (ready ? 1 : 0);
      for (let i = 0; i < waiting; i++) drawBird(g, api, SLING.x - 40 - i * 26, GROUND - 11, 10, 0);
      // status
      api.text(g, "Targets " + targetsLeft(s), W - 16, api.top + 20, 17, pal.text, "right");
      api.text(g, "Birds " + s.shots, 16, api.top + 20, 17, pal.text, "left");
      if (s.usedKeys && ready) api.text(g, Math.round(s.angle) + "°  " + Math.round(s.power * 100) + "%", SLING.x, SLING.y - 52, 14, pal.fg, "center");
      if (s.banner > 0) {
        g.fillStyle = "rgba(0,0,0,0.5)"; g.fillRect(0, H / 2 - 34, W, 68);
        api.text(g, (s.retry ? "Try again · " : "") + "Level " + api.level, W / 2, H / 2, 32, pal.accent2, "center");
      } else s.retry = false;
    },

    hook(s, api) {
      let hint = [];
      if (s.mode === "ready" && s.shots > 0 && !s.drag) {
        const best = plan(s);
        if (best) {
          const a = best.deg * Math.PI / 180, d = Math.max(GRAB + 10, best.power * AIM_RANGE);
          hint = [{ type: "click", x: +((SLING.x + Math.cos(a) * d) / W).toFixed(4), y: +((SLING.y - Math.sin(a) * d) / H).toFixed(4) }];
        }
      }
      const alive = s.bodies.filter((b) => !b.dead);
      return {
        hint, movesLeft: s.shots, shotsPerLevel: s.shotsPerLevel, shots: s.fired, targetsLeft: targetsLeft(s),
        popped: s.popped, blocksLeft: alive.filter((b) => b.mat !== "target").length, cleared: s.cleared, mode: s.mode,
        aim: { angle: Math.round(s.angle), power: +s.power.toFixed(2) },
        bird: s.bird && s.mode !== "ready" ? { x: +(s.bird.x / W).toFixed(4), y: +(s.bird.y / H).toFixed(4) } : null,
        sling: { x: +(SLING.x / W).toFixed(4), y: +(SLING.y / H).toFixed(4) },
        targets: alive.filter((b) => b.mat === "target").map((b) => ({ x: +(b.x / W).toFixed(4), y: +(b.y / H).toFixed(4) })),
      };
    },
  });
})();
