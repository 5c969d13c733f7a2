"""artifacts/spec.md: a Spec as a page a person can read and edit, and that page read back.

Pure, and only the format: which genres exist and how a spec's rules, criteria and pitch reading follow
a person's change of genre or numbers are the Planner's knowledge, passed in as SpecRules (the
embedded studio's: crumb.actors.embedded.rules.SPEC_RULES). The dispatcher writes the page; the daemon
reads a person's save of it back.
"""

from __future__ import annotations

import json as _json
import re
from collections.abc import Sequence
from typing import Any, Protocol

from crumb.protocol.game import NUMBER_LIMITS, PitchReading, Spec

__all__ = ["SpecRules", "parse_spec_markdown", "spec_markdown"]


class SpecRules(Protocol):
    """What the format cannot know: the genres a spec may name, and how the rest of a spec follows
    a person's edit (the embedded studio's answer: crumb.actors.embedded.rules.SPEC_RULES)."""

    def genre_ids(self) -> Sequence[str]:
        """Every genre a spec may be re-aimed at."""
        ...

    def guess_genre(self, word: str) -> str | None:
        """The known genre a word a person wrote most likely means, for a "did you mean" hint."""
        ...

    def follow_edit(self, spec: Spec, base: Spec) -> Spec:
        """The edited spec once its rules, criteria and pitch reading follow what the person changed."""
        ...


_ODD_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_NUMBER_KEYS = (("time limit (s)", "time_limit_s"), ("lives", "lives"), ("target score", "target_score"),
                ("moves", "moves"), ("levels", "levels"), ("speed", "speed"), ("grid", "grid"),
                ("time per level (s)", "level_time_s"))
_READING = "how the pitch was read"
_SECTIONS = ("pitch", "rules", "controls", "numbers", "theme", "extras", "acceptance criteria", "rationale", _READING)
_FIELDS = {
    "": ("genre", "language", "seed"),
    "rules": ("core loop", "win", "lose"),
    "controls": ("keys", "pointer", "touch"),
    "numbers": tuple(k for k, _ in _NUMBER_KEYS),
    "theme": ("name", "palette"),
}
_HEADER = ("<!-- CRUMB spec: edit a value and save; the builder takes it from here. Write - for \"not set\".\n"
           "     Keep the headings and the \"- name: value\" lines. A value in \"double quotes\" is JSON text. -->")


def _plain(s: str) -> bool:
    return (s != "" and s == s.strip() and "\n" not in s and not any(c in s for c in _ODD_BREAKS)
            and not s.startswith(('"', "[")) and s != "-" and "<!--" not in s)


def _value(s: str) -> str:
    return s if _plain(s) else _json.dumps(s, ensure_ascii=False)


def _body(s: str) -> str:
    simple = (s != "" and s == s.strip() and not any(c in s for c in _ODD_BREAKS) and not s.startswith(('"', "["))
              and "<!--" not in s and not any(line.startswith("#") for line in s.split("\n")))
    return s if simple else _json.dumps(s, ensure_ascii=False)


def _list(items: Sequence[str]) -> str:
    shown = ["Space" if i == " " else i for i in items]
    if items and all(_plain(i) and "," not in i and i != "Space" for i in items if i != " "):
        return ", ".join(shown)
    return "-" if not items else _json.dumps(list(items), ensure_ascii=False)


def spec_markdown(spec: Spec) -> str:
    """artifacts/spec.md: the spec as a page a person can read and edit (parse_spec_markdown reads it back)."""
    n = spec.numbers
    lines = [f"# {_value(spec.title)}", "", _HEADER, "",
             f"- genre: {_value(spec.genre)}", f"- language: {_value(spec.language)}", f"- seed: {spec.seed}", "",
             "## Pitch", "", _body(spec.pitch), "",
             "## Rules", "", f"- core loop: {_value(spec.core_loop)}",
             f"- win: {_value(spec.win)}", f"- lose: {_value(spec.lose)}", "",
             "## Controls", "", f"- keys: {_list(spec.controls.keys)}",
             f"- pointer: {_value(spec.controls.pointer)}",
             f"- touch: {_value(spec.controls.touch)}", "",
             "## Numbers", ""]
    for label, field in _NUMBER_KEYS:
        v = getattr(n, field)
        lines.append(f"- {label}: {'-' if v is None else repr(v)}")
    lines += ["", "## Theme", "", f"- name: {_value(spec.theme.name)}",
              f"- palette: {_list(spec.theme.palette)}", "", "## Extras", ""]
    lines += [f"- {_value(x)}" for x in spec.extras]
    lines += ["", "## Acceptance criteria", ""]
    for c in spec.criteria:
        lines.append(f"- [{c.id}] {_value(c.text)}")
        lines.append("  probe: " + _json.dumps(c.probe.model_dump(mode="json", exclude_defaults=True), ensure_ascii=False))
    lines += ["", "## Rationale", "", _body(spec.rationale), "", *_reading_lines(spec.reading)]
    return "\n".join(lines)


