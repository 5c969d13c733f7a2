"""`crumb plan TEXT`: preview what the embedded Planner makes of a pitch (no session, no files)."""

from __future__ import annotations

import json

import click

from crumb.actors.embedded.research import plan_researched
from crumb.protocol.spec_markdown import spec_markdown


@click.command("plan")
@click.argument("text")
@click.option("--seed", type=int, default=1, show_default=True, help="The spec's seed.")
@click.option("--steer", "steering", multiple=True, help="A steering message to apply, e.g. 'make it red' (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the Spec as JSON instead of spec.md.")
def plan_command(text: str, seed: int, steering: tuple[str, ...], as_json: bool) -> None:
    """Print the spec the offline Planner writes for TEXT, researching first when it asks to."""
    out, evidence = plan_researched(text, seed=seed, steering=steering)
    if evidence is not None:
        click.echo(f"researched: {', '.join(i.id for i in evidence.items)}", err=True)
    click.echo(json.dumps(out.model_dump(mode="json"), ensure_ascii=False, indent=2) if as_json else spec_markdown(out))


COMMANDS = [plan_command]
