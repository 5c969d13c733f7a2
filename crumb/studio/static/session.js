"use strict";

const SID = meta("crumb-session");
const PREVIEW = meta("crumb-preview");
const API = `/api/sessions/${SID}`;
// The event stream comes from a port of its own (see create_stream_app): open pages never use up the
// browser's six connections to the Studio's port.
const STREAM = `${meta("crumb-stream")}${API}/stream`;
const STAGES = [["planner", "Planner"], ["builder", "Builder"], ["qa", "QA"], ["verifier", "Verifier"]];
const PHASE_STAGE = { planning: "planner", researching: "planner", building: "builder", qa: "qa", verifying: "verifier" };

// What the page has received, for people (and the browser tests) to check: seqs in order, dupes.
// pauses/resumes: streams closed (or never opened) because the tab was hidden, and opened when shown.
const studio = (window.__studio = { seqs: [], duplicates: 0, connects: 0, pauses: 0, resumes: 0, lastSeq: 0, firstSeq: 0,
                                    history: [], arrivals: {} });

document.getElementById("sid").textContent = SID;
mountDaemon(document.getElementById("daemon"));

// ------------------------------------------------------------------ timeline

const eventsEl = document.getElementById("events");
const timelineEl = document.getElementById("timeline");
const earlierBtn = document.getElementById("earlier");

function describe(ev) {
  const d = ev.data || {};
  switch (ev.kind) {
    case "goal": return d.pitch;
    case "spec": case "spec.update": return `${d.title || ""} (${d.genre || "?"}) · ${(d.criteria || []).length} criteria`;
    case "build": return `${((d.manifest || {}).files || []).length} files`;
    case "qa.result": return d.error ? `QA failed: ${d.error}` : `ok=${d.ok} · probes ${(d.probes || []).filter((p) => p.ok).length}/${(d.probes || []).length}`;
    case "judge.score": case "audit": return `${d.verdict}${d.severity ? " · " + d.severity : ""} · ${d.total}`;
    case "done": return `${d.reason}${d.verdict ? " · " + d.verdict : ""}${d.detail ? " · " + d.detail : ""}`;
    case "progress": return d.message;
    case "effect.started": case "effect.finished": case "effect.failed":
      return `${d.kind}${d.actor ? " · " + d.actor : ""}${d.adapter ? " (" + d.adapter + ")" : ""}${d.error ? " · " + d.error : ""}`;
    case "error": return d.message;
    case "note": case "user.note": case "user.intervene": case "user.append":
      return (d.actor ? "@" + d.actor + " " : "") + (d.text || "");
    case "user.veto": case "user.cancel": return d.reason;
    case "budget.warning": return `${d.budget} ${d.used}/${d.limit}`;
    case "circuit.opened": return `${d.actor}/${d.adapter} after ${d.failures} failures`;
    case "adapter.swapped": return `${d.actor}: ${d.before || "?"} → ${d.after || "?"}`;
    default: return "";
  }
}

// "Fork here": a new session that starts as this one stood at this line, then goes on with the bindings
// typed (`builder=codex, verifier=gemini`; empty: the same ones). The daemon makes it from an inbox file.
function forkForm(ev) {
  const said = h("span", { class: "ev-fork-said", role: "status" });
  const input = h("input", { name: "bindings", class: "mono", size: 36, "aria-label": `bindings for a fork from #${ev.seq}`,
                             placeholder: "builder=codex, verifier=gemini (optional)" });
  return h("form", { class: "ev-fork", onsubmit: async (e) => {
      e.preventDefault();
      const bindings = {};
      for (const part of input.value.split(",").map((p) => p.trim()).filter(Boolean)) {
        const [role, ...rest] = part.split("=");
        bindings[role.trim()] = rest.join("=").trim();
      }
      said.textContent = "forking…";
      try {
        const r = await apiPost(`${API}/fork`, { at: ev.seq, bindings });
        said.replaceChildren("fork ", h("a", { href: `/s/${r.session}`, text: r.session }), ` from #${r.at}`);
      } catch (err) { said.textContent = err.message; }
    } },
    input, h("button", { type: "submit", text: `Fork from #${ev.seq}` }), said);
}

function eventRow(ev) {
  const text = ev.body || describe(ev) || "";
  const details = h("div", { class: "ev-data", hidden: true },
    h("pre", { text: JSON.stringify(ev.data, null, 2) }), forkForm(ev));
  const from = ev.from || "?";
  return h("li", { class: `ev from-${from.replace(/[^a-z]/g, "")} kind-${ev.kind.replace(/\W/g, "-")}`,
                   dataset: { seq: ev.seq, kind: ev.kind } },
    h("button", { type: "button", class: "ev-line", onclick: () => { details.hidden = !details.hidden; } },
      h("span", { class: "seq mono", text: ev.seq }),
      h("span", { class: "time mono", text: clock(ev.ts) }),
      h("span", { class: "who", text: from }),
      h("span", { class: "kind", text: ev.kind }),
      h("span", { class: "text", text })),
    details);
}

