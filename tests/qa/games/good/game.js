// Catch: move the basket (ArrowLeft/ArrowRight or click a side) to catch falling stars; 20 s round.
(() => {
  const canvas = document.getElementById("game");
  const g = canvas.getContext("2d");
  const W = canvas.width, H = canvas.height, ROUND = 20;
  const seed = Number(new URLSearchParams(location.search).get("seed")) || 12345;
  let rnd = seed >>> 0;
  const random = () => ((rnd = (rnd * 1664525 + 1013904223) >>> 0) / 4294967296);
  let phase = "title", score = 0, timeLeft = ROUND, x = W / 2, stars = [], last = null, spawn = 0;
  const held = {};

  function reset() { phase = "playing"; score = 0; timeLeft = ROUND; x = W / 2; stars = []; spawn = 0; }
  function begin() { if (phase === "title" || phase === "over" || phase === "won") reset(); }
  addEventListener("keydown", e => {
    held[e.key] = true;
    if (e.key === "Enter" || e.key === " ") begin();
  });
  addEventListener("keyup", e => { held[e.key] = false; });
  canvas.addEventListener("pointerdown", e => {
    if (phase !== "playing") return begin();
    const r = canvas.getBoundingClientRect();
    x = ((e.clientX - r.left) / r.width) * W;
  });

  function update(dt) {
    if (phase !== "playing") return;
    if (held.ArrowLeft) x -= 300 * dt;
    if (held.ArrowRight) x += 300 * dt;
    x = Math.max(20, Math.min(W - 20, x));
    spawn -= dt;
    if (spawn <= 0) { stars.push({ x: 20 + random() * (W - 40), y: -10 }); spawn = 0.6; }
    for (const s of stars) s.y += 120 * dt;
    const caught = stars.filter(s => s.y > H - 30 && Math.abs(s.x - x) < 30);
    score += caught.length * 10;
    stars = stars.filter(s => !caught.includes(s) && s.y < H + 10);
    timeLeft = Math.max(0, timeLeft - dt);
    if (timeLeft === 0) phase = "over";
  }

  function draw(t) {
    g.fillStyle = "#101820"; g.fillRect(0, 0, W, H);
    g.fillStyle = "#f2aa4c";
    for (const s of stars) { g.beginPath(); g.arc(s.x, s.y, 6, 0, 7); g.fill(); }
    g.fillRect(x - 25, H - 20, 50, 10);
    g.font = "16px sans-serif"; g.fillText(`score ${score}  time ${timeLeft.toFixed(1)}`, 10, 20);
    if (phase === "title") { g.font = "28px sans-serif"; g.fillText("CATCH — press Enter", 110 + Math.sin(t / 300) * 10, H / 2); }
    if (phase === "over") { g.font = "28px sans-serif"; g.fillText("time up — Enter", 140, H / 2); }
  }

  function frame(t) {
    const dt = last === null ? 0 : Math.min(0.1, (t - last) / 1000);
    last = t;
    update(dt);
    draw(t);
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  window.__crumb = {
    version: 1, genre: "catch", seed,
    state() {
      const next = stars.filter(s => s.y < H - 20).sort((a, b) => b.y - a.y)[0];
      const hint = phase !== "playing" ? [{ type: "key", key: "Enter" }]
        : next ? [{ type: "click", x: next.x / W, y: 0.9 }] : [];
      return { phase, score, lives: null, timeLeft: Math.round(timeLeft * 10) / 10, level: 1, target: null, hint,
               basketX: Math.round(x) };
    },
  };
})();
