"use strict";

const daemonRefresh = mountDaemon(document.getElementById("daemon"));

function card(row) {
  const url = `/s/${encodeURIComponent(row.session)}`;
  const thumb = row.thumbnail
    ? h("img", { src: `/api/sessions/${row.session}/file/${row.thumbnail.split("/").map(encodeURIComponent).join("/")}`,
                 alt: "", loading: "lazy" })
    : h("div", { class: "thumb-empty", text: (row.genre || "…").slice(0, 12) });
  return h("a", { class: "session", href: url, dataset: { session: row.session } },
    h("div", { class: "thumb" }, thumb),
    h("div", { class: "info" },
      h("div", { class: "name", text: row.title || row.pitch || "(untitled)" }),
      row.title && row.pitch ? h("div", { class: "sub", text: row.pitch }) : null,
      h("div", { class: "badges" },
        phaseBadge(row),
        verdictBadge(row.verdict, row),
        badge(row.genre, "plain"),
        row.round ? badge(`round ${row.round}`, "plain") : null),
      row.played_note ? h("div", { class: `played-note${row.fallback ? " fallback" : ""}`, text: row.played_note }) : null,
      Object.keys(row.roles || {}).length ? h("ul", { class: "roles", "aria-label": "who plays each role" },
        Object.entries(row.roles).map(([role, who]) => h("li", { dataset: { role } }, h("span", { class: "role", text: role }), ` ${who}`))) : null,
      h("div", { class: "facts dim" },
        row.cost_usd !== undefined ? h("span", { class: "cost", text: `$${Number(row.cost_usd || 0).toFixed(4)}` }) : null,
        row.tokens ? h("span", { text: ` · ${row.tokens} tokens` }) : null,
        row.duration_s !== undefined && row.duration_s !== null ? h("span", { class: "duration", text: ` · ${duration(row.duration_s)}` }) : null,
        row.started ? h("span", { text: ` · ${ago(row.started)}` }) : null),
      h("div", { class: "id mono", text: row.session }),
      row.error ? h("div", { class: "err", text: row.error }) : null));
}