function nearBottom() { return timelineEl.scrollHeight - timelineEl.scrollTop - timelineEl.clientHeight < 60; }

function appendEvents(list) {
  const stick = nearBottom();
  const frag = document.createDocumentFragment();
  for (const ev of list) {
    if (ev.seq <= studio.lastSeq) { studio.duplicates++; continue; }
    if (studio.lastSeq && ev.seq !== studio.lastSeq + 1) studio.gaps = (studio.gaps || 0) + 1;
    studio.lastSeq = ev.seq;
    studio.seqs.push(ev.seq);
    studio.arrivals[ev.seq] = performance.timeOrigin + performance.now();  // for bench/studio.py
    frag.append(eventRow(ev));
  }
  eventsEl.append(frag);
  if (stick) timelineEl.scrollTop = timelineEl.scrollHeight;
}

async function loadLatestPage() {
  const page = await apiGet(`${API}/events?limit=200`);
  eventsEl.replaceChildren();
  studio.seqs = [];
  studio.lastSeq = page.events.length ? page.events[0].seq - 1 : page.last;
  studio.firstSeq = page.events.length ? page.events[0].seq : 0;
  appendEvents(page.events);
  earlierBtn.hidden = !(studio.firstSeq > 1);
  timelineEl.scrollTop = timelineEl.scrollHeight;
}

earlierBtn.addEventListener("click", async () => {
  const page = await apiGet(`${API}/events?before=${studio.firstSeq}&limit=200`);
  const before = timelineEl.scrollHeight;
  eventsEl.prepend(...page.events.map(eventRow));
  if (page.events.length) studio.firstSeq = page.events[0].seq;
  earlierBtn.hidden = !(studio.firstSeq > 1);
  timelineEl.scrollTop += timelineEl.scrollHeight - before;
});

// One EventSource per page. The browser reconnects by itself, sending Last-Event-ID = the last seq.
let source = null;
function connect() {
  const live = document.getElementById("live");
  if (source) source.close();  // a reconnect replaces the stream: never two open per page
  const mine = (source = new EventSource(`${STREAM}?after=${studio.lastSeq}`));
  live.title = "";
  source.addEventListener("hello", () => { studio.connects++; live.textContent = "live"; live.className = "live on"; live.title = ""; });
  // A browser streams at most six pages from one host and port; the others wait without an error.
  setTimeout(() => {
    if (source !== mine || mine.readyState !== EventSource.CONNECTING || live.className === "live off") return;
    live.textContent = "waiting for a stream";
    live.title = "This browser streams at most six Studio pages at once: hide or close another one and this page goes live.";
  }, 3000);
  source.addEventListener("ev", (msg) => { appendEvents([JSON.parse(msg.data)]); });
  // The server computes the panels once per change for every open tab and sends only those that changed.
  source.addEventListener("panels", (msg) => {
    const update = JSON.parse(msg.data);
    studio.panelUpdates = (studio.panelUpdates || 0) + 1;
    studio.panelVersion = update.v;  // per connection: first every panel, then newer changes only
    Object.assign(panels, update.panels);
    showDetail(panels);
  });
  source.addEventListener("gap", async () => { await loadLatestPage(); });
  source.onerror = () => { live.textContent = "reconnecting"; live.className = "live off"; };
}

// ------------------------------------------------------------------ hidden tabs

// Someone with fifty tabs open sees a few: a hidden tab closes its stream, so it holds no connection
// and no subscriber on the Studio and gets no panel pushes. Shown again, it reconnects after
// studio.lastSeq: the server sends what it missed and every panel afresh, nothing lost, nothing twice.
// The grace keeps a quick alt-tab from costing a reconnect. Tests shorten it without touching the URL:
// an init script (Playwright's add_init_script) sets window.__studioHiddenGraceMs before this file runs.
const HIDDEN_GRACE_MS = 5000;
let pauseTimer = null;

function hiddenGraceMs() {
  const ms = window.__studioHiddenGraceMs;
  return Number.isFinite(ms) && ms >= 0 ? ms : HIDDEN_GRACE_MS;
}

function pauseStream() {
  pauseTimer = null;
  if (source) source.close();
  source = null;
  studio.pauses++;
  const live = document.getElementById("live");
  live.textContent = "paused (tab hidden)";
  live.className = "live off";
}

function onVisibility() {
  if (document.visibilityState === "hidden") {
    if (source && pauseTimer === null) pauseTimer = setTimeout(pauseStream, hiddenGraceMs());
    return;
  }
  if (pauseTimer !== null) {  // back within the grace: the stream never closed
    clearTimeout(pauseTimer);
    pauseTimer = null;
  } else if (!source) {
    studio.resumes++;
    connect();
  }
}

