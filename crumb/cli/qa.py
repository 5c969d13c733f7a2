"""`crumb qa PATH`: deterministic QA on any game folder or .html file (exit 0 pass, 1 fail, 2 usage)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

import click
import msgspec
from pydantic import TypeAdapter, ValidationError

from crumb.protocol.errors import one_line
from crumb.protocol.game import Criterion, Spec
from crumb.settings import QASettings


def _criteria(path: Path | None) -> tuple[list[Criterion], list[str]]:
    """Criteria (and controls) from a JSON file: a Spec, {"criteria": [...]}, or a bare list of criteria."""
    if path is None:
        return [], []
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, list):
        return TypeAdapter(list[Criterion]).validate_python(data), []
    if isinstance(data, dict) and "title" in data:
        spec = Spec.model_validate(data)
        controls = list(spec.controls.keys) + (["click"] if spec.controls.pointer else []) + (["tap"] if spec.controls.touch else [])
        return spec.criteria, controls
    return TypeAdapter(list[Criterion]).validate_python((data or {}).get("criteria", [])), []


def _settings(root: Path | None) -> QASettings:
    """[settings.qa] of the project's crumb.toml over the defaults (a preset's settings are not read here)."""
    if root is None:
        return QASettings()
    from crumb.config import ConfigError, load_settings

    try:
        return load_settings(root).qa
    except ConfigError as err:
        _usage(str(err))


def _usage(message: str) -> NoReturn:
    click.echo(f"crumb qa: {message}", err=True)
    raise SystemExit(2)


@click.command("qa")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the QAResult as JSON.")
@click.option("--timeout", type=float, default=None,
              help="Overall limit in seconds (default: qa.timeout_s of crumb.toml in --root, else 120).")
@click.option("--criteria", "criteria_file", type=click.Path(path_type=Path), default=None,
              help="JSON file with acceptance criteria (a spec, {\"criteria\": [...]}, or a list).")
@click.option("--control", "controls", multiple=True, help="A control to press, e.g. ArrowLeft, Space, click (repeatable).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Save screenshots (start/input/end.png) in this folder, and the filmstrip in its film/.")
@click.pass_context
def qa(ctx: click.Context, path: Path, as_json: bool, timeout: float | None, criteria_file: Path | None,
       controls: tuple[str, ...], out_dir: Path | None) -> None:
    """Run QA in headless Chromium on a game folder or an .html file ([settings.qa] of crumb.toml in --root)."""
    if not path.exists():
        _usage(f"{path} does not exist: pass a game folder (with index.html) or an .html file")
    if path.is_file():
        if path.suffix.lower() not in (".html", ".htm"):
            _usage(f"{path} is not an .html file: pass a game folder or its entry .html file")
        game_dir, entry = path.parent, path.name
    else:
        game_dir, entry = path, "index.html"
    if timeout is not None and timeout <= 0:
        _usage(f"--timeout must be more than 0 seconds, got {timeout:g}")
    if criteria_file is not None and not criteria_file.is_file():
        _usage(f"criteria file {criteria_file} does not exist: pass a JSON file with acceptance criteria")
    try:
        criteria, spec_controls = _criteria(criteria_file)
    except (ValueError, ValidationError) as exc:  # a ValidationError is a ValueError: name its first problem
        first = one_line(exc) if isinstance(exc, ValidationError) else (str(exc).strip().splitlines() or [""])[0]
        _usage(f"criteria file {criteria_file} is not valid ({first}): see docs/game-contract.md for the probe format")
    settings = _settings((ctx.obj or {}).get("root"))
    if timeout is not None:
        settings = msgspec.structs.replace(settings, timeout_s=timeout)

    from crumb.qa import BrowserNotFound, run_qa  # imported late: `crumb --help` should not load Playwright
    from crumb.qa.report import render

    try:
        result = run_qa(game_dir, entry=entry, criteria=criteria, controls=list(controls) or spec_controls,
                        out_dir=out_dir, settings=settings)
    except BrowserNotFound as err:
        _usage(str(err))
    if as_json:
        click.echo(result.model_dump_json(indent=2))
    else:
        click.echo(render(result, str(path)))
    raise SystemExit(0 if result.ok else 1)


COMMANDS = [qa]
