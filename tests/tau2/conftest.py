"""tau2 fixtures: the train split imported once per session.

Tests never read ``../shared``: the tau2 data is ``tests/fixtures/tau2`` (MIT, with its
LICENSE), laid out as a clone's ``data/tau2``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tau2_helpers import DATA

from supportsim.authoring import import_tau2


@pytest.fixture(scope="session")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """All 74 train tasks imported (naming the fixture persona ``tester``)."""
    out = tmp_path_factory.mktemp("tau2") / "tau2_retail"
    import_tau2(DATA, split="train", out=out, persona="tester")
    return out