function duration(s) {
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

// Filters and search run on the server (over every session, not only the loaded page).
function filterQuery() {
  const p = new URLSearchParams();
  const q = document.getElementById("filter-q").value.trim();
  if (q) p.set("q", q);
  const st = document.getElementById("filter-state").value;
  if (st) p.set(st.split(":")[0], st.split(":")[1]);
  const g = document.getElementById("filter-genre").value.trim();
  if (g) p.set("genre", g);
  const hs = document.getElementById("filter-harness").value;
  if (hs) p.set("harness", hs);
  const text = p.toString();
  return text ? `&${text}` : "";
}
let filterKey = "";
function refilter() {
  const key = filterQuery();
  if (key === filterKey) return;
  filterKey = key;
  rows = [];
  nextCursor = null;
  lastList = "";
  loadSessions();
}
let filterTimer = null;
for (const id of ["filter-q", "filter-genre"]) {
  document.getElementById(id).addEventListener("input", () => { clearTimeout(filterTimer); filterTimer = setTimeout(refilter, 200); });
}
for (const id of ["filter-state", "filter-harness"]) document.getElementById(id).addEventListener("change", refilter);
document.getElementById("filters").addEventListener("submit", (ev) => { ev.preventDefault(); refilter(); });
document.getElementById("filter-clear").addEventListener("click", () => {
  for (const id of ["filter-q", "filter-genre", "filter-state", "filter-harness"]) document.getElementById(id).value = "";
  refilter();
});

// The list is paged, newest first: the top (up to REFRESH_MAX rows) is refreshed every 2 s, and
// "Load older sessions" fetches the page before the oldest row shown (by id, so new sessions
// arriving at the top never shift it). Rows past REFRESH_MAX keep the state they were loaded with.
const PAGE = 100;
const REFRESH_MAX = 1000;
let rows = [];
let nextCursor = null;
let total = 0;
let lastList = "";

function renderSessions() {
  const key = JSON.stringify([rows, nextCursor, total]);
  if (key === lastList) return;
  lastList = key;
  document.getElementById("count").textContent = total
    ? (rows.length < total ? `(${rows.length} of ${total})` : `(${total})`) : "";
  clear(document.getElementById("sessions"), rows.length ? rows.map(card)
    : [h("p", { class: "dim empty", text: filterKey ? "No session matches these filters."
        : "No sessions yet. Pitch a game above, or drop a text file in inbox/." })]);
  document.getElementById("more").hidden = !nextCursor;
}

async function loadSessions() {
  try {
    const asked = filterKey;
    const data = await apiGet(`/api/sessions?limit=${Math.min(Math.max(rows.length, PAGE), REFRESH_MAX)}${asked}`);
    if (asked !== filterKey) return;  // the filters changed while this page was on its way
    const fresh = data.sessions;
    const oldest = fresh.length ? fresh[fresh.length - 1].session : null;
    const older = oldest ? rows.filter((r) => r.session < oldest) : [];
    rows = fresh.concat(older);
    if (!older.length) nextCursor = data.next;
    total = data.total;
    renderSessions();
  } catch (e) {
    lastList = "";
    clear(document.getElementById("sessions"), h("p", { class: "err", text: `Could not list sessions: ${e.message}` }));
  }
}

document.getElementById("more").addEventListener("click", async (ev) => {
  ev.target.disabled = true;
  try {
    const data = await apiGet(`/api/sessions?before=${encodeURIComponent(nextCursor)}&limit=${PAGE}${filterKey}`);
    const have = new Set(rows.map((r) => r.session));
    rows = rows.concat(data.sessions.filter((r) => !have.has(r.session)));
    nextCursor = data.next;
    total = data.total;
    renderSessions();
  } catch (e) {
    document.getElementById("more-status").textContent = `Could not load older sessions: ${e.message}`;
  } finally {
    ev.target.disabled = false;
  }
});

async function loadPresets() {
  const data = await apiGet("/api/presets");
  // "default" writes no preset line: crumb.toml (or the agent CLI the daemon runs in) decides, as for `crumb pitch`
  const byDefault = h("option", { value: "", title: "what `crumb pitch` without --preset gets: crumb.toml, "
    + "else the agent CLI the daemon runs inside, else local" }, data.default ? `default (${data.default})` : "default");
  const hsel = document.getElementById("filter-harness");
  if (hsel.options.length <= 1) hsel.append(...data.harnesses.map((x) => h("option", { value: x }, x)));
  clear(document.getElementById("preset"), byDefault, data.presets.map((p) => h("option", { value: p }, p)));
  clear(document.getElementById("bindings"), data.roles.map((role) =>
    h("label", { class: "binding" }, h("span", { text: role }),
      h("select", { name: `harness-${role}`, dataset: { role } },
        h("option", { value: "" }, "preset default"),
        data.harnesses.map((x) => h("option", { value: x }, x))),
      h("input", { name: `model-${role}`, dataset: { role }, placeholder: "model (optional)" }))));
}

document.getElementById("pitch-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const status = document.getElementById("pitch-status");
  const bindings = {};
  for (const sel of document.querySelectorAll("#bindings select")) {
    if (!sel.value) continue;
    const model = document.querySelector(`#bindings input[data-role="${sel.dataset.role}"]`).value.trim();
    bindings[sel.dataset.role] = model ? `${sel.value}:${model}` : sel.value;
  }
  const btn = document.getElementById("pitch-submit");
  btn.disabled = true;
  status.className = "status";
  status.textContent = "Sending…";
  try {
    const res = await apiPost("/api/pitch", {
      pitch: document.getElementById("pitch").value,
      preset: document.getElementById("preset").value || null,
      bindings,
      allow_fallback: document.getElementById("allow-fallback").checked,
    });
    status.textContent = `Pitched as ${res.file}; opening the session…`;
    location.assign(`/s/${encodeURIComponent(res.session)}`);
  } catch (e) {
    status.className = "status err";
    status.textContent = e.message;
    btn.disabled = false;
  }
});

// Batches (crumb batch): one row each, linking to its live matrix and report. Hidden while there are none.
const BATCH_ORDER = [["PASS", "ok"], ["PARTIAL", "warn"], ["FAIL", "bad"], ["fallback", "warn fallback"],
                     ["failed", "bad"], ["unfinished", "run"], ["missing", "plain"]];
let lastBatches = "";
async function loadBatches() {
  let data;
  try { data = await apiGet("/api/batches"); } catch (e) { return; }
  const key = JSON.stringify(data.batches);
  if (key === lastBatches) return;
  lastBatches = key;
  document.getElementById("batches-section").hidden = !data.batches.length;
  document.getElementById("batch-count").textContent = data.batches.length ? `(${data.batches.length})` : "";
  clear(document.getElementById("batches"), data.batches.map((b) =>
    h("a", { class: "batch-row", href: `/b/${encodeURIComponent(b.batch)}`, dataset: { batch: b.batch } },
      h("span", { class: "mono", text: b.batch }),
      b.name ? h("span", { text: b.name }) : null,
      h("span", { class: "dim", text: `${b.cells} cells` }),
      BATCH_ORDER.filter(([k]) => b.counts[k]).map(([k, cls]) => badge(`${b.counts[k]} ${k}`, cls)),
      b.error ? h("span", { class: "err", text: b.error }) : null)));
}

loadBatches();
whileVisible(loadBatches, 4000);
loadPresets().catch((e) => { document.getElementById("pitch-status").textContent = e.message; });
loadSessions();
whileVisible(loadSessions, 2000);
