// Shared helpers. Every piece of text goes in through textContent: nothing from a pitch, an agent
// or a game is ever parsed as HTML (the page CSP also forbids inline script).
"use strict";

const meta = (name) => (document.querySelector(`meta[name="${name}"]`) || {}).content || "";
const TOKEN = meta("crumb-token");

function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = String(v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style") el.style.cssText = v;  // CSSOM, allowed by the CSP (style attributes are not)
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function clear(el, ...children) { el.replaceChildren(...children.flat().filter(Boolean)); return el; }

async function apiGet(path) {
  const r = await fetch(path, { headers: { accept: "application/json" }, cache: "no-store" });
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

async function apiPost(path, payload) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-crumb-token": TOKEN },
    body: JSON.stringify(payload || {}),
  });
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

function ago(ts) {
  const t = Date.parse(ts);
  if (!t) return "";
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 60) return `${Math.round(s)}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return new Date(t).toLocaleDateString();
}

function clock(ts) {
  const d = new Date(ts);
  return isNaN(d) ? "" : d.toLocaleTimeString([], { hour12: false });
}

function bytes(n) {
  if (n === null || n === undefined) return "—";
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1048576).toFixed(1)} MiB`;
}

const PHASE_CLASS = {
  done: "ok", waiting: "warn", paused: "warn", damaged: "bad",
  planning: "run", researching: "run", building: "run", qa: "run", verifying: "run",
};
const VERDICT_CLASS = { PASS: "ok", PARTIAL: "warn", FAIL: "bad", REJECT: "bad" };

function badge(text, cls, title) {
  return text ? h("span", { class: `badge ${cls || ""}`, title }, text) : null;
}

function phaseBadge(row) {
  if (!row.phase) return null;
  let text = row.phase;
  if (row.phase === "done" && row.done && row.done.reason) text = `done · ${row.done.reason}`;
  if (row.phase === "done" && row.fallback) text += " · fallback";
  if (row.phase === "waiting" && row.waiting_for) text = `waiting for ${row.waiting_for}`;
  const cls = row.phase === "done" && row.fallback ? "warn" : PHASE_CLASS[row.phase] || "";
  return badge(text, cls, row.done && row.done.detail);
}

// The verdict badge: a verdict a fallback adapter earned never looks like the bound harness's own.
function verdictBadge(verdict, row, suffix) {
  if (!verdict) return null;
  const text = `${verdict}${suffix || ""}${row.fallback ? " · fallback" : ""}`;
  return badge(text, row.fallback ? "warn fallback" : VERDICT_CLASS[verdict], row.played_note || undefined);
}

// Who played: one line per role that has played, marked where the circuit swapped its harness.
function playedList(row) {
  const text = row.played_text || {};
  const roles = Object.keys(text);
  if (!roles.length) return null;
  return h("ul", { class: "played", "aria-label": "who played each role" }, roles.map((role) => {
    const fell = Boolean(((row.played || {})[role] || {}).fallback);
    return h("li", { class: fell ? "fallback" : "", dataset: { role, fallback: fell ? "1" : "0" } },
      h("span", { class: "role", text: role }), ` ${text[role]}`);
  }));
}

// The daemon indicator in the header: running or not, and a button to start one. The start request
// answers once the daemon holds the root (or has failed): its error stays shown until the next try.
function mountDaemon(el) {
  let failure = "";
  let busy = false;
  async function refresh(state) {
    if (busy && !state) return;
    try { state = state || await apiGet("/api/daemon"); } catch (e) { state = { error: e.message }; }
    const running = state.running;
    if (running) failure = "";
    const label = running ? `daemon running${state.pid ? " · pid " + state.pid : ""}`
      : state.starting ? `daemon starting · pid ${state.pid}` : "daemon stopped";
    const kids = [h("span", { class: `dot ${running ? "on" : "off"}` }), h("span", { text: label })];
    if (!running) {
      kids.push(h("button", { type: "button", class: "small", id: "daemon-start", onclick: async (ev) => {
        ev.target.disabled = true;
        ev.target.textContent = "Starting…";
        failure = "";
        busy = true;
        let next = null;
        try { next = await apiPost("/api/daemon/start"); } catch (e) { failure = e.message; }
        busy = false;
        await refresh(next);
      } }, "Start daemon"));
    }
    if (failure) kids.push(h("span", { class: "err", id: "daemon-error", text: failure }));
    clear(el, kids);
    el.dataset.running = running ? "1" : "0";
  }
  refresh();
  whileVisible(refresh, 4000);
  return refresh;
}

// Polling that a hidden tab skips (fifty open tabs must not cost fifty polls), catching up when shown.
function whileVisible(fn, ms) {
  setInterval(() => { if (document.visibilityState !== "hidden") fn(); }, ms);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState !== "hidden") fn(); });
}
