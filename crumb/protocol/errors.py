"""One way to turn a pydantic ValidationError into the one line CRUMB shows a person.

Every boundary that validates (the writer, readers, config files, actors' answers, the Studio's
requests) names the first problem the same way — where it is and what is wrong — and adds its own
words about the fix. Pydantic's own rendering spans several lines and a documentation link.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

# location parts pydantic adds that name no field a person wrote (a discriminated union's branch)
_NOISE = ("tagged-union",)


@dataclass(frozen=True)
class Problem:
    """The first problem of a ValidationError: `where` ("budgets.fixes", "" at the top), `message`
    (pydantic's words), `loc` (the raw location) and `count` (problems in all)."""

    where: str
    message: str
    loc: tuple[int | str, ...]
    count: int

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    @property
    def more(self) -> str:
        """" (+N more)" when there were other problems, else ""."""
        return f" (+{self.count - 1} more)" if self.count > 1 else ""


def first_problem(err: ValidationError, *, skip: int = 0, plain: bool = False) -> Problem:
    """The first problem of `err`. `skip` drops that many leading location parts (a wrapper's name);
    `plain` drops pydantic's "Value error, " prefix from a validator's own message."""
    errors = err.errors()
    if not errors:
        return Problem(where="", message=str(err).strip().splitlines()[0] if str(err).strip() else "invalid", loc=(),
                       count=0)
    first = errors[0]
    loc = tuple(p for p in first["loc"] if p not in _NOISE)[skip:]
    message = str(first["msg"])
    if plain:
        message = message.removeprefix("Value error, ")
    return Problem(where=".".join(str(p) for p in loc), message=message, loc=loc, count=len(errors))


def one_line(err: ValidationError, *, skip: int = 0, plain: bool = False) -> str:
    """`where: message` of the first problem (see first_problem)."""
    return str(first_problem(err, skip=skip, plain=plain))
