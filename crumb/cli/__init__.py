"""The `crumb` command line. Each module in this package adds its commands through `COMMANDS`.

The group imports a module only when one of its commands runs: TABLE names each command's module and
its one-line help, so `crumb --help` lists every command without importing one, and `crumb steer`
does not pay for the Studio, the browser or the embedded studio. tests/core/test_cli_start.py
imports every module and checks TABLE against what they define, so it cannot drift.
"""

from __future__ import annotations

import atexit
import gc
import importlib
from pathlib import Path

import click

from crumb import __version__

# Registered first, so it runs after every other exit handler of the command: the interpreter's final
# collection would walk every object left (pydantic's schemas, Playwright's) only for the OS to free them
# all anyway. `crumb run` measured ~0.11 s of its exit before, ~0.04 s after (bench/run.py, issue 18).
atexit.register(gc.freeze)

#: command → (its module in this package, its one-line help as `crumb --help` lists it)
TABLE: dict[str, tuple[str, str]] = {
    "approve": ("steer", "Approve a PARTIAL verdict: the session ends as approved."),
    "batch": ("batch", "Run many pitches × set-ups × seeds as a batch of sessions (batches/<id>/), resumable."),
    "cancel": ("steer", "Cancel the session: running actors are stopped."),
    "compare": ("report", "Side by side: two sessions (`compare A B`), or two set-ups of a batch "
                          "(`compare BATCH SETUP_A SETUP_B`)."),
    "config": ("config", "Show how CRUMB is configured here."),
    "export": ("export", "Export a session's game: a zip (default), one HTML file, an itch.io zip, a one-file report, or its OpenTelemetry spans (--otel)."),
    "doctor": ("doctor", "Check agent CLIs, browser, watcher and presets; exit 1 when the default setup cannot run."),
    "fork": ("fork", "Fork a session at a point (--at SEQ, spec or build) and go on with other bindings (--role, --preset)."),
    "gc": ("housekeeping", "Remove (or --archive) settled sessions older than an age; running ones are never touched."),
    "integrate": ("integrate", "Write (or --remove) what Claude Code, Codex or Gemini CLI reads to drive CRUMB through `crumb mcp`."),
    "ls": ("sessions", "List sessions, newest first."),
    "mcp": ("mcp", "Serve CRUMB's tools (pitch, steer, wait, status, verdict, spec, events, sessions, qa) to an agent CLI over MCP on stdio."),
    "open": ("export", "Open a session's game in the browser (or its Studio page with --studio); prints it when there is no display."),
    "pause": ("steer", "Pause the session, or one actor: `crumb pause S builder`."),
    "pitch": ("pitch", "Pitch a game: drops a pitch file into inbox/ and prints the new session id."),
    "plan": ("plan", "Print the spec the offline Planner writes for TEXT, researching first when it asks to."),
    "qa": ("qa", "Run QA in headless Chromium on a game folder or an .html file ([settings.qa] of crumb.toml in --root)."),
    "release": ("release", "Keep a named version of a session's game under versions/ (copy, manifest, a `release` event)."),
    "replay": ("sessions", "Rebuild a session's state from its transcript (a session id, or a path to a .jsonl), "
                           "running no effect."),
    "report": ("report", "Sum up a batch (an id, a unique prefix or a folder): PASS/PARTIAL/FAIL rates with 95 % "
                        "intervals per set-up, genre and language."),
    "resume": ("steer", "Resume the session, or one actor: `crumb resume S builder`."),
    "rm": ("housekeeping", "Remove sessions (or archive them with --archive); a running session is refused."),
    "run": ("watch", "One shot: pitch, run the daemon in this process until that session is done or waits for a "
                     "person, print the game's path."),
    "seal": ("verify", "Print the head hash of a session's transcript (its last line's sha256) to publish, e.g. in a commit."),
    "schema": ("sessions", "Print the JSON Schema of a transcript line."),
    "status": ("sessions", "Where a session stands: phase, round, verdicts, pending effects, budgets."),
    "steer": ("steer", "Steer a session: plain text, a /command or '@actor text' (see README: How to steer)."),
    "studio": ("studio", "Watch, play and steer every session in a browser (reads files, writes only inbox files)."),
    "tail": ("sessions", "Show a session's latest events."),
    "veto": ("steer", "Veto a PARTIAL verdict, with a reason the Builder gets as feedback."),
    "wait": ("pitch", "Wait until a session is done or waits for a person."),
    "verify": ("verify", "Check a session's hash chain and the artifacts its transcript recorded; name the first "
                         "break, exit 1."),
    "versions": ("release", "List the versions kept under versions/ with their lineage (and any file changed since its release)."),
    "watch": ("watch", "Run the daemon: watch inbox/ and every session, reduce events, dispatch effects."),
}


class LazyGroup(click.Group):
    """click's lazy-loading group: a command's module is imported when the command is looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *TABLE})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in TABLE:
            module = importlib.import_module(f"{__name__}.{TABLE[cmd_name][0]}")
            for command in module.COMMANDS:
                self.add_command(command)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's own listing, with TABLE's help standing in for the commands not imported."""
        listed = {name: click.Command(name, help=short) for name, (_, short) in TABLE.items()}
        listed.update(self.commands)
        rows = [(name, command) for name, command in sorted(listed.items()) if not command.hidden]
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in rows])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="crumb")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    envvar="CRUMB_ROOT",
    show_default=True,
    help="The working folder holding inbox/, sessions/ and presets/.",
)
@click.pass_context
def main(ctx: click.Context, root: Path) -> None:
    """Turn a one-line game pitch into a playable browser game."""
    from crumb.genres import configure, registry  # cheap: the genres' models load when a genre is read

    ctx.obj = {"root": root.resolve()}
    configure(ctx.obj["root"])  # the root's crumb.toml may add genre folders ([genres] paths)
    if ctx.invoked_subcommand == "watch":  # `run` does it once its browser is starting (crumb/cli/watch.py)
        registry()  # found now, so a broken genre folder's warning comes at start, not at the first pitch
