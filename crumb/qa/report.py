"""QAResult as a short report for people (the CLI prints it; --json prints the model instead)."""

from __future__ import annotations

from crumb.protocol.game import QAResult

_SEVERITY_ORDER = {"Critical": 0, "Important": 1, "Minor": 2}


def _mark(value: bool | None, yes: str, no: str) -> str:
    return "?" + yes if value is None else (yes if value else no)


def render(result: QAResult, target: str) -> str:
    lines = [f"{'PASS' if result.ok else 'FAIL'}  {target}  ({result.duration_ms / 1000:.1f} s)"]
    if result.error:
        lines.append(f"  QA error  {result.error}")
    lines.append(f"  static    {'ok' if result.static_ok else 'problems (see findings)'}")
    if result.loaded:
        parts = [
            "hook" if result.hook else "no hook",
            _mark(result.canvas_nonblank, "draws", "blank canvas"),
            _mark(result.canvas_animates, "animates", "frozen"),
            _mark(result.input_responds, "responds to input", "ignores input"),
        ]
        if result.fps is not None:
            parts.append(f"{result.fps:g} fps")
        lines.append(f"  browser   {' · '.join(parts)}")
    else:
        lines.append("  browser   did not load")
    if result.probes:
        passed = sum(p.ok for p in result.probes)
        lines.append(f"  probes    {passed}/{len(result.probes)} passed")
        for p in result.probes:
            lines.append(f"    {'ok  ' if p.ok else 'FAIL'} {p.id}: {p.detail}")
    if result.findings:
        lines.append("  findings")
        for f in sorted(result.findings, key=lambda f: _SEVERITY_ORDER.get(f.severity, 3)):
            lines.append(f"    {f.severity:<9} {f.code:<18} {f.message}")
    if result.blocked:
        lines.append("  blocked   " + ", ".join(result.blocked[:5]) + (" ..." if len(result.blocked) > 5 else ""))
    if result.screenshots:
        lines.append("  screens   " + ", ".join(result.screenshots))
    if result.filmstrip and result.filmstrip.frames:
        lines.append(f"  film      {len(result.filmstrip.frames)} frames, contact sheet {result.filmstrip.sheet}")
    return "\n".join(lines)
