"""The browser's lower CPU share (limits.lower_share) holds where the kernel rations autogroup writes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from crumb.qa.limits import AUTOGROUP_NICE, autogroup_of, has_autogroups, lower_share

needs_autogroups = pytest.mark.skipif(not has_autogroups(), reason="this kernel shows this process no autogroup")

WRITE_TWO = """
import sys
from crumb.qa.limits import lower_share
print([lower_share(int(pid)) for pid in sys.argv[1:]])
"""


@pytest.fixture
def sessions() -> Iterator[list[int]]:
    """Two processes, each the leader of a session (so an autogroup) of its own, like two QA browsers."""
    procs = [subprocess.Popen([sys.executable, "-c", "import os, sys; os.setsid(); print(1, flush=True); sys.stdin.read()"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(2)]
    try:
        for p in procs:
            assert p.stdout is not None and p.stdout.readline() == b"1\n"  # setsid has run
        yield [p.pid for p in procs]
    finally:
        for p in procs:
            p.kill()
            p.wait()


def nice_of(pid: int) -> str:
    return Path(f"/proc/{pid}/autogroup").read_text().split()[-1]


@needs_autogroups
def test_two_browsers_started_at_once_without_cap_sys_admin_both_get_the_lower_share(sessions: list[int]) -> None:
    """Without CAP_SYS_ADMIN the kernel refuses a second autogroup write within 0.1 s with EAGAIN (a
    container's root, or CI): two runners starting their browsers together must both be lowered."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("needs setpriv (util-linux) to drop CAP_SYS_ADMIN")
    out = subprocess.run([setpriv, "--inh-caps=-sys_admin", "--bounding-set=-sys_admin", sys.executable, "-c", WRITE_TWO,
                          *map(str, sessions)], capture_output=True, text=True, timeout=60)
    if out.returncode != 0 and out.stderr.startswith("setpriv:"):  # its own refusal, not the child's
        pytest.skip(f"setpriv could not drop CAP_SYS_ADMIN here: {out.stderr.strip()}")
    assert out.stdout.strip() == "[None, None]", out.stdout + out.stderr
    assert [nice_of(pid) for pid in sessions] == [str(AUTOGROUP_NICE)] * 2


@needs_autogroups
def test_a_process_in_qas_own_autogroup_is_left_alone_and_the_reason_given() -> None:
    before = Path("/proc/self/autogroup").read_text()
    why = lower_share(os.getpid(), 7)
    assert why is not None and "QA's own autogroup" in why
    assert Path("/proc/self/autogroup").read_text() == before


def test_an_empty_autogroup_file_names_no_group() -> None:
    """CI's kernel showed QA's process and its browser an empty /proc/<pid>/autogroup: no group of their
    own, so nothing to lower (lower_share gives None), not a warning on every `crumb run`."""
    assert autogroup_of("/autogroup-12 nice 0\n") == "/autogroup-12"
    assert autogroup_of("") is None and autogroup_of("\n") is None


def test_a_browser_already_gone_is_nothing_to_lower() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    assert lower_share(gone.pid) is None