// ------------------------------------------------------------------ detail panels

// The panels as last received: the first paint's GET, then the stream's updates merged in.
const panels = {};

// The transcript's hash chain: sealed, unsealed (written before the chain), or broken at a line.
function sealBadge(seal) {
  if (!seal || seal.status === "unknown") return null;
  if (seal.status === "broken") {
    return h("span", { class: "badge bad seal", dataset: { seal: "broken" }, title: seal.what },
      `seal broken at line ${seal.line}`);
  }
  if (seal.status === "unsealed") {
    return h("span", { class: "badge warn seal", dataset: { seal: "unsealed" },
      title: "written before the hash chain: nothing shows whether it was changed" }, "unsealed");
  }
  return h("span", { class: "badge ok seal", dataset: { seal: "sealed" },
    title: "every line carries the hash of the line before it (crumb verify checks it)" }, "sealed");
}

function renderHead(s) {
  document.getElementById("title").textContent = s.title || "Untitled session";
  document.getElementById("pitch").textContent = s.pitch || "";
  document.title = `CRUMB Studio · ${s.title || SID}`;
  const verdicts = s.verdicts || [];
  const last = verdicts[verdicts.length - 1];
  clear(document.getElementById("badges"),
    phaseBadge(s),
    last ? verdictBadge(last.verdict, s, last.total !== undefined ? " · " + last.total : "") : null,
    s.genre ? badge(s.genre, "plain") : null,
    s.paused ? badge(`paused${(s.paused_actors || []).length ? " · " + s.paused_actors.join(", ") : ""}`, "warn") : null,
    sealBadge(s.seal));
  clear(document.getElementById("played"), playedList(s),
    s.played_note ? h("p", { class: `played-note${s.fallback ? " fallback" : ""}`, text: s.played_note }) : null);
  document.getElementById("round").textContent = s.round ? `round ${s.round}` : "";
  const waiting = document.getElementById("waiting");
  waiting.textContent = s.waiting_for ? `waiting for ${s.waiting_for}` : "";
  document.getElementById("btn-approve").classList.toggle("primary", s.waiting_for === "approval");
}

function renderPipeline(s) {
  const current = s.stage || PHASE_STAGE[s.phase] || null;
  const done = s.phase === "done";
  const order = STAGES.map(([k]) => k);
  const at = order.indexOf(current);
  const items = [];
  STAGES.forEach(([key, label], i) => {
    let cls = "stage";
    if (s.phase === "waiting") cls += " past";
    else if (done) cls += s.done && (s.done.reason === "pass" || s.done.reason === "approved") ? " past" : " idle";
    else if (key === current) cls += " current";
    else if (at >= 0 && i < at) cls += " past";
    items.push(h("li", { class: cls, dataset: { stage: key } },
      h("span", { class: "step", text: i + 1 }), h("span", { text: label }),
      key === current && !done && s.round ? h("small", { text: `round ${s.round}` }) : null));
    if (i < STAGES.length - 1) items.push(h("li", { class: "arrow", "aria-hidden": "true", text: "→" }));
  });
  if (s.phase === "waiting") {
    items.push(h("li", { class: "arrow", "aria-hidden": "true", text: "→" }));
    items.push(h("li", { class: "stage waiting current", dataset: { stage: "waiting" } },
      h("span", { text: `Waiting for ${s.waiting_for || "you"}` })));
  }
  items.push(h("li", { class: "arrow", "aria-hidden": "true", text: "→" }));
  items.push(h("li", { class: `stage end ${done ? "current" : ""}${done && s.fallback ? " fallback" : ""}`, dataset: { stage: "done" } },
    h("span", { text: done ? `Done · ${(s.done || {}).reason || ""}${s.fallback ? " · fallback" : ""}` : "Done" })));
  clear(document.getElementById("pipeline"), items);
}

function renderBudgets(budgets) {
  const rows = Object.entries(budgets || {}).map(([name, b]) => {
    const frac = b.limit ? Math.min(1, b.used / b.limit) : 0;
    const fmt = (x) => (typeof x === "number" && !Number.isInteger(x) ? x.toFixed(2) : x);
    return h("div", { class: "budget" },
      h("span", { class: "name", text: name }),
      h("span", { class: "bar" }, h("span", { class: frac > 0.8 ? "fill hot" : "fill", style: `width:${(frac * 100).toFixed(1)}%` })),
      h("span", { class: "num mono", text: `${fmt(b.used)} / ${fmt(b.limit)}` }));
  });
  clear(document.getElementById("budgets"), rows.length ? rows : [h("p", { class: "dim empty", text: "No budgets recorded." })]);
}

function yesno(v) {
  if (v === true) return h("span", { class: "yes", text: "yes" });
  if (v === false) return h("span", { class: "no", text: "no" });
  return h("span", { class: "dim", text: "—" });
}

const show = (v) => (v === undefined || v === null ? "—" : JSON.stringify(v));

