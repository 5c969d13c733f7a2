"""One shared world per entry point (a daemon, a CLI root, a Studio), so the corpus runs in minutes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from crumb.store import paths
from crumb.store.writer import TranscriptWriter
from crumb.studio.server import Studio
from tests.badinput.commands import cli_root
from tests.badinput.inbox import InboxWorld
from tests.badinput.studio import SESSION


@pytest.fixture(scope="module")
def inbox_world(tmp_path_factory: pytest.TempPathFactory, qa_runner: Any) -> Iterator[InboxWorld]:
    with InboxWorld(tmp_path_factory.mktemp("inbox") / "root", qa_runner) as world:
        yield world


@pytest.fixture(scope="module")
def cli_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cli_root(tmp_path_factory.mktemp("cli") / "root")


@pytest.fixture(scope="module")
def studio_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Studio, Path]]:
    root = tmp_path_factory.mktemp("studio")
    (root / "inbox").mkdir()
    w = TranscriptWriter(paths.transcript_path(root, SESSION), SESSION, fsync="never")
    w.append("session.start", {"settings": {}, "preset": "local"}, from_="daemon")
    w.append("goal", {"pitch": "a snake game"}, from_="user")
    game = paths.artifacts_dir(root, SESSION) / "game"
    game.mkdir(parents=True)
    (game / "index.html").write_text("<canvas id=game></canvas>")
    (root / "secret.txt").write_text("not for the web\n")
    studio = Studio(root, port=0).start()
    yield studio, root
    studio.stop()
