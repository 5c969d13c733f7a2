"""Binding precedence: CLI flag > crumb.toml > preset > ambient > fallback (local), with origins."""

from __future__ import annotations

from pathlib import Path

import pytest

from crumb.actors.base import Binding
from crumb.actors.harness import (
    chains_as_data,
    chains_from_data,
    load_preset,
    resolve_bindings,
)
from crumb.actors.harness.bindings import ROLES, check_flags, parse_binding, preset_names, rooted

REPO = Path(__file__).resolve().parents[2]
PACKAGED = REPO / "crumb" / "actors" / "harness" / "presets"
SHIPPED = {"local", "claude", "codex", "gemini", "cross", "ollama", "cross-local"}


@pytest.fixture
def root(tmp_path):
    return tmp_path


def primary(chains, role="builder"):
    b = chains[role][0]
    return b.harness, b.model, b.origin


def with_claude_on_path(tmp_path):
    bin_dir = tmp_path / "ambient-bin"
    bin_dir.mkdir(exist_ok=True)
    for name in ("claude", "codex", "gemini"):
        exe = bin_dir / name
        exe.write_text("#!/bin/sh\nexit 0\n")
        exe.chmod(0o755)
    return {"PATH": str(bin_dir)}


# (flag, crumb.toml, preset, ambient env var) -> expected (harness, origin) for the builder
TABLE = [
    (None, None, None, None, ("local", "fallback")),
    (None, None, None, "CLAUDECODE", ("claude", "ambient:CLAUDECODE")),
    (None, None, None, "CODEX_THREAD_ID", ("codex", "ambient:CODEX_THREAD_ID")),
    (None, None, None, "GEMINI_CLI", ("gemini", "ambient:GEMINI_CLI")),
    (None, None, "codex", "CLAUDECODE", ("codex", "preset:codex")),
    (None, "gemini", "codex", "CLAUDECODE", ("gemini", "crumb.toml")),
    ("claude:opus", "gemini", "codex", "CLAUDECODE", ("claude", "flag")),
    ("claude:opus", None, None, None, ("claude", "flag")),
    (None, "codex", None, None, ("codex", "crumb.toml")),
]


@pytest.mark.parametrize("flag, config, preset, ambient, expected", TABLE)
def test_precedence_table(root, tmp_path, flag, config, preset, ambient, expected):
    env = with_claude_on_path(tmp_path)
    if ambient:
        env[ambient] = "1"
    if config:
        (root / "crumb.toml").write_text(f'[roles]\nbuilder = "{config}"\n')
    chains = resolve_bindings(root, preset=preset, flags={"builder": flag} if flag else None, env=env)
    harness, _, origin = primary(chains)
    assert (harness, origin) == expected
    assert chains["builder"][-1].harness == "local"


def test_lower_layers_follow_in_the_chain_ending_in_local(root, tmp_path):
    (root / "crumb.toml").write_text('[roles]\nbuilder = "gemini"\n')
    chains = resolve_bindings(root, preset="codex", flags={"builder": "claude:opus"}, env={})
    assert [(b.harness, b.origin) for b in chains["builder"]] == [
        ("claude", "flag"), ("gemini", "crumb.toml"), ("codex", "preset:codex"), ("local", "fallback")
    ]
    assert [b.harness for b in chains["planner"]] == ["codex", "local"]


def test_ambient_needs_the_cli_on_path(root):
    chains = resolve_bindings(root, env={"CLAUDECODE": "1", "PATH": str(root)})
    assert primary(chains)[0] == "local"


def test_crumb_toml_can_choose_the_preset(root):
    (root / "crumb.toml").write_text('preset = "cross"\n')
    chains = resolve_bindings(root, env={})
    assert chains["builder"][0].harness == "claude" and chains["verifier"][0].harness == "codex"
    assert chains["builder"][0].origin == "preset:cross"


def test_cross_builder_and_verifier_use_different_providers(root):
    chains = resolve_bindings(root, preset="cross", env={})
    assert chains["builder"][0].provider != chains["verifier"][0].provider
    assert [b.harness for b in chains["verifier"]] == ["codex", "gemini", "local"]
    assert chains["verifier"][1].origin == "preset:cross (fallback)"


