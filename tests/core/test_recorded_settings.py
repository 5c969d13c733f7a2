"""A session's settings are read once, from its session.start, into one typed object in the state.

What a person would notice: a value that cannot be used is named in an `error` event with its key,
the default used instead and where to fix it; the session goes on (never a crash, never silence);
a value not recorded gets today's default, the same one QA, the actors and the budgets see.
"""

from __future__ import annotations

from crumb.reducer.effects import Record
from crumb.reducer.reduce import apply, initial_state
from crumb.settings import Settings, recorded_settings

SESSION = "01JSESSION0000000000000000"


def start(settings: object) -> tuple[object, list]:
    state = initial_state(SESSION)
    event = {"v": 1, "seq": 1, "id": "01JEVENT00000000000000000A", "ts": "2026-01-01T00:00:00.000000Z",
             "session": SESSION, "kind": "session.start", "from": "daemon", "effect": None, "body": "",
             "data": {"settings": settings}, "meta": {}}
    return state, apply(state, event)


def test_a_bad_recorded_value_is_named_with_its_fix_and_the_session_runs_on_its_default() -> None:
    state, effects = start({"qa": {"timeout_s": -5, "max_bytes": 1000}, "budgets": {"fixes": 1}})
    errors = [e.event.data["message"] for e in effects if isinstance(e, Record) and e.event.kind == "error"]
    assert len(errors) == 1, errors
    assert "qa.timeout_s" in errors[0] and "> 0" in errors[0]
    assert "default (120.0)" in errors[0] and "[settings.qa]" in errors[0]
    assert state.settings.qa.timeout_s == 120.0  # the default, as the error says
    assert state.settings.qa.max_bytes == 1000 and state.settings.budgets.fixes == 1  # the good values stand
    assert state.settings.budgets.verifies == Settings().budgets.verifies  # not recorded: today's default
    assert state.limits["fixes"] == 1.0 and state.phase == "new"


def test_unknown_sections_and_keys_are_named_not_dropped_silently() -> None:
    _, problems = recorded_settings({"qa": {"tabs": 2}, "colour": {"a": 1}, "circuit": 3})
    assert any("unknown settings section 'colour'" in p for p in problems), problems
    assert any("qa.tabs" in p and "not a setting CRUMB knows" in p for p in problems), problems
    assert any("'circuit' is not a table" in p for p in problems), problems


def test_good_settings_make_no_event_and_replay_the_same_state() -> None:
    recorded = Settings().merged({"circuit": {"failures": 5}}).to_data()
    a, effects = start(recorded)
    b, _ = start(recorded)
    assert effects == [] and a.settings.circuit.failures == 5
    assert a.state_hash() == b.state_hash()


def test_settings_that_are_not_a_table_never_crash_the_reducer() -> None:
    for junk in (None, [], "x", 3, {"budgets": None}, {"qa": {"viewport": "wide"}}):
        state, _ = start(junk)
        assert isinstance(state.settings, Settings) and state.events == 1