function renderScorecard(card) {
  const parts = [];
  if (card.qa) {
    const q = card.qa;
    parts.push(h("div", { class: "score-block" },
      h("h3", {}, "QA facts ", h("span", { class: "src src-qa", text: "measured · QA" })),
      q.error ? h("p", { class: "err", text: `QA itself failed: ${q.error}` }) : null,
      q.rechecked ? h("p", { class: "dim", id: "qa-rechecked", text: `Checked twice: ${q.rechecked}` }) : null,
      h("table", { class: "facts" }, h("tbody", {},
        q.facts.map((f) => h("tr", {}, h("td", { text: f.name }), h("td", {}, yesno(f.value)))),
        q.fps !== null && q.fps !== undefined ? h("tr", {}, h("td", { text: "frames per second" }), h("td", { class: "mono", text: Number(q.fps).toFixed(0) })) : null)),
      q.probes.length ? h("table", { class: "probes" }, h("tbody", {}, q.probes.map((p) =>
        h("tr", {}, h("td", {}, yesno(p.ok)), h("td", {}, h("b", { text: p.id }), " ", p.text),
          h("td", { class: "dim", text: p.detail }))))) : null,
      q.errors.length ? h("ul", { class: "errs" }, q.errors.map((e) => h("li", { text: e }))) : null));
  }
  if (card.model) {
    const m = card.model;
    parts.push(h("div", { class: "score-block" },
      h("h3", {}, "Model scores ", h("span", { class: "src src-model", text: `judged · ${m.model || "verifier"}` })),
      h("p", {}, badge(m.verdict, VERDICT_CLASS[m.verdict]), " ", m.severity ? badge(m.severity, "plain") : null,
        h("span", { class: "mono", text: ` total ${m.total}` })),
      h("table", { class: "dims" }, h("tbody", {}, m.scores.map((s) =>
        h("tr", {}, h("td", { text: s.dimension }),
          h("td", {}, h("span", { class: "bar small" }, h("span", { class: "fill", style: `width:${(s.score / 5) * 100}%` }))),
          h("td", { class: "mono", text: s.score }),
          h("td", { class: "dim" }, s.note, (s.evidence || []).length
            ? h("small", { class: "evidence", text: ` · evidence: ${s.evidence.join(", ")}` }) : null))))),
      m.feedback ? h("p", { class: "feedback", text: m.feedback }) : null));
  }
  if (card.validator) {
    const v = card.validator;
    parts.push(h("div", { class: "score-block" },
      h("h3", {}, "Validator ", h("span", { class: "src src-validator", text: "corrected · validator" })),
      h("p", {}, badge(v.verdict, VERDICT_CLASS[v.verdict]), " ", v.severity ? badge(v.severity, "plain") : null,
        h("span", { class: "mono", text: ` total ${v.total}` })),
      v.corrections.length
        ? h("ul", { class: "corrections" }, v.corrections.map((c) => h("li", {},
            h("b", { text: c.rule }), ` ${c.field}: `, h("span", { class: "mono", text: `${show(c.before)} → ${show(c.after)}` }),
            h("div", { class: "dim", text: c.reason }))))
        : h("p", { class: "dim", text: "No corrections: the model's verdict agreed with the evidence." })));
  }
  clear(document.getElementById("scorecard"), parts.length ? parts : [h("p", { class: "dim empty", text: "No verdict yet." })]);
}

function fileUrl(rel) { return `${API}/file/${rel.split("/").map(encodeURIComponent).join("/")}`; }

