"""`crumb release` (keep a named version of a session's game under versions/<name>/, recorded as a
`release` event in the session's transcript) and `crumb versions` (list them with their lineage).

The copy is made in a temporary folder beside the others and renamed into place, so versions/ never
holds half a version. The CLI never writes the transcript: it drops `/release NAME` into the session's
inbox, like any other tool's steering, and the daemon records the `release` event with what it reads and
hashes in the copy then (crumb/export/versions.py), or an `error` saying why it could not. An inbox that
cannot take the file takes the copy away again. What goes in the manifest is decided in
crumb/export/lineage.py.
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime

import click

from crumb.cli.common import drop, echo_json, one_line, rel, root_of, session_arg
from crumb.cli.complete import complete_session, complete_version
from crumb.export import gamefiles
from crumb.export.gamefiles import GameFilesError
from crumb.export.lineage import (
    GAME,
    MANIFEST,
    VERSIONS,
    check_name,
    default_parent,
    differs_from_build,
    lineage,
    manifest,
    next_name,
    version_line,
)
from crumb.export.versions import read_versions
from crumb.store import paths
from crumb.terminal import safe


@click.command("release")
@click.argument("session", shell_complete=complete_session)
@click.option("--as", "name", default=None, metavar="NAME", help="The version's name (default: v1, v2, ...).")
@click.option("--label", default="", help="A few words about this version.")
@click.option("--parent", default=None, metavar="NAME", shell_complete=complete_version,
              help="The version this one follows (default: the latest released from the same session).")
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as JSON.")
@click.pass_context
def release(ctx: click.Context, session: str, name: str | None, label: str, parent: str | None, as_json: bool) -> None:
    """Keep a named version of a session's game under versions/ (copy, manifest, a `release` event)."""
    from crumb.daemon.lock import daemon_status

    root = root_of(ctx)
    sid = session_arg(ctx, session)
    with one_line(GameFilesError):
        facts = gamefiles.load(root, sid)
    if not facts.settled:
        raise click.ClickException(f"session {sid} is still running ({facts.phase}): release it once it is done "
                                   f"(`crumb wait {sid}`)")
    with one_line(GameFilesError):
        files, entry = gamefiles.game_files(root, facts)
    versions = read_versions(root)
    existing = {v.name: v for v in versions}
    base = root / VERSIONS
    taken = sorted({*existing, *(p.name for p in base.iterdir())} if base.is_dir() else existing)
    name = name or next_name(taken)
    problem = check_name(name)
    if problem:
        raise click.BadParameter(problem, param_hint="--as")
    if name in taken:
        was = existing.get(name)
        source = f" (from session {was.manifest.get('session')})" if was else ""
        raise click.ClickException(f"version {name} exists{source}: releasing twice under one name is refused; "
                                   f"choose another with --as (next free: {next_name(taken)})")
    if parent is not None and parent not in existing:
        raise click.BadParameter(f"no version {parent!r} under {base}; `crumb versions` lists them", param_hint="--parent")
    parent = parent or default_parent(versions, sid)
    spec = gamefiles.spec_text(root, facts)
    record = manifest(name=name, label=label, facts=facts, files=files, entry=entry, parent=parent,
                      created=datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"), spec=spec is not None)
    body = (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode()

    base.mkdir(parents=True, exist_ok=True)
    tmp = base / f".{name}.{os.getpid()}.tmp"
    final = base / name
    try:
        for path, data in files.items():
            target = tmp / GAME / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        if spec is not None:
            (tmp / "spec.md").write_text(spec, encoding="utf-8")
        (tmp / MANIFEST).write_bytes(body)
        if final.exists():  # released meanwhile by another command
            raise click.ClickException(f"version {name} exists: releasing twice under one name is refused")
        os.rename(tmp, final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    try:  # the daemon records it: it reads and hashes the copy itself (invariants 3 and 4)
        asked = drop(paths.session_inbox(root, sid), f"/release {name}\n", stem="release")
    except click.ClickException as err:
        shutil.rmtree(final, ignore_errors=True)
        raise click.ClickException(f"{err.message}; so no version was kept") from None
    if not daemon_status(root)["running"]:
        click.echo(f"version {name} is kept in {rel(root, final)}; no crumb daemon is watching {root}, so its record "
                   f"waits in {rel(root, asked)} until `crumb --root {root} watch` runs", err=True)
    edited = differs_from_build(record)
    if edited:
        click.echo(f"note: {', '.join(edited)} differ from build {record['build']} (edited after the build); "
                   "the manifest keeps both hashes", err=True)
    if as_json:
        echo_json(record)
        return
    click.echo(safe(f"{rel(root, final)}  {record['title'] or '-'} {record['verdict'] or '-'}  ({len(files)} files; "
                    f"session {sid} round {record['round']}" + (f"; follows {parent}" if parent else "") + ")"))


@click.command("versions")
@click.option("--json", "as_json", is_flag=True, help="One manifest per line (with `changed`: files edited since).")
@click.pass_context
def versions(ctx: click.Context, as_json: bool) -> None:
    """List the versions kept under versions/ with their lineage (and any file changed since its release)."""
    found = read_versions(root_of(ctx), verify=True)
    for depth, v in lineage(found):
        if as_json:
            click.echo(json.dumps({**v.manifest, "name": v.name, "changed": list(v.changed), "depth": depth},
                                  ensure_ascii=False))
        else:
            click.echo(safe(version_line(depth, v)))  # titles and labels are a model's or a person's words
    if not found and not as_json:
        click.echo("no versions yet: `crumb release SESSION` keeps one", err=True)


COMMANDS = [release, versions]
