"""What `crumb rm` and `crumb gc` may take away, decided without touching a file: pure.

A session is only ever removed once it is settled (done, or waiting for a person's approval with nothing
running). One that is not settled is being worked on by the daemon that holds the root, or — with no
daemon — would be resumed by the next `crumb watch`: `rm` refuses the first always and the second
unless forced; `gc` never takes either. Age is the time since the session's last event (the transcript's
own clock), not the folder's modification time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
PASSED = ("pass", "approved")


@dataclass(frozen=True)
class Candidate:
    """One session as the sweep sees it."""

    session: str
    last_activity: datetime | None  # the last event's time (the transcript's mtime for an empty one)
    settled: bool
    done: str | None  # the done reason, None while not done
    phase: str
    title: str
    bytes: int
    damaged: str | None = None  # why its transcript cannot be read


@dataclass(frozen=True)
class Choice:
    candidate: Candidate
    remove: bool
    reason: str


def parse_age(text: str) -> timedelta:
    """`30d`, `12h`, `2w`, `90m`, `45s` → a timedelta; ValueError naming the forms accepted."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*", text.lower())
    if not m:
        raise ValueError(f"{text!r} is not an age: write a number and a unit, s m h d or w (e.g. 30d, 12h)")
    return timedelta(seconds=float(m.group(1)) * UNITS[m.group(2)])


def rm_refusal(c: Candidate, *, daemon_running: bool, force: bool) -> str | None:
    """Why `crumb rm` will not remove this session, or None."""
    if c.damaged is not None:
        return None if force else f"its transcript cannot be read ({c.damaged}); --force removes it anyway"
    if c.settled:
        return None
    if daemon_running:
        return (f"it is running ({c.phase}) and the daemon is working on it: `crumb cancel {c.session}` first, "
                "then remove it once it is done")
    if not force:
        return (f"it is not finished ({c.phase}) and the next `crumb watch` would resume it; --force removes it "
                "anyway")
    return None


def choose(candidates: list[Candidate], *, now: datetime, older_than: timedelta, keep_passed: bool) -> list[Choice]:
    """`crumb gc`: each session with whether it goes and why."""
    out = []
    for c in candidates:
        if c.damaged is not None:
            out.append(Choice(c, False, f"damaged transcript ({c.damaged}): `crumb rm --force {c.session}` if you mean it"))
        elif not c.settled:
            out.append(Choice(c, False, f"not settled ({c.phase})"))
        elif keep_passed and c.done in PASSED:
            out.append(Choice(c, False, f"passed ({c.done}), --keep-passed"))
        elif c.last_activity is None or now - c.last_activity < older_than:
            out.append(Choice(c, False, "newer than the cutoff"))
        else:
            out.append(Choice(c, True, f"last event {age_text(now - c.last_activity)} ago"))
    return out


def age_text(delta: timedelta) -> str:
    seconds = delta.total_seconds()
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f}{unit}"
    return f"{seconds:.0f}s"


def size_text(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def line(choice: Choice, *, now: datetime) -> str:
    c = choice.candidate
    age = age_text(now - c.last_activity) if c.last_activity else "-"
    return (f"{c.session}  {age:>5}  {c.done or c.phase:<12} {size_text(c.bytes):>9}  {c.title[:30] or '-':<30}  "
            f"{choice.reason}")
