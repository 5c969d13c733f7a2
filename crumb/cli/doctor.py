"""`crumb doctor`: what can run here. Agent CLIs (installed? signed in?), the QA browser, the watch
backend, local model servers, and which presets can run. Exit 0 when the default setup works.

"Signed in" is a guess from environment variables and the presence of each CLI's credentials file;
no credentials file is ever read (codex's config.toml is, for a provider it names and that provider's key variable).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import click

from crumb.actors.base import Binding
from crumb.actors.harness.bindings import (
    ROLES,
    load_config,
    preset_names,
    resolve_bindings,
)
from crumb.actors.harness.common import find_executable
from crumb.actors.harness.preflight import INSTALL, label, why_not
from crumb.actors.harness.private_home import codex_provider

#: per CLI: env vars holding a key or token, and credential files (relative to HOME) whose presence means signed in
SIGN_IN: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "claude": (("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN"), (".claude/.credentials.json",)),
    "codex": (("CODEX_API_KEY", "OPENAI_API_KEY"), (".codex/auth.json",)),
    "gemini": (("GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI"), (".gemini/oauth_creds.json",)),
}

#: how long `<cli> --version` may take: Gemini CLI (Node, relaunching itself) took over 10 s on a busy machine
VERSION_TIMEOUT_S = 30


def agent(name: str, env: dict[str, str]) -> dict[str, Any]:
    path = find_executable(name, env)
    out: dict[str, Any] = {"installed": path is not None, "path": path}
    if path is None:
        out["fix"] = INSTALL[name]
        return out
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT_S, env=env,
                              stdin=subprocess.DEVNULL)
        out["version"] = (proc.stdout.strip() or proc.stderr.strip()).splitlines()[0][:80] if proc.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, IndexError):
        out["version"] = None
    variables, files = SIGN_IN[name]
    home = Path(env.get("HOME") or Path.home())
    if name == "codex" and env.get("CODEX_HOME"):
        files = (str(Path(env["CODEX_HOME"]) / "auth.json"),)
    hit = next((f"${v} is set" for v in variables if env.get(v)), None) or next(
        (f"{f} exists" for f in files if (home / f).exists()), None
    ) or (codex_sign_in(env) if name == "codex" else None)
    out["signed_in"] = hit is not None
    out["how"] = hit or f"no sign-in found: run `{name}` once and log in, or set {variables[0]}"
    return out


def codex_sign_in(env: dict[str, str]) -> str | None:
    """How a Codex that signs in through a provider of its config.toml does so, if it does (a key in the
    provider's env_key variable, or a provider that needs none, such as a local server)."""
    found = codex_provider(env)
    if found is None:
        return None
    name, provider = found
    key = provider.get("env_key")
    if not key:
        return f"provider {name!r} in config.toml (no key needed)"
    return f"provider {name!r} in config.toml, ${key} is set" if env.get(str(key)) else None


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
    try:
        from watchdog.observers import Observer
    except ImportError as exc:
        return {"ok": False, "error": str(exc)}
    out: dict[str, Any] = {"ok": True, "backend": getattr(Observer, "__name__", str(Observer))}
    limit = Path("/proc/sys/fs/inotify/max_user_watches")
    if limit.exists():
        out["max_user_watches"] = int(limit.read_text().split()[0])
    return out


def local_studio() -> dict[str, Any]:
    try:
        from crumb.actors.local.adapter import LocalAdapter  # noqa: F401
    except ImportError as exc:
        return {"ok": False, "error": f"the offline studio cannot load: {exc}"}
    return {"ok": True}


def available(b: Binding, root: Path, env: dict[str, str], cache: dict[str, str | None], local: dict[str, Any]) -> str | None:
    """None when this binding can run here, else why not (the pre-flight check `crumb pitch` makes)."""
    if b.harness == "local":
        return None if local["ok"] else "offline studio broken"
    key = f"{label(b)}\0{sorted(b.options.items())!r}"
    if key not in cache:
        problem = why_not(b, root, env)
        cache[key] = None if problem is None else f"{b.harness}: {problem[0]}"
    return cache[key]


def diagnose(root: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    env = dict(os.environ if env is None else env)
    agents = {name: agent(name, env) for name in ("claude", "codex", "gemini")}
    local = local_studio()
    report: dict[str, Any] = {"agents": agents, "browser": browser(), "watch": watch_backend(), "local": local}
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
        if not a["installed"]:
            lines.append(f"  {mark[False]}{name:7} not installed ({a['fix']})")
        else:
            lines.append(f"  {mark[bool(a['signed_in'])]}{name:7} {a.get('version') or '?'} at {a['path']}; {a['how']}")
    b = r["browser"]
    lines.append(f"browser:  {mark[b['ok']]}{b.get('path') or b.get('error')}")
    w = r["watch"]
    extra = f" (max_user_watches {w['max_user_watches']})" if "max_user_watches" in w else ""
    lines.append(f"watch:    {mark[w['ok']]}{w.get('backend') or w.get('error')}{extra}")
    lines.append(f"studio:   {mark[r['local']['ok']]}{r['local'].get('error') or 'offline studio loads'}")
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