// spec.md as a page: headings, lists and paragraphs built as elements (text only), its HTML comment
// (the note to people editing the file) left out. The raw text is what the editor shows.
function inlineMd(text) {
  return text.split(/(`[^`]+`)/).filter((p) => p !== "").map((p) =>
    p.length > 1 && p.startsWith("`") && p.endsWith("`") ? h("code", { text: p.slice(1, -1) }) : p);
}

function markdown(text) {
  const out = [];
  let list = null;
  let para = [];
  const flush = () => {
    if (para.length) out.push(h("p", {}, inlineMd(para.join(" "))));
    para = [];
  };
  const body = text.replace(/<!--[\s\S]*?(-->|$)/g, "");
  for (const raw of body.split("\n")) {
    const line = raw.replace(/\s+$/, "");
    const head = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (head) {
      flush(); list = null;
      out.push(h(`h${Math.min(6, head[1].length + 2)}`, { class: "md-h" }, inlineMd(head[2])));
    } else if (item) {
      flush();
      if (!list) { list = h("ul", { class: "md-list" }); out.push(list); }
      list.append(h("li", {}, inlineMd(item[1].replace(/^\[([^\]]+)\]\s*/, (m, id) => `${id}: `))));
    } else if (/^\s{2,}\S/.test(line) && list && list.lastChild) {
      list.lastChild.append(h("div", { class: "md-sub mono", text: line.trim() }));
    } else if (!line.trim()) {
      flush(); list = null;
    } else {
      list = null; para.push(line.trim());
    }
  }
  flush();
  return h("div", { class: "md" }, out);
}

let specText = null;
function renderSpec(detail) {
  const box = document.getElementById("spec");
  specText = detail.spec_md || null;
  document.getElementById("spec-edit").hidden = !specText;
  if (detail.spec_md) return clear(box, markdown(detail.spec_md));
  const s = detail.spec;
  if (!s) return clear(box, h("p", { class: "dim empty", text: "No spec yet." }));
  clear(box,
    h("p", {}, h("b", { text: s.title }), ` · ${s.genre}`),
    s.core_loop ? h("p", { text: s.core_loop }) : null,
    (s.criteria || []).length ? h("ul", { class: "criteria" }, s.criteria.map((c) => h("li", {}, h("b", { text: c.id }), " ", c.text))) : null);
}

function renderArtifacts(list) {
  if (!list.length) return clear(document.getElementById("artifacts"), h("p", { class: "dim empty", text: "None yet." }));
  clear(document.getElementById("artifacts"), h("table", { class: "files" },
    h("thead", {}, h("tr", {}, h("th", { text: "file" }), h("th", { text: "size" }), h("th", { text: "sha256" }), h("th", { text: "manifest" }))),
    h("tbody", {}, list.map((a) => h("tr", {},
      h("td", { class: "mono" }, a.missing ? h("span", { text: a.path }) : h("a", { href: fileUrl(a.path), target: "_blank", rel: "noopener", text: a.path })),
      h("td", { class: "mono", text: bytes(a.bytes) }),
      h("td", { class: "mono sha", title: a.sha256, text: a.sha256 ? a.sha256.slice(0, 12) + "…" : "" }),
      h("td", {}, a.manifest === null ? h("span", { class: "dim", text: "—" })
        : a.manifest ? h("span", { class: "yes", text: "✓ match" }) : h("span", { class: "no", text: a.missing ? "✗ missing" : "✗ changed" })))))));
}

function renderShots(list) {
  const box = document.getElementById("shots");
  if (!list.length) return clear(box, h("p", { class: "dim empty", text: "None yet." }));
  clear(box, list.map((rel) => h("a", { href: fileUrl(rel), target: "_blank", rel: "noopener" },
    h("img", { src: fileUrl(rel), alt: rel, loading: "lazy" }), h("span", { class: "cap mono", text: rel.split("/").pop() }))));
}

function renderLogs(list) {
  const box = document.getElementById("logs");
  if (!list.length) return clear(box, h("p", { class: "dim empty", text: "None yet." }));
  const view = document.getElementById("log-view");
  clear(box, h("ul", { class: "logs" }, list.map((l) => h("li", {},
    l.bytes === null || l.bytes === undefined ? h("span", { class: "mono dim", text: `${l.path} (not written)` }) :
    h("button", { type: "button", class: "link", onclick: async () => {
      const r = await fetch(fileUrl(l.path), { cache: "no-store" });
      view.hidden = false;
      view.textContent = await r.text();
      view.scrollTop = view.scrollHeight;
    } }, l.path),
    h("span", { class: "dim", text: ` ${[l.actor, l.kind, l.attempt > 1 ? "attempt " + l.attempt : "", l.state, bytes(l.bytes)].filter(Boolean).join(" · ")}` })))));
}

let shownBuild = undefined;
function renderPreview(game) {
  const box = document.getElementById("preview-box");
  const open = document.getElementById("preview-open");
  const build = game ? game.build || "" : null;
  if (build === shownBuild) return;
  shownBuild = build;
  if (!game) { open.hidden = true; return clear(box, h("p", { class: "dim empty", text: "No build yet." })); }
  const src = `${PREVIEW}/s/${SID}/${game.entry.split("/").map(encodeURIComponent).join("/")}?build=${encodeURIComponent(build)}`;
  open.hidden = false;
  open.href = `/s/${SID}/play`;  // the game full-page, still sandboxed (a top-level game could navigate anywhere)
  // scripts only: no same-origin, no forms, no popups, no top navigation
  clear(box, h("iframe", { id: "preview", src, sandbox: "allow-scripts", title: "game preview",
                           referrerpolicy: "no-referrer", allow: "" }));
}

document.getElementById("preview-reload").addEventListener("click", () => {
  const f = document.getElementById("preview");
  if (f) f.src = f.src;
});

// ------------------------------------------------------------------ rounds: scorecards, plot, diff

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of kids.flat()) if (c) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

// The total of each round (0 to 5) as a line with one mark per round, coloured by its verdict.
function renderPlot(rounds) {
  const box = document.getElementById("plot");
  const scored = rounds.filter((r) => typeof r.total === "number");
  if (!scored.length) return clear(box);
  const W = 380, H = 150, L = 34, R = 34, T = 12, B = 28;
  const x = (n) => (rounds.length === 1 ? L + (W - L - R) / 2 : L + ((n - 1) * (W - L - R)) / (rounds.length - 1));
  const y = (v) => T + (H - T - B) * (1 - Math.max(0, Math.min(5, v)) / 5);
  const kids = [];
  for (let v = 0; v <= 5; v++) {
    kids.push(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    kids.push(svg("text", { x: L - 8, y: y(v) + 4, "text-anchor": "end", class: "tick" }, v));
  }
  if (scored.length > 1) kids.push(svg("polyline", { class: "trend", fill: "none",
    points: scored.map((r) => `${x(r.round)},${y(r.total)}`).join(" ") }));
  for (const r of rounds) {
    kids.push(svg("text", { x: x(r.round), y: H - 8, "text-anchor": "middle", class: "tick" }, `round ${r.round}`));
    if (typeof r.total !== "number") continue;
    kids.push(svg("circle", { cx: x(r.round), cy: y(r.total), r: 6, class: `mark v-${(r.verdict || "none").toLowerCase()}`,
                               "data-round": r.round, "data-total": r.total, "data-verdict": r.verdict || "" },
      svg("title", {}, `round ${r.round}: ${r.verdict || "not judged"} · total ${r.total}`)));
  }
  clear(box, svg("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", id: "score-plot",
                          "aria-label": `total score per round, ${rounds.length} rounds` }, kids));
}

// QA's frames of the round's play-through, in game-time order, each captioned with its game time and the
// input it is the first frame after; the contact sheet links from the heading
function filmstrip(r) {
  const film = r.filmstrip;
  if (!film || !film.frames.length) return null;
  const shown = film.frames.filter((f) => f.exists);
  return h("div", { class: "filmstrip-box" },
    h("p", { class: "dim" }, `Filmstrip: ${film.frames.length} frames of QA's play-through`,
      film.inputs.length ? ` (pressed ${film.inputs.join(", ")})` : "",
      film.sheet ? h("span", {}, " · ", h("a", { href: fileUrl(film.sheet), target: "_blank", rel: "noopener", text: "contact sheet" })) : null,
      shown.length < film.frames.length ? ` · ${film.frames.length - shown.length} no longer on disk` : ""),
    h("div", { class: "filmstrip", dataset: { round: r.round } }, shown.map((f) =>
      h("figure", {},
        h("img", { src: fileUrl(f.path), alt: `round ${r.round} frame at ${(f.t_ms / 1000).toFixed(2)} s`, loading: "lazy" }),
        h("figcaption", { class: "mono", text: `${(f.t_ms / 1000).toFixed(2)} s${f.after ? ` after ${f.after}` : ""}` })))));
}

