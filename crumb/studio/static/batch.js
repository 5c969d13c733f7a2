"use strict";

// A batch's matrix, live: the stream sends the whole matrix at once and again each time runs.jsonl grows
// or a running cell's session moves (a running cell shows its phase and round, "qa r2").
const BID = meta("crumb-batch");
const STREAM = `${meta("crumb-stream")}/api/batches/${encodeURIComponent(BID)}/stream`;
const BUCKET_CLASS = { PASS: "ok", PARTIAL: "warn", FAIL: "bad", fallback: "warn fallback", failed: "bad",
                       unfinished: "run", missing: "plain" };
const batchState = (window.__batch = { updates: 0, matrix: null });

document.getElementById("bid").textContent = BID;
document.getElementById("report-link").href = `/b/${encodeURIComponent(BID)}/report`;

function cellView(c) {
  const label = c.bucket === "fallback" && c.verdict ? `fallback · ${c.verdict}`
    : c.bucket === "unfinished" && c.phase ? c.phase : c.bucket;
  const kids = [badge(label, BUCKET_CLASS[c.bucket] || "plain", c.error || undefined),
                c.rounds ? h("span", { class: "dim", text: ` r${c.rounds}` }) : null];
  const body = c.session ? h("a", { href: `/s/${encodeURIComponent(c.session)}` }, kids) : h("span", {}, kids);
  return h("td", { class: "mcell", dataset: { cell: c.cell, bucket: c.bucket, session: c.session || "" } }, body);
}

function render(m) {
  batchState.matrix = m;
  batchState.updates++;
  document.getElementById("bname").textContent = m.name ? `Batch ${m.batch} · ${m.name}` : `Batch ${m.batch}`;
  clear(document.getElementById("bcounts"), ["PASS", "PARTIAL", "FAIL", "fallback", "failed", "unfinished", "missing"]
    .filter((k) => m.counts[k]).map((k) => badge(`${m.counts[k]} ${k}`, BUCKET_CLASS[k])));
  const byKey = new Map(m.cells.map((c) => [`${c.pitch}|${c.setup}|${c.seed}`, c]));
  const head = h("tr", {}, h("th", { text: "pitch" }), h("th", { text: "seed" }),
    m.setups.map((s) => h("th", { class: "mono", text: s })));
  const rows = [];
  m.pitches.forEach((pitch, i) => {
    m.seeds.forEach((seed, j) => {
      rows.push(h("tr", {},
        j === 0 ? h("td", { class: "pitch", rowspan: m.seeds.length, text: `${i + 1}. ${pitch}` }) : null,
        h("td", { class: "dim", text: String(seed) }),
        m.setups.map((s) => cellView(byKey.get(`${i + 1}|${s}|${seed}`)))));
    });
  });
  clear(document.getElementById("matrix"), h("thead", {}, head), h("tbody", {}, rows));
}

function connect() {
  const live = document.getElementById("live");
  const source = new EventSource(STREAM);
  source.addEventListener("matrix", (msg) => {
    live.textContent = "live";
    live.className = "live on";
    render(JSON.parse(msg.data));
  });
  source.addEventListener("failure", (msg) => {
    live.textContent = JSON.parse(msg.data).error;
    live.className = "live off";
  });
  source.onerror = () => { live.textContent = "reconnecting"; live.className = "live off"; };
}

connect();