def _reading_lines(reading: PitchReading | None) -> list[str]:
    """The pitch-fidelity record as a person reads it. Written, never parsed: edit the values below it."""
    if reading is None:
        return []
    g = reading.genre
    fits = {True: "fits the pitch", False: "NOT what the pitch asks for", None: "for the Verifier to judge"}[g.fits]
    out = [f"## {_READING.capitalize()}", "", f"<!-- written by {reading.by}; CRUMB does not read this section back -->",
           f"- genre: {g.genre} ({g.how}; {fits}): {g.note or '-'}", f"- language: {reading.language.how}"]
    if reading.builder != "local":
        out.append(f"- planned for: the {reading.builder} Builder (an agent: what no criterion checks is for you to look at)")
    for n in reading.numbers:
        where = f"checked by [{n.criterion}]" if n.criterion else "not checked by QA"
        out.append(f"- number: {n.said or n.field!r} → {n.field} {n.value:g}, {where}" + ("" if n.honoured else f"; NOT BUILT: {n.note}")
                   + (f" ({n.note})" if n.honoured and n.note else ""))
    if not reading.numbers:
        out.append("- numbers: the pitch states none")
    out += [f"- not honoured: {x}" for x in reading.unhonoured]
    out += [f"- guessed: {x}" for x in reading.guesses]
    return [*out, ""]


class _Bad(ValueError):
    pass


def _fail(line: int, problem: str, fix: str) -> _Bad:
    return _Bad(f"spec.md line {line}: {problem}; {fix}")


def _unquote(raw: str, line: int) -> str:
    raw = raw.strip()
    if raw.startswith('"'):
        try:
            value = _json.loads(raw)
        except ValueError:
            return raw  # a person's "quoted" words, not JSON text
        return value if isinstance(value, str) else raw
    return raw


def _unlist(raw: str, line: int) -> list[str]:
    raw = raw.strip()
    if raw in ("-", ""):
        return []
    if raw.startswith("["):
        try:
            value = _json.loads(raw)
        except ValueError:
            raise _fail(line, f"broken list {raw[:40]!r}", 'write items separated by commas, e.g. "ArrowLeft, ArrowRight"') from None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _fail(line, "the list must hold text items", 'write e.g. ["ArrowLeft", " "]')
        return value
    return [" " if i.strip() == "Space" else i.strip() for i in raw.split(",")]


def _unnumber(raw: str, field: str, line: int) -> int | float | None:
    raw = raw.strip()
    if raw.lower() in ("-", "—", "", "none", "not set"):
        return None
    lo, hi = NUMBER_LIMITS[field]
    try:
        value: int | float = float(raw) if field == "speed" else int(raw)
    except ValueError:
        raise _fail(line, f"{field} must be a number, got {raw[:30]!r}", f"write a {'number' if field == 'speed' else 'whole number'} "
                    f"({lo}–{hi}) or - for not set") from None
    if field == "time_limit_s":
        lo, hi = 1, 86_400
    if not (lo <= value <= hi) and not (field == "speed" and 0 < value <= 100):
        raise _fail(line, f"{field} {raw} is out of range", f"use {lo}–{hi}, or - for not set")
    return value