def test_all_flag_sets_every_role(root):
    chains = resolve_bindings(root, flags={"all": "gemini:gemini-2.5-flash", "verifier": "codex"}, env={})
    assert {r: chains[r][0].harness for r in ROLES} == {"planner": "gemini", "builder": "gemini", "verifier": "codex", "researcher": "gemini"}


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("claude:sonnet", ("claude", "anthropic", "sonnet", {})),
        ("codex", ("codex", "openai", None, {})),
        ("openai:ollama/qwen2.5-coder:7b", ("openai", "ollama", "qwen2.5-coder:7b", {})),
        ("openai:vllm/m@http://gpu:8000/v1", ("openai", "vllm", "m", {"base_url": "http://gpu:8000/v1"})),
        ("command:./agent --fast", ("command", None, None, {"command": "./agent --fast"})),
        ("local", ("local", None, None, {})),
    ],
)
def test_binding_specs(spec, expected):
    b = parse_binding(spec, origin="flag")
    assert (b.harness, b.provider, b.model, b.options) == expected


def test_an_openai_table_may_give_its_model_as_a_key(root):
    (root / "crumb.toml").write_text('[roles.builder]\nharness = "openai"\nprovider = "ollama"\nmodel = "qwen2.5-coder"\n')
    builder = resolve_bindings(root, env={})["builder"][0]
    assert (builder.harness, builder.provider, builder.model) == ("openai", "ollama", "qwen2.5-coder")


def test_config_tables_with_options_and_fallback(root):
    (root / "crumb.toml").write_text(
        '[roles.builder]\nharness = "codex"\nmodel = "gpt-5-codex"\noptions = { sandbox = "danger-full-access" }\n'
        'fallback = ["claude:sonnet"]\n'
    )
    chain = resolve_bindings(root, env={})["builder"]
    assert chain[0].options == {"sandbox": "danger-full-access"} and chain[0].model == "gpt-5-codex"
    assert [b.harness for b in chain] == ["codex", "claude", "local"]


@pytest.mark.parametrize(
    "text, words",
    [
        ("[roles\n", "not valid TOML"),
        ('[roles]\nbilder = "claude"\n', "unknown role 'bilder'"),
        ('[roles]\nbuilder = "clade"\n', "unknown harness 'clade'"),
        ('[roles.builder]\nmodel = "x"\n', "needs harness"),
        ('[roles.builder]\nharness = "codex"\ncolour = "red"\n', "colour"),
        ('preset = "nope"\n', "no preset 'nope'; available: "),
        ('[bindings.builder]\nharness = "claude"\n', r"unknown key 'bindings'.*put it under \[roles\]"),
        ('[inbox]\nmax_bytes = 10\n', r"unknown key 'inbox'.*\[settings.inbox\]"),
        ('prest = "claude"\n', "unknown key 'prest' .*allowed: preset, roles, settings"),
        ('[roles]\nbuilder = "openai"\n', r"openai needs a model: write openai:ollama/qwen2.5-coder"),
        ('[roles.builder]\nharness = "openai"\nbase_url = "http://gpu:8000/v1"\n', r"openai needs a model.*model = "),
    ],
)
def test_bad_config_is_one_line_naming_file_and_fix(root, text, words):
    (root / "crumb.toml").write_text(text)
    with pytest.raises(ValueError, match=words) as err:
        resolve_bindings(root, env={})
    assert "\n" not in str(err.value)
    if "preset" not in text:
        assert "crumb.toml" in str(err.value)


def test_a_misplaced_table_in_a_preset_is_refused_not_ignored(root):
    (root / "presets").mkdir()
    (root / "presets" / "mine.toml").write_text('[bindings]\nbuilder = "codex"\n')
    with pytest.raises(ValueError, match=r"presets/mine.toml: unknown key 'bindings'.*\[roles\]"):
        resolve_bindings(root, preset="mine", env={})


def test_the_command_contract_example_binds_the_builder(root):
    """The crumb.toml a user copies from command-contract.md must bind what it says, not be ignored."""
    doc = (REPO / "crumb" / "actors" / "harness" / "command-contract.md").read_text()
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    (root / "crumb.toml").write_text(example)
    builder = resolve_bindings(root, env={})["builder"][0]
    assert (builder.harness, builder.origin) == ("command", "crumb.toml")
    assert builder.options["command"] == ["./my-agent", "--flag"]


