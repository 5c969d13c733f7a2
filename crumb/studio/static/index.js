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
        badge(row.verdict, VERDICT_CLASS[row.verdict]),
        badge(row.genre, "plain"),
        row.round ? badge(`round ${row.round}`, "plain") : null),
      h("div", { class: "id mono", text: row.session }),
      row.error ? h("div", { class: "err", text: row.error }) : null));
}

let lastList = "";
async function loadSessions() {
  const box = document.getElementById("sessions");
  try {
    const data = await apiGet("/api/sessions");
    const key = JSON.stringify(data.sessions);
    if (key !== lastList) {
      lastList = key;
      document.getElementById("count").textContent = data.sessions.length ? `(${data.sessions.length})` : "";
      clear(box, data.sessions.length ? data.sessions.map(card)
        : [h("p", { class: "dim empty", text: "No sessions yet. Pitch a game above, or drop a text file in inbox/." })]);
    }
  } catch (e) {
    clear(box, h("p", { class: "err", text: `Could not list sessions: ${e.message}` }));
  }
}

async function loadPresets() {
  const data = await apiGet("/api/presets");
  // "default" writes no preset line: crumb.toml (or the agent CLI the daemon runs in) decides, as for `crumb pitch`
  const byDefault = h("option", { value: "", title: "what `crumb pitch` without --preset gets: crumb.toml, "
    + "else the agent CLI the daemon runs inside, else local" }, data.default ? `default (${data.default})` : "default");
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
    });
    status.textContent = `Pitched as ${res.file}; opening the session…`;
    location.assign(`/s/${encodeURIComponent(res.session)}`);
  } catch (e) {
    status.className = "status err";
    status.textContent = e.message;
    btn.disabled = false;
  }
});

loadPresets().catch((e) => { document.getElementById("pitch-status").textContent = e.message; });
loadSessions();
setInterval(loadSessions, 2000);
