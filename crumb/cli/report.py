"""`crumb report` (a batch summed up: terminal, --json, --csv, --html) and `crumb compare` (two sessions,
or two set-ups of a batch, side by side). matplotlib loads only when --html draws the plots."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from crumb.cli.common import root_of, session_arg

if TYPE_CHECKING:
    from crumb.report.cells import BatchView


def _batch(ctx: click.Context, ref: str) -> Path:
    from crumb.batch.driver import resolve

    try:
        return resolve(root_of(ctx), ref)
    except LookupError as err:
        raise click.ClickException(str(err)) from None


def _view(folder: Path) -> BatchView:
    from crumb.batch.plan import PlanError
    from crumb.report.cells import read_batch

    try:
        return read_batch(folder)
    except PlanError as err:
        raise click.ClickException(str(err)) from None


@click.command()
@click.argument("batch")
@click.option("--json", "as_json", is_flag=True, help="The whole report as one JSON object.")
@click.option("--csv", "as_csv", is_flag=True, help="One CSV row per set-up, set-up × genre and set-up × language.")
@click.option("--html", "html_out", is_flag=False, flag_value="", default=None, metavar="[PATH]",
              help="Also write the HTML report with plots and a gallery (default batches/<id>/report.html).")
@click.pass_context
def report(ctx: click.Context, batch: str, as_json: bool, as_csv: bool, html_out: str | None) -> None:
    """Sum up a batch (an id, a unique prefix or a folder): PASS/PARTIAL/FAIL rates with 95 % intervals per set-up, genre and language."""
    from crumb.report import export, text
    from crumb.report.summary import summarise

    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both")
    view = _view(_batch(ctx, batch))
    summary = summarise(view)
    if html_out is not None:
        from crumb.report import page, plots

        out = Path(html_out) if html_out else view.folder / "report.html"
        out.write_text(page.render(summary, plots.draw(summary), page.offline_links(view, out)), encoding="utf-8")
        click.echo(f"report: {out}", err=True)
    if as_json:
        click.echo(export.to_json(summary))
    elif as_csv:
        click.echo(export.to_csv(summary), nl=False)
    else:
        click.echo(text.render(summary))


@click.command()
@click.argument("refs", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="The comparison as one JSON object.")
@click.option("--width", type=int, default=None, help="Columns to lay the two sides out in (default: the terminal's).")
@click.pass_context
def compare(ctx: click.Context, refs: tuple[str, ...], as_json: bool, width: int | None) -> None:
    """Side by side: two sessions (`compare A B`), or two set-ups of a batch (`compare BATCH SETUP_A SETUP_B`)."""
    from crumb.report import compare as cmp
    from crumb.report.digest import digest
    from crumb.store import paths
    from crumb.store.reader import TranscriptError

    if len(refs) == 2:
        root = root_of(ctx)
        try:
            a, b = (digest(paths.session_dir(root, session_arg(ctx, r))) for r in refs)
        except TranscriptError as err:
            raise click.ClickException(str(err)) from None
        result: cmp.SessionComparison | cmp.SetupComparison = cmp.compare_sessions(a, b)
    elif len(refs) == 3:
        from crumb.report.summary import summarise

        summary = summarise(_view(_batch(ctx, refs[0])))
        try:
            a_name, b_name = (cmp.setup_named(summary.setups, r) for r in refs[1:])
        except LookupError as err:
            raise click.UsageError(str(err)) from None
        result = cmp.compare_setups(summary, a_name, b_name)
    else:
        raise click.UsageError("give two sessions (crumb compare A B) or a batch and two of its set-ups "
                               "(crumb compare BATCH SETUP_A SETUP_B)")
    if as_json:
        click.echo(json.dumps(dataclasses.asdict(result), ensure_ascii=False, indent=2))
    elif isinstance(result, cmp.SessionComparison):
        click.echo(cmp.render_sessions(result, width))
    else:
        click.echo(cmp.render_setups(result, width))


COMMANDS = [report, compare]
