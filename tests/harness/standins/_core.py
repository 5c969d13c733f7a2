"""Shared behaviour of the stand-in agent CLIs (claude, codex, gemini) used by CRUMB's tests.

A stand-in is driven by the JSON control file named in $CRUMB_STANDIN_CONTROL:

  mode    "ok" (default) | "hang" (print one line, then nothing) | "hang_silent" | "hang_child"
          (start a child that sleeps, then hang) | "garbage" (non-JSON output, exit 0) | "flood"
          (endless output) | "error:<kind>" (a documented failure of that CLI, see each stand-in)
  reply   the agent's final answer (object or text); default: a valid answer for the role found
          in the prompt ("# CRUMB role: <role>")
  files   {"path": "content"} to write in the cwd; "auto" = the Tap Dash game; default "auto"
          for builders, none otherwise
  usage   {"input_tokens": n, "output_tokens": n, "cost_usd": x}
  tools   number of extra tool-call events to print (progress throttling)
  record  a path: argv, stdin, cwd and selected environment are written there as JSON
  calls   a list of controls used one per invocation (the last repeats): fail, fail, ok ...
  per     {"claude": {...}, "codex": {...}}: controls for one stand-in only (applied last), so one
          session can have a failing builder CLI and a working verifier CLI
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ENV_KEYS = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "IS_SANDBOX", "CRUMB_ROLE", "HOME")


def control() -> dict[str, Any]:
    path = os.environ.get("CRUMB_STANDIN_CONTROL")
    if not path:
        return {}
    data = json.loads(Path(path).read_text())
    calls = data.get("calls")
    if calls:
        counter = Path(path + ".count")
        n = int(counter.read_text()) if counter.exists() else 0
        counter.write_text(str(n + 1))
        data = {**data, **calls[min(n, len(calls) - 1)]}
    return {**data, **(data.get("per") or {}).get(Path(sys.argv[0]).name, {})}


def record(ctl: dict[str, Any], argv: list[str], stdin: str, **extra: Any) -> None:
    path = ctl.get("record")
    if not path:
        return
    entry = {
        "argv": argv,
        "stdin": stdin,
        "cwd": os.getcwd(),
        "env": {k: os.environ[k] for k in ENV_KEYS if k in os.environ},
        "pid": os.getpid(),
        **extra,
    }
    with open(path, "a") as fh:
        fh.write(json.dumps(entry) + "\n")


def role_of(prompt: str) -> str:
    for line in prompt.splitlines():
        if line.startswith("# CRUMB role:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def spec() -> dict[str, Any]:
    return {
        "title": "Tap Dash",
        "genre": "clicker",
        "pitch": "tap the dot as often as you can in 30 seconds",
        "core_loop": "A dot appears; press Space or click to score and move it.",
        "controls": {"keys": ["Enter", " "], "pointer": "click the dot", "touch": "tap the dot"},
        "win": "reach 20 points", "lose": "time runs out",
        "numbers": {"time_limit_s": 30, "target_score": 20},
        "criteria": [
            {"id": "starts", "text": "Enter starts the round",
             "probe": {"steps": [{"do": "start"}], "expect": [{"path": "phase", "op": "==", "value": "playing"}]}},
            {"id": "scores", "text": "Space scores a point",
             "probe": {"steps": [{"do": "start"}, {"do": "key", "key": " "}, {"do": "key", "key": " "}],
                       "expect": [{"path": "score", "op": "increased"}]}},
            {"id": "timer", "text": "The round ends after 30 seconds",
             "probe": {"steps": [{"do": "start"}, {"do": "wait", "ms": 31000}],
                       "expect": [{"path": "phase", "op": "in", "value": ["over", "won"]}]}},
        ],
        "seed": 7,
    }


def auto_reply(role: str) -> Any:
    if role == "planner":
        return {"spec": spec()}
    if role == "builder":
        return {"notes": ["wrote index.html (Tap Dash)"]}
    if role == "verifier":
        qa_id = "qa"
        try:
            qa_id = json.loads(Path("input.json").read_text())["qa"]["id"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
        dims = {d: {"score": 4.0, "evidence": [qa_id]} for d in ("goal_fit", "runs", "controls", "rules", "visuals", "performance")}
        return {"judge": {"verdict": "PASS", "scores": dims, "total": 4.0, "feedback": "plays as pitched", "evidence": [qa_id]}}
    if role == "researcher":
        return {"evidence": {"items": [{"id": "r1", "source": "knowledge", "title": "Clickers", "text": "Short rounds."}]}}
    return {"note": "no role found in the prompt"}


def reply_text(reply: Any) -> str:
    if isinstance(reply, str):
        return reply
    return "Done.\n\n```json\n" + json.dumps(reply) + "\n```\n"


def files_for(ctl: dict[str, Any], role: str) -> dict[str, str]:
    files = ctl.get("files", "auto" if role == "builder" else None)
    if files == "auto":
        return {"index.html": (HERE / "game.html").read_text()}
    return dict(files or {})


def write_files(files: dict[str, str]) -> list[str]:
    out = []
    for rel, content in files.items():
        path = Path(rel)
        path.parent.mkdir(parents=True, exist_ok=True) if str(path.parent) not in ("", ".") else None
        path.write_text(content)
        out.append(str(path.resolve()))
    return out


def hang(ctl: dict[str, Any], first_line: str | None) -> None:
    """Print a line (or nothing), optionally start a sleeping child in our group, then never finish."""
    if first_line:
        print(first_line, flush=True)
    if ctl.get("mode") == "hang_child":
        child = subprocess.Popen([sys.executable, "-c", "import time\nwhile True: time.sleep(1)"])
        rec = ctl.get("record")
        if rec:
            with open(rec, "a") as fh:
                fh.write(json.dumps({"child_pid": child.pid, "pid": os.getpid()}) + "\n")
    while True:
        time.sleep(3600)


def garbage() -> None:
    print("Welcome! \x1b[32m✓\x1b[0m loading…", flush=True)
    print("{not json at all", flush=True)
    print("<html>502 Bad Gateway</html>", flush=True)
    sys.exit(0)


def flood() -> None:
    line = ("x" * 1023 + "\n").encode()
    out = sys.stdout.buffer
    try:
        while True:
            out.write(line * 64)
    except BrokenPipeError:
        sys.exit(1)


def common_modes(ctl: dict[str, Any], first_line: str | None) -> None:
    mode = ctl.get("mode", "ok")
    if mode in ("hang", "hang_child"):
        hang(ctl, first_line)
    if mode == "hang_silent":
        hang(ctl, None)
    if mode == "garbage":
        garbage()
    if mode == "flood":
        flood()


def read_stdin() -> str:
    if sys.stdin is None or sys.stdin.isatty():
        return ""
    try:
        return sys.stdin.read()
    except OSError:
        return ""
