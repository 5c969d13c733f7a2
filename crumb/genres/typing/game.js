// Typing: words fall from the sky; type one to clear it before it lands.
// Keyboard: type the letters (Backspace lets go of a word). Mouse/touch: the on-screen keyboard.
(function () {
  "use strict";

  const W = 480, H = 720;
  const ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
  const KB_TOP = H - 178, KEY_W = 44, KEY_H = 50, KEY_GAP = 4;
  const GROUND = KB_TOP - 18;
  const PER_LEVEL = 6;
  // Plain-letter words per page language (index.html's lang), so any keyboard types them.
  const WORDS = {
    en: "cat sun map fox jam owl ink box cup key star ship moon rain leaf frog kite lamp rock wave tree cloud storm river candy pixel rocket planet jungle castle dragon garden violin meteor comet orbit ninja tiger zebra piano lemon mango",
    nl: "kat zon kaart vos jam uil inkt doos kop sleutel ster schip maan regen blad kikker vlieger lamp rots golf boom wolk storm rivier snoep raket planeet jungle kasteel draak tuin viool komeet tijger zebra piano citroen",
    de: "katze sonne karte fuchs eule tinte kiste tasse stern schiff mond regen blatt frosch drachen lampe fels welle baum wolke sturm fluss rakete planet burg garten geige komet tiger zebra klavier zitrone",
    it: "gatto sole mappa volpe gufo scatola tazza chiave stella nave luna pioggia foglia rana lampada roccia onda albero nuvola fiume razzo pianeta giungla castello drago giardino violino cometa tigre zebra piano limone",
    es: "gato sol mapa zorro buho caja taza llave estrella barco luna lluvia hoja rana lampara roca ola arbol nube rio cohete planeta selva castillo dragon jardin violin cometa tigre cebra piano limon",
    fr: "chat soleil carte renard hibou boite tasse cle etoile bateau lune pluie feuille lampe roche vague arbre nuage orage fusee planete jungle chateau dragon jardin violon comete tigre zebre piano citron",
    pt: "gato sol mapa raposa coruja caixa chave estrela barco lua chuva folha sapo lampada rocha onda arvore nuvem rio foguete planeta selva castelo dragao jardim violino cometa tigre zebra piano limao",
    pl: "kot mapa lis sowa pudlo kubek klucz gwiazda statek deszcz lampa skala fala drzewo chmura burza rzeka rakieta planeta zamek smok ogrod kometa tygrys zebra pianino cytryna",
    tr: "kedi harita tilki kutu fincan anahtar gemi yaprak lamba kaya dalga bulut nehir roket gezegen kale ejder bahce keman kuyruk kaplan zebra piyano limon",
    vi: "meo mat troi ban do cao hop coc chia khoa sao tau trang mua la ech den da song cay may bao roket hanh tinh rung lau dai rong vuon dan tranh sao choi ho ngua van chanh",
  };

  function wordList() {
    const lang = ((document.documentElement && document.documentElement.lang) || "en").slice(0, 2).toLowerCase();
    return (WORDS[lang] || WORDS.en).split(" ").filter((w) => /^[a-z]+$/.test(w));
  }

  function keyRect(ch) {
    for (let r = 0; r < ROWS.length; r++) {
      const i = ROWS[r].indexOf(ch);
      if (i < 0) continue;
      const n = ROWS[r].length, span = n * KEY_W + (n - 1) * KEY_GAP;
      return { x: (W - span) / 2 + i * (KEY_W + KEY_GAP), y: KB_TOP + 8 + r * (KEY_H + KEY_GAP), w: KEY_W, h: KEY_H };
    }
    return null;
  }

  function keyAt(x, y) {
    for (const row of ROWS) for (const ch of row) {
      const k = keyRect(ch);
      if (x >= k.x - KEY_GAP / 2 && x <= k.x + k.w + KEY_GAP / 2 && y >= k.y - KEY_GAP / 2 && y <= k.y + k.h + KEY_GAP / 2) return ch;
    }
    return null;
  }

  function wordFont(api) { return "700 " + Math.round(22 * ((api.cfg && api.cfg.textScale) || 1)) + "px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace"; }

  function fallSpeed(api) { return (24 + 5 * (api.level - 1)) * api.speed; }

  function spawn(s, api, g) {
    const pool = s.list.filter((w) => !s.words.some((o) => o.text[0] === w[0]));
    const from = pool.length ? pool : s.list;
    // short words first, longer ones as the levels go up
    const cap = Math.min(from.length, 14 + 6 * api.level);
    const text = from.slice().sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[api.randInt(cap)];
    g.font = wordFont(api);
    const wpx = text.length * 14 + 24;
    const x = 12 + wpx / 2 + api.rng() * Math.max(1, W - 24 - wpx);
    s.words.push({ text, typed: 0, x, y: api.top + 10, w: wpx, shake: 0 });
  }

  function lowest(s) {
    let best = null;
    for (const w of s.words) if (!best || w.y > best.y) best = w;
    return best;
  }

  function typeLetter(s, api, ch) {
    s.keyFlash[ch] = 0.25;
    if (!s.active) {
      let pick = null;
      for (const w of s.words) if (w.text[0] === ch && (!pick || w.y > pick.y)) pick = w;
      if (!pick) { miss(s, api); return; }
      s.active = pick;
    }
    const w = s.active;
    if (w.text[w.typed] !== ch) { miss(s, api); w.shake = 0.3; return; }
    w.typed++;
    api.beep(660);
    if (w.typed === w.text.length) {
      s.words.splice(s.words.indexOf(w), 1);
      s.active = null;
      s.combo++; s.bestCombo = Math.max(s.bestCombo, s.combo); s.cleared++;
      const mult = 1 + Math.floor(s.combo / 5);
      const pts = 10 * w.text.length * mult;
      api.addScore(pts);
      api.popup("+" + pts + (mult > 1 ? " x" + mult : ""), w.x, w.y - 18, api.pal.accent2);
      api.burst(w.x, w.y, api.pal.accent, 18);
      if (api.phase !== "playing") return;
      if (s.cleared % PER_LEVEL === 0) {
        api.setLevel(api.level + 1);
        if (api.phase === "playing") s.banner = 1.3;
      }
    }
  }

  function miss(s, api) {
    s.mistakes++; s.combo = 0; s.flash = 0.25;
    api.beep(160);
  }

  CrumbGame.register({
    genre: "typing",
    size: [W, H],
    survive: true,
    letters: true,
    controls: "Type the falling words · or tap the keys below",

    init(api) {
      const s = { words: [], active: null, list: wordList(), acc: 1.6, combo: 0, bestCombo: 0, mistakes: 0, cleared: 0,
        missed: 0, keyFlash: {}, flash: 0, banner: 0, clock: 0, ctx: document.createElement("canvas").getContext("2d") };
      return s;
    },

    update(s, dt, input, api) {
      s.clock += dt;
      if (s.flash > 0) s.flash -= dt;
      if (s.banner > 0) s.banner -= dt;
      for (const k in s.keyFlash) { s.keyFlash[k] -= dt; if (s.keyFlash[k] <= 0) delete s.keyFlash[k]; }
      const every = Math.max(1.1, 3.0 - 0.25 * (api.level - 1)) / api.speed;
      s.acc += dt;
      if (s.words.length === 0 && s.acc < every - 0.4) s.acc = every - 0.4;
      if (s.acc >= every && s.words.length < 6) { s.acc = 0; spawn(s, api, s.ctx); }
      for (const key of input.pressed) {
        if (key === "Backspace") { if (s.active) { s.active.typed = 0; s.active = null; } continue; }
        if (key.length === 1 && /[a-zA-Z]/.test(key)) typeLetter(s, api, key.toLowerCase());
        if (api.phase !== "playing") return;
      }
      for (const c of input.clicks) {
        const ch = keyAt(c.x, c.y);
        if (ch) typeLetter(s, api, ch);
        if (api.phase !== "playing") return;
      }
      const v = fallSpeed(api);
      for (let i = s.words.length - 1; i >= 0; i--) {
        const w = s.words[i];
        w.y += v * dt;
        if (w.shake > 0) w.shake -= dt;
        if (w.y >= GROUND) {
          s.words.splice(i, 1); s.missed++; s.combo = 0;
          if (s.active === w) s.active = null;
          api.burst(w.x, GROUND, api.pal.danger, 20);
          if (!api.loseLife()) return;
        }
      }
    },

    draw(g, s, api) {
      const pal = api.pal;
      const bg = api.cache("typing-bg" + pal.bg, (cg) => {
        const gr = cg.createLinearGradient(0, 0, 0, H);
        gr.addColorStop(0, api.mix(pal.bg, "#000000", 0.3)); gr.addColorStop(1, api.mix(pal.bg, pal.accent, 0.18));
        cg.fillStyle = gr; cg.fillRect(0, 0, W, H);
        let seed = 7;
        const r = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
        for (let i = 0; i < 70; i++) {
          cg.fillStyle = api.alpha(pal.text, 0.15 + r() * 0.4);
          cg.fillRect(r() * W, r() * KB_TOP, 1.5, 1.5);
        }
        // the ground the words must not reach
        const gg = cg.createLinearGradient(0, GROUND, 0, KB_TOP);
        gg.addColorStop(0, api.alpha(pal.danger, 0.35)); gg.addColorStop(1, api.alpha(pal.danger, 0));
        cg.fillStyle = gg; cg.fillRect(0, GROUND, W, KB_TOP - GROUND);
        cg.fillStyle = api.alpha("#000000", 0.35); cg.fillRect(0, KB_TOP, W, H - KB_TOP);
      });
      g.drawImage(bg, 0, 0, W, H);
      g.strokeStyle = api.alpha(pal.danger, 0.7 + 0.3 * Math.sin(s.clock * 4)); g.lineWidth = 2;
      g.setLineDash([10, 8]); g.beginPath(); g.moveTo(0, GROUND); g.lineTo(W, GROUND); g.stroke(); g.setLineDash([]);
      // status line
      api.text(g, "Words " + s.cleared + (s.combo > 1 ? "   Combo x" + s.combo : ""), 16, api.top + 18, 16, s.combo > 4 ? pal.accent2 : pal.fg, "left");
      api.text(g, "Level " + api.level, W - 16, api.top + 18, 16, pal.fg, "right");
      // words
      g.font = wordFont(api); g.textBaseline = "middle";
      for (const w of s.words) {
        const x = w.x + (w.shake > 0 ? Math.sin(w.shake * 80) * 4 : 0), y = w.y;
        const danger = (w.y - api.top) / (GROUND - api.top);
        const active = w === s.active;
        g.fillStyle = active ? api.alpha(pal.accent, 0.35) : api.alpha("#000000", 0.45);
        api.roundRect(g, x - w.w / 2, y - 19, w.w, 38, 19); g.fill();
        g.lineWidth = active ? 3 : 1.5;
        g.strokeStyle = active ? pal.accent2 : api.mix(pal.accent, pal.danger, Math.max(0, danger * 1.4 - 0.4));
        g.stroke();
        const full = g.measureText(w.text).width, head = w.text.slice(0, w.typed);
        let tx = x - full / 2;
        g.textAlign = "left";
        g.fillStyle = pal.accent2; g.fillText(head, tx, y + 1);
        tx += g.measureText(head).width;
        g.fillStyle = pal.text; g.fillText(w.text.slice(w.typed), tx, y + 1);
      }
      // the on-screen keyboard; the letter that helps next glows
      const next = nextLetter(s);
      for (const row of ROWS) for (const ch of row) {
        const k = keyRect(ch), lit = s.keyFlash[ch] > 0;
        if (ch === next) api.glow(g, k.x + k.w / 2, k.y + k.h / 2, 40, pal.accent2);
        g.fillStyle = lit ? pal.accent : (ch === next ? api.mix(pal.bg, pal.accent2, 0.35) : api.mix(pal.bg, pal.fg, 0.16));
        api.roundRect(g, k.x, k.y, k.w, k.h, 8); g.fill();
        g.fillStyle = "rgba(255,255,255,0.12)"; api.roundRect(g, k.x + 2, k.y + 2, k.w - 4, 12, 6); g.fill();
        api.text(g, ch.toUpperCase(), k.x + k.w / 2, k.y + k.h / 2 + 1, 20, lit ? "#10131c" : pal.text, "center");
      }
      if (s.flash > 0) { g.fillStyle = api.alpha(pal.danger, s.flash); g.fillRect(0, 0, W, H); }
      if (s.banner > 0) {
        g.fillStyle = "rgba(0,0,0,0.55)"; g.fillRect(0, H / 2 - 90, W, 72);
        api.text(g, "Level " + api.level, W / 2, H / 2 - 54, 36, pal.accent2, "center");
      }
    },

    hook(s, api) {
      const next = nextLetter(s);
      return {
        hint: next ? [{ type: "key", key: next }] : [],
        words: s.words.map((w) => ({ word: w.text, typed: w.typed, y: +(w.y / H).toFixed(4) })),
        active: s.active ? s.active.text : null, typed: s.active ? s.active.typed : 0, nextLetter: next,
        combo: s.combo, bestCombo: s.bestCombo, mistakes: s.mistakes, cleared: s.cleared, missed: s.missed,
        wordsToLevel: PER_LEVEL - (s.cleared % PER_LEVEL),
        // where the on-screen "a" key is and how far apart keys are, in canvas fractions
        keys: (() => { const o = {}; for (const row of ROWS) for (const ch of row) { const k = keyRect(ch); o[ch] = [+((k.x + k.w / 2) / W).toFixed(4), +((k.y + k.h / 2) / H).toFixed(4)]; } return o; })(),
        groundY: +(GROUND / H).toFixed(4), fallSpeed: fallSpeed(api),
      };
    },
  });

  function nextLetter(s) {
    if (s.active) return s.active.text[s.active.typed];
    const w = lowest(s);
    return w ? w.text[0] : null;
  }
})();
