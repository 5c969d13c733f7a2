"""The steering grammar and pitch front matter, table-driven; every item validates as an event."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crumb.daemon.grammar import COMMANDS, MEASURED, PitchFile, front_matter_value, parse_pitch, parse_steering
from crumb.protocol.events import KINDS, InboxFile

SOURCE = InboxFile(name="steer.txt", sha256="0" * 64, bytes=1).model_dump()
#: what the daemon measures for a MEASURED item (a release: in versions/<name>/), never read from the line
MEASURES = {"release": {"path": "versions/v1", "build": "01JA0000000000000000000005", "files": 1,
                        "manifest_sha256": "0" * 64}}


def as_event(kind: str, data: dict[str, Any], line: int) -> None:
    """What the daemon does with an item: add source and line (and, for a MEASURED kind, what it
    measured; the line names only what to measure); the result must validate."""
    if kind in MEASURED:
        assert set(data) == {"name"}, data
    KINDS[kind].model_validate({**data, **MEASURES.get(kind, {}), "source": SOURCE, "line": line})


def test_every_measured_kind_has_its_measures() -> None:
    assert set(MEASURES) == set(MEASURED) and MEASURED <= {kind for kind, _, _ in COMMANDS.values()}


# ---------------------------------------------------------------- one line each

OK = [
    ("/approve", "user.approve", {}),
    ("  /approve  ", "user.approve", {}),
    ("/APPROVE", "user.approve", {}),
    ("/veto", "user.veto", {"reason": ""}),
    ("/veto the timer never ends", "user.veto", {"reason": "the timer never ends"}),
    ("/pause", "user.pause", {}),
    ("/pause @builder", "user.pause", {"actor": "builder"}),
    ("/pause verifier", "user.pause", {"actor": "verifier"}),
    ("/resume", "user.resume", {}),
    ("/resume @Planner", "user.resume", {"actor": "planner"}),
    ("/goto planner", "user.goto", {"actor": "planner"}),
    ("/goto @builder", "user.goto", {"actor": "builder"}),
    ("/swap builder=claude", "user.swap", {"actor": "builder", "harness": "claude"}),
    ("/swap builder=claude:sonnet", "user.swap", {"actor": "builder", "harness": "claude", "model": "sonnet"}),
    ("/swap verifier = ollama:qwen2.5-coder:7b", "user.swap",
     {"actor": "verifier", "harness": "ollama", "model": "qwen2.5-coder:7b"}),
    ("/append add a pause key", "user.append", {"text": "add a pause key"}),
    ("/append @builder add a pause key", "user.append", {"actor": "builder", "text": "add a pause key"}),
    ("/note the kids loved it", "user.note", {"text": "the kids loved it"}),
    ("/cancel", "user.cancel", {"reason": ""}),
    ("/cancel changed my mind", "user.cancel", {"reason": "changed my mind"}),
    ("/redo", "user.redo", {}),
    ("/redo builder", "user.redo", {"actor": "builder"}),
    ("/redo @verifier", "user.redo", {"actor": "verifier"}),
    ("/reset-circuit builder", "user.reset_circuit", {"actor": "builder"}),
    ("/reset-circuit all", "user.reset_circuit", {"actor": "all"}),
    ("/reset-circuit", "user.reset_circuit", {"actor": "all"}),
    ("/reset_circuit planner", "user.reset_circuit", {"actor": "planner"}),
    ("/budget fixes=6", "user.budget", {"name": "fixes", "value": 6.0}),
    ("/budget cost_usd=$2.50", "user.budget", {"name": "cost_usd", "value": 2.5}),
    ("/budget wall_s = 1800", "user.budget", {"name": "wall_s", "value": 1800.0}),
    ("/status", "user.status", {}),
    ("/release v2", "release", {"name": "v2"}),
    ("/RELEASE  jam-build_1.0", "release", {"name": "jam-build_1.0"}),
    ("@builder make the snake faster", "user.intervene", {"actor": "builder", "text": "make the snake faster"}),
    ("@Verifier be strict about the timer", "user.intervene", {"actor": "verifier", "text": "be strict about the timer"}),
    ("make the apples red", "user.intervene", {"text": "make the apples red"}),
    ("// not a command", "user.intervene", {"text": "// not a command"}),
    ("email me@example.com", "user.intervene", {"text": "email me@example.com"}),
]


@pytest.mark.parametrize(("line", "kind", "data"), OK, ids=[o[0].strip() for o in OK])
def test_each_command_and_message(line: str, kind: str, data: dict[str, Any]) -> None:
    items = parse_steering(line)
    assert items == [(kind, data, 1)]
    as_event(*items[0])


ERRORS = [
    ("/foo", ["unknown command /foo", "known commands are /approve", "/note for free text"]),
    ("/help me", ["unknown command /help"]),
    ("/", ["unknown command /"]),
    ("/approve now", ["/approve takes nothing", "/note"]),
    ("/status please", ["/status takes nothing"]),
    ("/pause @bob", ["unknown actor '@bob'", "planner, builder, verifier, researcher, qa"]),
    ("/pause builder planner", ["at most one actor"]),
    ("/resume @nobody", ["unknown actor"]),
    ("/goto", ["/goto needs exactly one actor", "e.g. /goto builder"]),
    ("/goto chef", ["unknown actor 'chef'"]),
    ("/swap builder", ["/swap needs actor=harness[:model]", "builder=claude:sonnet"]),
    ("/swap builder=", ["/swap needs actor=harness[:model]"]),
    ("/swap builder=claude:", ["/swap needs actor=harness[:model]"]),
    ("/swap =claude", ["/swap needs actor=harness[:model]"]),
    ("/swap cook=claude", ["unknown actor 'cook'"]),
    ("/swap builder=claude sonnet", ["/swap needs actor=harness[:model]"]),
    ("/append", ["/append needs text"]),
    ("/append @builder", ["/append needs text"]),
    ("/append @chef more salt", ["unknown actor '@chef'"]),
    ("/note", ["/note needs text"]),
    ("/redo chef", ["unknown actor 'chef'"]),
    ("/reset-circuit everything", ["unknown actor 'everything'", "or all"]),
    ("/reset-circuit a b", ["one actor or all"]),
    ("/budget", ["/budget needs name=value", "fixes"]),
    ("/budget fixes", ["/budget needs name=value"]),
    ("/budget money=5", ["unknown budget 'money'", "cost_usd"]),
    ("/budget fixes=lots", ["not a number"]),
    ("/budget fixes=-1", ["≥ 0"]),
    ("/budget fixes=nan", ["≥ 0"]),
    ("/release", ["/release needs the name of one version under versions/", "e.g. /release v2", "crumb release"]),
    ("/release v1 v2", ["/release needs the name of one version"]),
    ("/release ../etc", ["'../etc' in /release is not a version name", "e.g. /release v2"]),
    ("@chef more salt", ["unknown actor '@chef'", "planner"]),
    ("@builder", ["@builder needs a message"]),
]


@pytest.mark.parametrize(("line", "words"), ERRORS, ids=[e[0] for e in ERRORS])
def test_each_mistake_is_an_error_item_naming_the_fix(line: str, words: list[str]) -> None:
    items = parse_steering(line)
    assert len(items) == 1
    kind, data, no = items[0]
    assert (kind, no) == ("error", 1)
    assert "\n" not in data["message"]
    for word in words:
        assert word in data["message"], data["message"]
    as_event(kind, data, no)


def test_every_command_in_the_table_is_reachable() -> None:
    for command in COMMANDS:
        kind, data, _ = parse_steering(command + (" builder" if command == "/goto" else ""))[0]
        assert kind != "error" or "needs" in data["message"], (command, data)


# ---------------------------------------------------------------- whole files


def test_a_file_with_several_messages_keeps_order_and_line_numbers() -> None:
    text = (
        "/pause @builder\n"
        "The snake should wrap around the edges\n"
        "instead of dying on the wall.\n"
        "\n"
        "@verifier check the wrap-around\n"
        "on every side\n"
        "/veto not fun yet:\n"
        "too slow at the start\n"
        "/resume @builder\n"
        "/bogus\n"
        "last words\n"
    )
    assert parse_steering(text) == [
        ("user.pause", {"actor": "builder"}, 1),
        ("user.intervene", {"text": "The snake should wrap around the edges\ninstead of dying on the wall."}, 2),
        ("user.intervene", {"actor": "verifier", "text": "check the wrap-around\non every side"}, 5),
        ("user.veto", {"reason": "not fun yet:\ntoo slow at the start"}, 7),
        ("user.resume", {"actor": "builder"}, 9),
        ("error", {"message": parse_steering("/bogus")[0][1]["message"]}, 10),
        ("user.intervene", {"text": "last words"}, 11),
    ]


def test_commands_inside_a_code_fence_are_text() -> None:
    text = "/note see:\n```\n/approve\n@builder x\n```\n/status\n"
    items = parse_steering(text)
    assert items == [
        ("user.note", {"text": "see:\n```\n/approve\n@builder x\n```"}, 1),
        ("user.status", {}, 6),
    ]


def test_crlf_bom_and_blank_files() -> None:
    assert parse_steering("\ufeff/approve\r\nship it\r\n") == [
        ("user.approve", {}, 1),
        ("user.intervene", {"text": "ship it"}, 2),
    ]
    assert parse_steering("") == []
    assert parse_steering("\n\n   \n") == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("/@ab=:\n -_$.1") + ["approve", "veto", "swap", "budget", "builder", "fixes",
                                                           "note", "pause", "```", "all", "qa", "reset-circuit"]),
                max_size=40).map("".join))
def test_anything_parses_into_items_that_validate(text: str) -> None:
    for kind, data, line in parse_steering(text):
        assert kind == "error" or kind in KINDS
        assert 1 <= line <= text.count("\n") + 1
        if kind == "error":
            KINDS["error"].model_validate({**data, "line": line})
        else:
            as_event(kind, data, line)


# ---------------------------------------------------------------- pitches


PITCHES = [
    ("60-second snake", PitchFile(pitch="60-second snake")),
    ("\n\n  a breakout clone with power-ups  \n\n", PitchFile(pitch="a breakout clone with power-ups")),
    (
        "---\nsession: 01JABCDEFGHJKMNPQRSTVWXYZ0\npreset: local\nseed: 42\nfault: builder-crash\n"
        "planner: claude:sonnet\nbuilder: codex\nverifier: ollama:qwen2.5:7b\nresearcher: local\n---\n"
        "60-second snake\nwith a twist\n",
        PitchFile(
            pitch="60-second snake\nwith a twist",
            session="01JABCDEFGHJKMNPQRSTVWXYZ0",
            preset="local",
            seed=42,
            fault="builder-crash",
            bindings={"planner": "claude:sonnet", "builder": "codex", "verifier": "ollama:qwen2.5:7b",
                      "researcher": "local"},
        ),
    ),
    ("---\n# a comment\nPreset: 'fast'   \n\nseed: -3\n---\nflappy", PitchFile(pitch="flappy", preset="fast", seed=-3)),
    ('---\npreset: "local" # trailing comment\n---\nsnake', PitchFile(pitch="snake", preset="local")),
    ("\ufeff---\r\npreset: local\r\n---\r\nsnake\r\n", PitchFile(pitch="snake", preset="local")),
    ("a pitch that mentions --- dashes", PitchFile(pitch="a pitch that mentions --- dashes")),
    (  # `all` binds every role not named; a command takes its arguments, as `crumb pitch --role` writes them
        "---\nall: codex\nbuilder: command:./tools/agent --fast 'two words'\nverifier: 'command:./judge # x'\n---\nsnake",
        PitchFile(pitch="snake", bindings={"all": "codex", "builder": "command:./tools/agent --fast 'two words'",
                                              "verifier": "command:./judge # x"}),
    ),
]


@pytest.mark.parametrize(("text", "expected"), PITCHES, ids=range(len(PITCHES)))
def test_pitches_and_front_matter(text: str, expected: PitchFile) -> None:
    assert parse_pitch(text) == expected


PITCH_ERRORS = [
    ("", "the pitch is empty"),
    ("   \n\n", "the pitch is empty"),
    ("---\npreset: local\n---\n", "the pitch is empty"),
    ("---\npreset: local\nsnake\n", "never closed"),
    ("---\ncolour: red\n---\nsnake", "unknown front matter key 'colour'"),
    ("---\npreset local\n---\nsnake", "is not 'key: value'"),
    ("---\nseed: twelve\n---\nsnake", "not a whole number"),
    ("---\nseed: 1\nseed: 2\n---\nsnake", "given twice"),
    ("---\npreset:\n---\nsnake", "has no value"),
    ("---\nsession: ../../etc\n---\nsnake", "not a usable folder name"),
    ("---\npreset: a b\n---\nsnake", "not a preset name"),
    ("---\nbuilder: :sonnet\n---\nsnake", "not 'harness[:model]'"),
    ("---\nbuilder: claude sonnet\n---\nsnake", "not 'harness[:model]'"),
    ("---\nbuilder: command :./tool\n---\nsnake", "only a command takes spaces"),
    ("---\neveryone: codex\n---\nsnake", "unknown front matter key 'everyone'"),
]


@pytest.mark.parametrize("value", ["codex", "command:./a --fast", "command:./a # not a comment", "'quoted' start",
                                   '"double" start', "command:./a '#' \"x\"", "x #y"])
def test_front_matter_values_read_back_exactly_as_written(value: str) -> None:
    """What `crumb pitch` and the Studio write is what the daemon reads: ' #' and leading quotes survive."""
    assert parse_pitch(f"---\nfault: {front_matter_value(value)}\n---\nsnake").fault == value
    if value.startswith(("codex", "command:")):
        assert parse_pitch(f"---\nbuilder: {front_matter_value(value)}\n---\nsnake").bindings == {"builder": value}


@pytest.mark.parametrize(("value", "words"), [("a\npreset: x", "one front matter line"), (" padded", "outer spaces"),
                                              ("'a' \"b\" #c", "both quote characters")])
def test_a_value_one_front_matter_line_cannot_carry_is_refused(value: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        front_matter_value(value)


@pytest.mark.parametrize(("text", "words"), PITCH_ERRORS, ids=[w for _, w in PITCH_ERRORS])
def test_bad_front_matter_is_one_clear_line(text: str, words: str) -> None:
    with pytest.raises(ValueError) as err:
        parse_pitch(text)
    message = str(err.value)
    assert words in message and "\n" not in message
    assert ":" in message  # problem: fix
