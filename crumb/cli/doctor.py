"""`crumb doctor`: what can run here. Every registered harness (built-in or plugin): for one that drives
an executable, installed? signed in?; plugins that could not be loaded; the QA browser, the watch backend,
and which presets can run. Exit 0 when the default setup works.

"Signed in" is each harness's own guess (`Harness.signed_in`) from environment variables and the presence
of its credentials file; no credentials file is ever read (codex's config.toml is, for a provider it
names and that provider's key variable).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import click

from crumb.actors.base import Binding
from crumb.actors.harness import registry
from crumb.actors.harness.bindings import preset_names, resolve_bindings
from crumb.actors.harness.plugin import Harness
from crumb.actors.harness.preflight import label, why_not
from crumb.config import load_config
from crumb.protocol.names import ROLES

#: how long `<cli> --version` may take: Gemini CLI (Node, relaunching itself) took over 10 s on a busy machine
VERSION_TIMEOUT_S = 30


def agent(harness: Harness, env: dict[str, str]) -> dict[str, Any]:
    """One harness that drives an executable: installed? which version? signed in?"""
    path = harness.find(Binding(harness=harness.name), env)
    out: dict[str, Any] = {"installed": path is not None, "path": path, "package": registry.package_of(harness.name)}
    if path is None:
        out["fix"] = harness.install or "install it"
        return out
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT_S, env=env,
                              stdin=subprocess.DEVNULL)
        out["version"] = (proc.stdout.strip() or proc.stderr.strip()).splitlines()[0][:80] if proc.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, IndexError):
        out["version"] = None
    hit = harness.signed_in(env)
    out["signed_in"] = hit is not None
    out["how"] = hit or f"no sign-in found: {harness.credentials_hint()}"
    return out


def servers() -> dict[str, dict[str, Any]]:
    """The harnesses that drive no executable of their own (a model server, a command, the studio):
    what each is; whether one can run is checked per binding (presets, default)."""
    out: dict[str, dict[str, Any]] = {}
    for name, entry in registry.entries().items():
        if entry.cls.executable is None:
            out[name] = {"summary": entry.cls.summary, "package": entry.package}
    return out


def browser() -> dict[str, Any]:
    try:
        from crumb.qa.browser import find_chromium
    except ImportError as exc:  # pragma: no cover - QA ships with the package
        return {"ok": False, "error": f"QA is not installed: {exc}"}
    try:
        return {"ok": True, "path": str(find_chromium())}
    except Exception as exc:  # BrowserNotFound carries the one-line fix
        return {"ok": False, "error": str(exc)}


def watch_backend() -> dict[str, Any]:
    """The backend `crumb watch` will really use here, as a Watcher started on a scratch folder finds it:
    watchdog's own choice of Observer can differ (e.g. an older watchdog without the inotify layer CRUMB
    reads, where the daemon polls)."""
    import tempfile

    from crumb.daemon.watcher import Watcher

    try:
        with tempfile.TemporaryDirectory(prefix="crumb-doctor-") as scratch:
            watcher = Watcher(Path(scratch))
            try:
                watcher.start()
                backend = watcher.backend
            finally:
                watcher.stop()
    except OSError as exc:
        return {"ok": False, "error": f"cannot start a watcher: {exc}"}
    out: dict[str, Any] = {"ok": True, "backend": backend}
    limit = Path("/proc/sys/fs/inotify/max_user_watches")
    if limit.exists():
        out["max_user_watches"] = int(limit.read_text().split()[0])
    return out


def local_studio() -> dict[str, Any]:
    try:
        from crumb.actors.embedded.adapter import LocalAdapter  # noqa: F401
    except ImportError as exc:
        return {"ok": False, "error": f"the embedded studio cannot load: {exc}"}
    return {"ok": True}


def available(b: Binding, root: Path, env: dict[str, str], cache: dict[str, str | None], local: dict[str, Any]) -> str | None:
    """None when this binding can run here, else why not (the pre-flight check `crumb pitch` makes)."""
    if b.harness == "local":
        return None if local["ok"] else "embedded studio broken"
    key = f"{label(b)}\0{sorted(b.options.items())!r}"
    if key not in cache:
        problem = why_not(b, root, env)
        cache[key] = None if problem is None else f"{b.harness}: {problem[0]}"
    return cache[key]


def diagnose(root: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    env = dict(os.environ if env is None else env)
    agents = {name: agent(entry.cls(), env) for name, entry in registry.entries().items() if entry.cls.executable}
    local = local_studio()
    report: dict[str, Any] = {"agents": agents, "harnesses": servers(), "plugin_problems": registry.problems(),
                              "browser": browser(), "watch": watch_backend(), "local": local}
    cache: dict[str, str | None] = {}
    presets: dict[str, Any] = {}
    for name in preset_names(root):
        try:
            chains = resolve_bindings(root, preset=name, env={})
        except ValueError as exc:
            presets[name] = {"runnable": False, "missing": [str(exc)]}
            continue
        missing = sorted({why for role in ROLES if (why := available(chains[role][0], root, env, cache, local))})
        presets[name] = {"runnable": not missing, "missing": missing}
    report["presets"] = presets
    try:
        chains = resolve_bindings(root, env=env)
        missing = sorted({why for role in ROLES if (why := available(chains[role][0], root, env, cache, local))})
        preset = load_config(root).get("preset")
        report["default"] = {"preset": preset, "roles": {r: chains[r][0].harness for r in ROLES}, "missing": missing}
    except ValueError as exc:
        report["default"] = {"preset": None, "roles": {}, "missing": [str(exc)]}
    if not report["browser"]["ok"]:
        report["default"]["missing"].append("no browser for QA")
    report["ok"] = not report["default"]["missing"]
    return report


def render(r: dict[str, Any]) -> str:
    mark = {True: "ok ", False: "-- "}
    lines = ["agent CLIs:"]
    for name, a in r["agents"].items():
        plugin = f" [plugin {a['package']}]" if a.get("package") not in (None, registry.OWN) else ""
        if not a["installed"]:
            lines.append(f"  {mark[False]}{name:7} not installed ({a['fix']}){plugin}")
        else:
            lines.append(f"  {mark[bool(a['signed_in'])]}{name:7} {a.get('version') or '?'} at {a['path']}; {a['how']}{plugin}")
    lines.append("other harnesses:")
    for name, h in r["harnesses"].items():
        plugin = f" [plugin {h['package']}]" if h["package"] != registry.OWN else ""
        lines.append(f"  {name:9} {h['summary']}{plugin}")
    for problem in r["plugin_problems"]:
        lines.append(f"warning: {problem}")
    b = r["browser"]
    lines.append(f"browser:  {mark[b['ok']]}{b.get('path') or b.get('error')}")
    w = r["watch"]
    extra = f" (max_user_watches {w['max_user_watches']})" if "max_user_watches" in w else ""
    lines.append(f"watch:    {mark[w['ok']]}{w.get('backend') or w.get('error')}{extra}")
    lines.append(f"studio:   {mark[r['local']['ok']]}{r['local'].get('error') or 'embedded studio loads'}")
    lines.append("presets:")
    for name, p in r["presets"].items():
        lines.append(f"  {mark[p['runnable']]}{name:8} {'can run' if p['runnable'] else 'cannot run: ' + '; '.join(p['missing'])}")
    d = r["default"]
    roles = ", ".join(f"{k}={v}" for k, v in d["roles"].items())
    state = "works" if r["ok"] else "does NOT work: " + "; ".join(d["missing"])
    lines.append(f"default ({roles}): {state}")
    return "\n".join(lines)


@click.command("doctor")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def doctor(ctx: click.Context, as_json: bool) -> None:
    """Check agent CLIs, browser, watcher and presets; exit 1 when the default setup cannot run."""
    report = diagnose(ctx.obj["root"])
    click.echo(json.dumps(report, indent=2) if as_json else render(report))
    ctx.exit(0 if report["ok"] else 1)


COMMANDS = [doctor]