def test_bad_flag_names_it(root):
    with pytest.raises(ValueError, match=r"flag builder=sonnet: unknown harness 'sonnet'"):
        resolve_bindings(root, flags={"builder": "sonnet"}, env={})


def test_check_flags_accepts_all_and_refuses_what_the_daemon_would_not_run(root):
    got = check_flags({"all": "codex", "builder": "command:./agent --fast"})
    assert {role: b.harness for role, b in got.items()} == {"planner": "codex", "builder": "command",
                                                           "verifier": "codex", "researcher": "codex"}
    for flags, words in [({"builder": "nosuch"}, "unknown harness 'nosuch'"),
                         ({"builder": "command"}, "names no command"),
                         ({"verifier": "openai"}, "openai needs a model"),
                         ({"builder": "claude:son net"}, "a model name has no spaces"),
                         ({"everyone": "codex"}, "unknown role 'everyone'")]:
        with pytest.raises(ValueError, match=words):
            check_flags(flags)


def test_rooted_reads_a_relative_executable_from_the_project_root(root):
    fixed = rooted(parse_binding("command:./tools/agent --fast 'two words'", origin="flag"), root)
    assert fixed.options["command"] == [str(root / "tools/agent"), "--fast", "two words"]
    with_bin = rooted(Binding(harness="claude", options={"bin": "bin/claude"}), root)
    assert with_bin.options["bin"] == str(root / "bin/claude")
    for unchanged in (Binding(harness="command", options={"command": ["/usr/bin/agent", "-x"]}),
                      Binding(harness="command", options={"command": "agent-on-path --x"}),
                      Binding(harness="codex", options={"bin": "codex"}), Binding(harness="local")):
        assert rooted(unchanged, root) == unchanged


def test_project_presets_override_packaged(root):
    (root / "presets").mkdir()
    (root / "presets" / "claude.toml").write_text('[roles]\nall = "claude:opus"\n')
    (root / "presets" / "mine.toml").write_text('[roles]\nbuilder = "codex"\n')
    assert resolve_bindings(root, preset="claude", env={})["planner"][0].model == "opus"
    assert resolve_bindings(root, preset="mine", env={})["builder"][0].harness == "codex"
    assert "mine" in preset_names(root)


def test_shipped_presets_all_load_and_resolve(root):
    assert SHIPPED <= set(preset_names(root))
    for name in SHIPPED:
        assert "description" in load_preset(root, name)
        chains = resolve_bindings(root, preset=name, env={})
        assert set(chains) == set(ROLES) and all(c[-1].harness == "local" for c in chains.values())


def test_repo_presets_match_the_packaged_copies():
    """One source of truth: crumb/actors/harness/presets/ is canonical; presets/ mirrors it."""
    repo = {p.name: p.read_text() for p in (REPO / "presets").glob("*.toml")}
    packaged = {p.name: p.read_text() for p in PACKAGED.glob("*.toml")}
    assert repo == packaged


def test_chains_round_trip_through_session_start_data(root):
    chains = resolve_bindings(root, preset="cross", env={})
    assert chains_from_data(chains_as_data(chains)) == chains


def test_a_preset_may_break_the_embedded_builds_first_build_and_a_pitchs_fault_wins(root):
    """cross-local (a second offline set-up) says `fault = "noinput"`; session.start records it, unless the
    pitch names its own fault; an unknown fault is refused naming the file and the faults there are."""
    from types import SimpleNamespace

    from crumb.daemon.session_start import session_start_data

    def start(preset, fault=None):
        req = SimpleNamespace(preset=preset, bindings={}, seed=None, fault=fault, fallback=None)
        return session_start_data(root, req, env={})[0]["fault"]

    assert start("cross-local") == "noinput"
    assert start("cross-local", fault="blank") == "blank"
    assert start("local") is None
    (root / "presets").mkdir()
    (root / "presets" / "odd.toml").write_text('fault = "sideways"\n[roles]\nall = "local"\n')
    with pytest.raises(ValueError, match=r"odd.toml: fault = 'sideways' .*wrongtimer"):
        load_preset(root, "odd")