function roundCard(r, all) {
  const q = r.qa;
  const shots = r.screenshots || [];
  const gone = shots.filter((s) => !s.exists);
  return h("details", { class: "round", dataset: { round: r.round, verdict: r.verdict || "" }, open: r.round === all.length || r.verdict !== "PASS" ? "" : null },
    h("summary", {},
      h("b", { text: `Round ${r.round}` }), " ",
      r.verdict ? badge(r.verdict, VERDICT_CLASS[r.verdict]) : badge("not judged", "plain"),
      r.severity ? badge(r.severity, "plain") : null,
      typeof r.total === "number" ? h("span", { class: "mono", text: ` total ${r.total}` }) : null,
      r.judge_verdict && r.judge_verdict !== r.verdict ? h("span", { class: "dim", text: ` (model said ${r.judge_verdict})` }) : null,
      h("span", { class: "dim", text: ` · ${r.files} files · ${clock(r.ts)}` })),
    r.scores.length ? h("table", { class: "dims" }, h("tbody", {}, r.scores.map((d) => h("tr", {},
      h("td", { text: d.dimension }),
      h("td", {}, h("span", { class: `src src-${d.source === "QA" ? "qa" : "model"}`, text: d.source === "QA" ? "measured · QA" : "judged · model" })),
      h("td", {}, h("span", { class: "bar small" }, h("span", { class: "fill", style: `width:${((d.score || 0) / 5) * 100}%` }))),
      h("td", { class: "mono", text: d.score === null ? "—" : d.score }),
      h("td", { class: "dim" }, d.note, d.corrected ? h("small", { text: ` · corrected ${d.corrected}` }) : null))))) : null,
    q ? h("p", { class: "qa-line" }, "QA ", yesno(q.ok), q.error ? h("span", { class: "err", text: ` ${q.error}` }) : null,
      Object.entries(q.facts).map(([k, v]) => h("span", { class: "dim" }, ` · ${k.replace(/_/g, " ")} `, yesno(v))),
      q.probes.length ? h("span", { class: "dim", text: ` · probes ${q.probes.filter((p) => p.ok).length}/${q.probes.length}` }) : null) : null,
    q && q.probes.some((p) => !p.ok) ? h("ul", { class: "errs" }, q.probes.filter((p) => !p.ok).map((p) =>
      h("li", {}, h("b", { text: p.id }), ` ${p.detail}`))) : null,
    r.corrections.length ? h("ul", { class: "corrections" }, r.corrections.map((c) => h("li", {},
      h("b", { text: c.rule }), ` ${c.field}: `, h("span", { class: "mono", text: `${show(c.before)} → ${show(c.after)}` })))) : null,
    r.feedback ? h("p", { class: "feedback", text: r.feedback }) : null,
    shots.length ? h("div", { class: "shots round-shots" }, shots.filter((s) => s.exists).map((s) =>
      h("a", { href: fileUrl(s.path), target: "_blank", rel: "noopener" },
        h("img", { src: fileUrl(s.path), alt: `round ${r.round} ${s.path}`, loading: "lazy" }),
        h("span", { class: "cap mono", text: s.path.split("/").pop() })))) : null,
    filmstrip(r),
    gone.length ? h("p", { class: "dim shots-gone", text: gone.some((s) => s.replaced_by)
      ? `QA's screenshots of this round (${gone.map((s) => s.path.split("/").pop()).join(", ")}) were replaced by round ${gone.find((s) => s.replaced_by).replaced_by}'s.`
      : `QA's screenshots of this round are no longer on disk.` }) : null,
    r.round > 1 ? h("button", { type: "button", class: "ghost small diff-btn", dataset: { round: r.round },
      onclick: () => showDiff(r.round) }, `Diff from round ${r.round - 1}`) : null);
}

