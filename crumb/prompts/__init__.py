"""The prompt of each role, kept as readable Markdown files next to this module.

`{{name}}` is replaced by a value, `{{> file.md}}` by another file of this folder. Prompts are
handed to agents through stdin or a file, never as one argv string (they run to tens of KB).
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any, Literal

from crumb.protocol.names import ROLES

_TOKEN = re.compile(r"\{\{\s*(>\s*)?([\w.\-]+)\s*\}\}")


def template(name: str) -> str:
    """The raw text of one prompt file (e.g. "builder.md")."""
    return resources.files(__name__).joinpath(name).read_text("utf-8")


def fill(text: str, values: dict[str, str]) -> str:
    """Substitute `{{name}}` and `{{> file}}` tokens once (values are not re-scanned)."""

    def sub(match: re.Match[str]) -> str:
        if match.group(1):
            return fill(template(match.group(2)), values)
        return values.get(match.group(2), "")

    return _TOKEN.sub(sub, text)


def render(
    role: str,
    projected: dict[str, Any],
    *,
    schema: dict[str, Any],
    mode: Literal["tools", "text"] = "tools",
    where: str = "",
    files: str = "",
    film: str = "",
) -> str:
    """The full prompt for `role`: its file, the projected input, the work rules and the answer schema.

    mode "tools": the agent edits files itself (Claude Code, Codex, Gemini, commands);
    mode "text": the agent only answers text (OpenAI-compatible servers), so builders use files-format.md.
    """
    if role not in ROLES:
        raise ValueError(f"no prompt for role {role!r}; known: {', '.join(ROLES)}")
    answer = fill(template("answer-json.md"), {"schema": json.dumps(schema, indent=1)})
    if mode == "text" and role == "builder":
        work = fill(template("files-format.md"), {"files": files})
    elif where:
        work = fill(template("work-tools.md"), {"where": where})
    else:
        work = files
    values = {
        "input": json.dumps(projected, indent=1, ensure_ascii=False, default=str),
        "answer": answer,
        "work": work,
        "film": film,
    }
    return fill(template(f"{role}.md"), values).strip() + "\n"
