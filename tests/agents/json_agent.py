"""An agent for the `command` harness, as a third party would write one against command-contract.md:
reads CRUMB's JSON request on stdin, prints progress lines and the result as JSON on stdout. It is not a
stand-in for a vendor CLI: the `command` harness runs exactly such programs. Its "model" answers as the
fake servers do (answers.py), so a session bound to it passes real QA.

Behaviour from argv[1]: ok (default), error (an error object), exit3 (exit 3, message on stderr),
nothing (no result), pretty (the result pretty-printed over many lines), echo (payload = the request).
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from answers import GAME_HTML, auto_reply

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
request = json.loads(sys.stdin.read())
role = request["role"]
print(json.dumps({"progress": "thinking", "tool": "think"}), flush=True)
if mode == "error":
    print(json.dumps({"error": "the model refused"}))
    sys.exit(0)
if mode == "exit3":
    print("fatal: no credits left", file=sys.stderr)
    sys.exit(3)
if mode == "nothing":
    print("all done!")
    sys.exit(0)
if role == "builder":
    Path("index.html").write_text(GAME_HTML)
    print(json.dumps({"progress": "wrote", "files": ["index.html"]}), flush=True)
result = {"payload": auto_reply(role), "usage": {"model": "my-model", "tokens_in": 10, "tokens_out": 5, "cost_usd": 0.01}}
if mode == "echo":
    result["payload"] = {"notes": [json.dumps({k: request[k] for k in ("crumb", "role", "work_dir", "input")})[:1900],
                                   os.environ.get("CRUMB_ROLE", ""), str("# CRUMB role: builder" in request["prompt"]),
                                   str("properties" in request["answer_schema"])]}
print(json.dumps(result, indent=2 if mode == "pretty" else None))