function renderRounds(rounds) {
  rounds = rounds || [];
  document.getElementById("rounds-count").textContent = rounds.length ? `${rounds.length} round${rounds.length > 1 ? "s" : ""}` : "";
  renderPlot(rounds);
  clear(document.getElementById("rounds"), rounds.length ? rounds.slice().reverse().map((r) => roundCard(r, rounds))
    : [h("p", { class: "dim empty", text: "No round yet." })]);
}

async function showDiff(round) {
  const box = document.getElementById("diff");
  box.hidden = false;
  clear(box, h("p", { class: "dim", text: `Comparing round ${round - 1} with round ${round}…` }));
  let d;
  try { d = await apiGet(`${API}/diff?round=${round}`); } catch (e) {
    return clear(box, h("p", { class: "err", text: e.message }));
  }
  const head = h("div", { class: "card-head" }, h("h3", { text: `Game files, round ${d.from} → round ${d.round}` }),
    h("button", { type: "button", class: "ghost small", onclick: () => { box.hidden = true; } }, "Close"));
  if (d.note) return clear(box, head, h("p", { class: "dim", text: d.note }));
  clear(box, head,
    h("p", { class: "dim", text: `${d.files.length} file${d.files.length === 1 ? "" : "s"} changed, ${d.unchanged} unchanged` }),
    d.files.map((f) => h("div", { class: "diff-file", dataset: { path: f.path, status: f.status } },
      h("div", { class: "diff-name mono" }, h("b", { text: f.path }), ` · ${f.status}`,
        f.added !== undefined ? h("span", { class: "yes", text: ` +${f.added}` }) : null,
        f.removed !== undefined ? h("span", { class: "no", text: ` −${f.removed}` }) : null,
        f.note ? h("span", { class: "dim", text: ` · ${f.note}` }) : null),
      f.diff ? h("pre", { class: "diff-text" }, f.diff.split("\n").map((ln) => h("span", {
        class: ln.startsWith("+") && !ln.startsWith("+++") ? "add" : ln.startsWith("-") && !ln.startsWith("---") ? "del"
          : ln.startsWith("@@") ? "hunk" : "", text: ln + "\n" }))) : null)));
  box.scrollIntoView({ block: "nearest" });
}

// Re-render a panel only when its data changed: a busy session must not thrash the page.
const lastShown = {};
function changed(key, value) {
  const text = JSON.stringify(value === undefined ? null : value);
  if (lastShown[key] === text) return false;
  lastShown[key] = text;
  return true;
}

async function loadDetail() {
  const notice = document.getElementById("notice");
  let d;
  try { d = await apiGet(API); } catch (e) {
    notice.hidden = false; notice.className = "notice err"; notice.textContent = e.message; return false;
  }
  if (d.pending && d.rejected) {
    const r = d.rejected;
    notice.hidden = false;
    notice.className = "notice err rejected";
    notice.textContent = `The daemon rejected this pitch: ${r.reason || "(its reason is being written)"}. `
      + `The file is kept as ${r.file}; fix what it says and pitch again.`;
    renderPipeline({ phase: "rejected", stage: null });
    studio.rejected = r;
    return false;
  }
  if (d.pending) {
    notice.hidden = false;
    notice.className = "notice";
    notice.textContent = d.daemon && d.daemon.running
      ? "Waiting for the daemon to take the pitch from the inbox…"
      : "This session has not started. The pitch waits in inbox/ until a daemon runs: start one above, or run `crumb watch`.";
    renderPipeline({ phase: "planning", stage: null });
    return false;
  }
  Object.assign(panels, d);
  showDetail(panels);
  return true;
}

