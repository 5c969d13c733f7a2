"""The second half of the registry's genres through plan, build, full QA and every fault (see
test_every_genre.py; two files so the two test workers of `make test` each take a half)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_every_genre import FIRST_HALF, GENRE_IDS, SECOND_HALF, check_genre

pytestmark = pytest.mark.browser


def test_the_halves_cover_every_genre_once() -> None:
    assert sorted(FIRST_HALF + SECOND_HALF) == GENRE_IDS and not set(FIRST_HALF) & set(SECOND_HALF)


@pytest.mark.parametrize("genre_id", SECOND_HALF)
def test_the_genre_passes_qa_and_every_fault_fails_it(genre_id: str, tmp_path: Path, qa_runner) -> None:
    check_genre(genre_id, tmp_path, qa_runner)
