"""Lazy exports: a package's name loads its module when first read, and only then."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
import crumb.qa, crumb.genres, crumb.actors.embedded
before = [m for m in ("crumb.qa.runner", "crumb.genres.model", "crumb.actors.embedded.adapter") if m in sys.modules]
from crumb.qa import QARunner
from crumb.genres import Genre
from crumb.actors.embedded import LocalAdapter
print(before, QARunner.__module__, Genre.__module__, LocalAdapter.__module__)
"""


def test_a_packages_heavy_module_loads_when_its_name_is_first_read() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["[]", "crumb.qa.runner", "crumb.genres.model", "crumb.actors.embedded.adapter"]


def test_a_name_no_module_exports_is_an_attribute_error_naming_the_package() -> None:
    import crumb.qa

    with pytest.raises(AttributeError, match="module 'crumb.qa' has no attribute 'QARuner'"):
        crumb.qa.QARuner  # noqa: B018  (a typo: read for its error)
    with pytest.raises(ImportError, match="cannot import name 'QARuner'"):
        from crumb.qa import QARuner  # noqa: F401