function showDetail(d) {
  if (d.summary === undefined) return;  // a session whose transcript has not appeared yet
  const notice = document.getElementById("notice");
  if (d.error) {
    notice.hidden = false; notice.className = "notice err"; notice.textContent = d.error;
  } else {
    notice.hidden = true;
  }
  const s = d.summary || {};
  const head = { ...s, budgets: undefined, pending: undefined, events: undefined, last_seq: undefined, state_hash: undefined,
    seal: d.seal };
  changed("head", head) && (renderHead({ ...s, seal: d.seal }), renderPipeline(s));
  changed("budgets", s.budgets) && renderBudgets(s.budgets);
  changed("scorecard", d.scorecard) && renderScorecard(d.scorecard);
  changed("spec", [d.spec_md, d.spec]) && renderSpec(d);
  changed("artifacts", d.artifacts) && renderArtifacts(d.artifacts);
  changed("shots", d.screenshots) && renderShots(d.screenshots);
  changed("logs", d.logs) && renderLogs(d.logs);
  changed("rounds", d.rounds) && renderRounds(d.rounds);
  renderPreview(d.game);
  const dl = document.getElementById("btn-download");
  dl.hidden = !d.game;
  dl.href = `${API}/download`;
  studio.phase = s.phase;
  studio.stage = s.stage;
  const where = s.phase === "done" ? "done" : s.stage || s.phase;
  if (studio.history[studio.history.length - 1] !== where) studio.history.push(where);
}

// ------------------------------------------------------------------ steering

const steerStatus = document.getElementById("steer-status");
async function steer(text) {
  steerStatus.className = "status";
  steerStatus.textContent = "Sending…";
  try {
    const res = await apiPost(`${API}/steer`, { text });
    steerStatus.textContent = `Sent to the session inbox as ${res.file}`;
    return true;
  } catch (e) {
    steerStatus.className = "status err";
    steerStatus.textContent = e.message;
    return false;
  }
}

document.getElementById("steer-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const input = document.getElementById("steer-text");
  if (await steer(input.value)) input.value = "";
});

for (const btn of document.querySelectorAll("[data-cmd]")) {
  btn.addEventListener("click", async () => {
    const input = document.getElementById("steer-text");
    let cmd = btn.dataset.cmd;
    const arg = input.value.trim();
    // /veto and /cancel take the text box as their reason, /redo as the role to run again
    const takes = cmd === "/veto" || cmd === "/cancel" || (cmd === "/redo" && /^[a-z]+$/.test(arg));
    if (takes && arg) cmd += " " + arg;
    if (await steer(cmd) && takes && arg) input.value = "";
  });
}

// ------------------------------------------------------------------ spec editor

// Saving drops the whole text in the session's inbox as a *.spec.md file: the daemon takes it as a
// person's edit of spec.md (a spec.update, or an error naming the line), as for any steering.
const specForm = document.getElementById("spec-form");
const specStatus = document.getElementById("spec-status");
document.getElementById("spec-edit").addEventListener("click", () => {
  document.getElementById("spec-text").value = specText || "";
  specForm.hidden = false;
  document.getElementById("spec").hidden = true;
  specStatus.textContent = "";
});
document.getElementById("spec-cancel").addEventListener("click", () => {
  specForm.hidden = true;
  document.getElementById("spec").hidden = false;
});
specForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  specStatus.className = "status";
  specStatus.textContent = "Sending…";
  try {
    const res = await apiPost(`${API}/spec`, { text: document.getElementById("spec-text").value });
    specStatus.textContent = `Sent to the session inbox as ${res.file}; the daemon takes it as your edit of spec.md.`;
    specForm.hidden = true;
    document.getElementById("spec").hidden = false;
  } catch (e) {
    specStatus.className = "status err";
    specStatus.textContent = e.message;
  }
});

// ------------------------------------------------------------------ start

(async function start() {
  await loadDetail();
  try { await loadLatestPage(); } catch (e) { /* no transcript yet: the stream will bring it */ }
  // Listening only now: the first stream must start after the first page. A tab opened in the
  // background (a middle-click in the list) opens none until it is shown.
  document.addEventListener("visibilitychange", onVisibility);
  if (document.visibilityState === "hidden") pauseStream(); else connect();
  // while the session has not started (or the daemon's reason for refusing it is still being written)
  whileVisible(() => {
    if (document.getElementById("notice").hidden === false && !(studio.rejected && studio.rejected.reason)) loadDetail();
  }, 1000);
})();
