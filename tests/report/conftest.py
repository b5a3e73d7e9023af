"""The frozen fixture runs (tests/fixtures/runs) and a builder for synthetic records.

v1: agents alpha and beta, 3 scenarios x 2 trials, finished; one infra error retried on
resume, one harness error, one unpriced conversation, an HTML/script payload in alpha's
``refund_roaming`` trial 1. v2: agents alpha and gamma, interrupted (7 of 12 units, torn
last line). Every expected number in these tests is worked out by hand from those files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

RUNS = Path(__file__).parent.parent / "fixtures" / "runs"


@pytest.fixture
def v1_dir() -> Path:
    return RUNS / "v1"


@pytest.fixture
def v2_dir() -> Path:
    return RUNS / "v2"


@pytest.fixture
def v1_copy(tmp_path: Path) -> Path:
    """A writable copy of v1 (for commands that write summary.json or report.html)."""
    return Path(shutil.copytree(RUNS / "v1", tmp_path / "v1"))
