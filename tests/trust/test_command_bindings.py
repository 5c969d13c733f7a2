"""Only a person at the machine makes CRUMB run a program: `command:` bindings from the Studio's API, from
a pitch file nobody granted and from a `/swap` are refused unless crumb.toml's allow-list names them; the
grammars refuse tabs and other control characters where they refuse spaces."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import httpx
import pytest

from crumb.daemon import grammar
from crumb.dispatcher.dispatch import Dispatcher
from crumb.reducer.effects import from_data
from crumb.store import paths
from crumb.store.reader import read_events
from crumb.studio.server import Studio
from tests.daemon.conftest import RunningDaemon, drop, events, sessions
from tests.studio.conftest import client, post_headers, studio  # noqa: F401  (fixtures)
from tests.studio.scripted import Scripted
from tests.wait import wait_until

EVIL = "command:/bin/sh -c 'touch /tmp/crumb-pwned'"
ALLOW = '[security]\nallow_commands = ["/bin/sh -c \'touch /tmp/crumb-pwned\'"]\n'


def test_the_studio_api_refuses_a_command_binding_unless_allow_listed(studio: Studio, client: httpx.Client,  # noqa: F811
                                                                        root: Path) -> None:
    r = client.post("/api/pitch", json={"pitch": "a snake game", "bindings": {"builder": EVIL}},
                    headers=post_headers(studio))
    assert r.status_code == 400 and "allow_commands" in r.text and "the Studio" in r.text, r.text
    assert not list((root / "inbox").glob("studio-pitch-*"))
    (root / "crumb.toml").write_text(ALLOW)
    r = client.post("/api/pitch", json={"pitch": "a snake game", "bindings": {"builder": EVIL}},
                    headers=post_headers(studio))
    assert r.status_code == 201, r.text


def test_a_pitch_file_with_an_ungranted_command_is_rejected_with_the_fix(root: Path) -> None:
    with RunningDaemon(root, None):
        drop(root / "inbox", "idea.md", f"---\nbuilder: {EVIL}\n---\nsnake\n")
        why = root / "inbox" / "rejected" / "idea.md.why.txt"
        wait_until(why.exists, 30, "the rejection note")
    assert "allow_commands" in why.read_text() and "a pitch file" in why.read_text()
    assert sessions(root) == []


def test_crumb_pitch_at_the_machine_grants_its_own_command(root: Path) -> None:
    from tests.daemon.conftest import crumb

    done = crumb(root, "pitch", "--role", f"planner={EVIL}", "a snake game")
    assert done.returncode == 0, done.stderr
    with RunningDaemon(root, None):
        wait_until(lambda: sessions(root) and events(root, sessions(root)[0], "session.start"), 30, "the session")
    start = events(root, sessions(root)[0], "session.start")[0]
    assert json.dumps(start["data"]["bindings"]).count("crumb-pwned") >= 1
    assert not list((root / "inbox" / "rejected").glob("*")) if (root / "inbox" / "rejected").exists() else True


def test_a_swap_to_an_unlisted_command_fails_the_effect_and_runs_nothing(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "inbox").mkdir(parents=True)
    marker = tmp_path / "ran"
    agent = tmp_path / "agent"
    agent.write_text(f"#!{sys.executable}\nopen({str(marker)!r}, 'w').write('x')\n")
    agent.chmod(0o755)
    s = Scripted(root)
    s.start()
    effect = s.pending("run_actor", "planner")
    swapped = {**effect, "binding": {"harness": f"command:{agent}", "origin": "user"}}
    dispatcher = Dispatcher(root, workers=1)
    try:
        dispatcher.execute(s.session, from_data(swapped), s.state.settings)
    finally:
        dispatcher.shutdown()
    failed = [e for e in read_events(paths.transcript_path(root, s.session)) if e["kind"] == "effect.failed"]
    assert failed and "allow_commands" in failed[-1]["data"]["error"], failed
    assert not marker.exists(), "the swapped-in command ran"


@pytest.mark.parametrize("odd", ["\t", "\x0b", "\x0c", "\x1b", "\u00a0", "\u2003", "\x7f"])
def test_grammars_refuse_every_whitespace_and_control_character_where_they_refuse_spaces(odd: str) -> None:
    [(kind, data, _)] = grammar.parse_steering(f"/swap builder=command:/bin/sh{odd}-c{odd}id\n")
    assert kind == "error" and "actor=harness" in data["message"], (kind, data)
    with pytest.raises(ValueError, match="harness"):
        grammar.parse_pitch(f"---\nbuilder: command:/bin/sh{odd}-c{odd}id\n---\nsnake\n")
    with pytest.raises(ValueError, match="harness"):
        grammar.parse_pitch(f"---\nbuilder: claude:son{odd}net\n---\nsnake\n")