def parse_spec_markdown(text: str, base: Spec, *, rules: SpecRules) -> Spec:
    """A person's edit of spec.md as a Spec. Sections or lines left out keep `base`'s values; what
    else follows the edit (e.g. criteria for a new genre) is `rules`' to say. ValueError names the line."""
    data: dict[str, Any] = base.model_dump(mode="json")
    where: dict[str, int] = {}
    section = ""
    in_comment = False
    bodies: dict[str, list[str]] = {}
    body_start: dict[str, int] = {}
    extras: list[str] | None = None
    criteria: list[dict[str, Any]] | None = None
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        no, raw = i + 1, lines[i]
        i += 1
        line = raw.rstrip("\r")
        if in_comment:
            in_comment = "-->" not in line
            continue
        if line.lstrip().startswith("<!--") and section not in ("pitch", "rationale"):
            in_comment = "-->" not in line
            continue
        if line.startswith("# ") and section == "" and "title" not in where:
            data["title"] = _unquote(line[2:], no)
            where["title"] = no
            continue
        if line.startswith("## "):
            name = line[3:].strip().lower()
            if name not in _SECTIONS:
                raise _fail(no, f"unknown section {line[3:].strip()!r}", f"use one of: {', '.join(s.title() for s in _SECTIONS)}")
            section = name
            if section in ("pitch", "rationale"):
                bodies[section], body_start[section] = [], no + 1
            elif section == "extras":
                extras = []
            elif section == "acceptance criteria":
                criteria = []
            continue
        if section in ("pitch", "rationale"):
            bodies[section].append(line)
            continue
        if section == _READING:
            continue  # the Planner's record, shown for people; the values below say what is built
        if not line.strip():
            continue
        if section == "extras":
            if not line.startswith("- "):
                raise _fail(no, f"expected '- feature', got {line[:40]!r}", "start each extra with '- '")
            assert extras is not None
            extras.append(_unquote(line[2:], no))
            continue
        if section == "acceptance criteria":
            m = re.match(r"^- \[([^\]]*)\] ?(.*)$", line)
            if not m:
                raise _fail(no, f"expected '- [id] sentence', got {line[:40]!r}", "write each criterion as '- [id] text' with a '  probe: {...}' line under it")
            nxt = lines[i].rstrip("\r") if i < len(lines) else ""
            pm = re.match(r"^\s+probe:\s*(.*)$", nxt)
            if not pm:
                raise _fail(no + 1, f"criterion [{m.group(1)}] has no probe line", 'add "  probe: {\\"steps\\": [...], \\"expect\\": [...]}" under it')
            i += 1
            try:
                probe = _json.loads(pm.group(1))
            except ValueError:
                raise _fail(no + 1, f"the probe of [{m.group(1)}] is not valid JSON", "fix the JSON (double quotes, matching brackets)") from None
            assert criteria is not None
            criteria.append({"id": m.group(1), "text": _unquote(m.group(2), no), "probe": probe})
            where[f"criteria.{len(criteria) - 1}"] = no
            continue
        m = re.match(r"^- ([^:]+):(?: (.*))?$", line)
        if not m or section not in _FIELDS:
            raise _fail(no, f"expected '- name: value', got {line[:40]!r}", "keep the '- name: value' shape")
        key, value = m.group(1).strip().lower(), m.group(2) or ""
        if key not in _FIELDS[section]:
            known = ", ".join(_FIELDS[section])
            raise _fail(no, f"unknown field {key!r}" + (f" under {section.title()}" if section else ""), f"known: {known}")
        if section == "":
            if key == "seed":
                try:
                    data["seed"] = int(value.strip())
                except ValueError:
                    raise _fail(no, f"seed must be a whole number, got {value.strip()[:30]!r}", "write e.g. 'seed: 7'") from None
            else:
                data[key] = _unquote(value, no)
                if key == "genre" and data["genre"] != base.genre and data["genre"] not in rules.genre_ids():
                    guess = rules.guess_genre(data["genre"])
                    hint = f"did you mean {guess!r}? " if guess else ""
                    raise _fail(no, f"unknown genre {data['genre']!r}", f"{hint}known: {', '.join(rules.genre_ids())}")
        elif section == "rules":
            data[key.replace(" ", "_")] = _unquote(value, no)
        elif section == "controls":
            data["controls"][key] = _unlist(value, no) if key == "keys" else _unquote(value, no)
        elif section == "numbers":
            field = dict(_NUMBER_KEYS)[key]
            data["numbers"][field] = _unnumber(value, field, no)
        elif section == "theme":
            if key == "palette":
                palette = _unlist(value, no)
                bad = [c for c in palette if not re.fullmatch(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?(?:[0-9a-fA-F]{2})?", c)]
                if bad:
                    raise _fail(no, f"{bad[0]!r} is not a hex colour", "write colours like #1b1f3a, background first")
                data["theme"]["palette"] = palette
            else:
                data["theme"]["name"] = _unquote(value, no)
        where[f"{section}.{key}"] = no
    for name, body in bodies.items():
        joined = "\n".join(body).strip("\n")
        value = _unquote(joined, body_start[name]) if joined.startswith('"') else joined
        data[name] = value
    if extras is not None:
        data["extras"] = extras
    if criteria is not None:
        data["criteria"] = criteria
    try:
        spec = Spec.model_validate(data)
    except Exception as exc:  # pydantic's ValidationError: name the first problem on one line
        errors: list[dict[str, Any]] = getattr(exc, "errors", lambda: [])()
        first = errors[0] if errors else {"loc": (), "msg": str(exc)}
        loc = ".".join(str(p) for p in first["loc"])
        line_no = next((v for k, v in where.items() if loc.startswith(k.replace("criteria.", "criteria."))), 0)
        raise _Bad(f"spec.md line {line_no or '?'}: {loc or 'spec'}: {first['msg']}; fix that value and save again") from None
    return rules.follow_edit(spec, base)
