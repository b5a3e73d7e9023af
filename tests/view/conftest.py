"""The viewer's tests' runs folder: copies of the frozen fixture runs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

RUNS = Path(__file__).parent.parent / "fixtures" / "runs"


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    """A runs folder holding copies of the fixture runs v1 (finished) and v2 (interrupted,
    torn last line)."""
    folder = tmp_path / "runs"
    for name in ("v1", "v2"):
        shutil.copytree(RUNS / name, folder / name)
    return folder
