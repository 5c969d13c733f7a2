"""Finding a Ray cluster for `--ray auto|ADDRESS` without Ray's minutes of retrying a dead address."""

from __future__ import annotations

import socket
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="Ray is not installed: `make setup` installs the ray extra (pip install -e '.[ray]')")
from crumb.batch import ray_executor as rx
from tests.loopback import refusing_port


def test_an_address_nothing_answers_at_is_refused_at_once_saying_how_to_start_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rx.ray, "is_initialized", lambda: False)
    started = time.monotonic()
    with refusing_port() as port, pytest.raises(rx.RayUnavailable, match="no Ray cluster answers at 127.0.0.1:.*ray start --head"):
        rx.connect(f"127.0.0.1:{port}")
    assert time.monotonic() - started < 10


def test_auto_ignores_the_address_a_cluster_that_is_gone_left_behind(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert rx.running_cluster() is None  # no file: no cluster
    (tmp_path / "ray").mkdir()
    with refusing_port() as port:
        (tmp_path / "ray" / "ray_current_cluster").write_text(f"127.0.0.1:{port}")
        assert rx.running_cluster() is None  # `auto` then starts a local cluster instead of hanging
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        live = f"127.0.0.1:{server.getsockname()[1]}"
        (tmp_path / "ray" / "ray_current_cluster").write_text(live + "\n")
        assert rx.running_cluster() == live
        monkeypatch.setenv("RAY_ADDRESS", "ray://head.example:10001")
        assert rx.running_cluster() == "ray://head.example:10001"  # the Ray Client: ray.init says if it is there
