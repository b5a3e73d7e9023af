"""tau2 fixtures: the train split imported once per session.

Tests never read ``../shared``: the tau2 data is ``tests/fixtures/tau2`` (MIT, with its
LICENSE), laid out as a clone's ``data/tau2``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tau2_helpers import DATA, CliImport
from typer.testing import CliRunner

from supportsim.cli import app


@pytest.fixture(scope="session")
def cli_import(tmp_path_factory: pytest.TempPathFactory) -> CliImport:
    """All 74 train tasks imported once, through the CLI (naming the fixture persona
    ``tester``): the import test asserts on it, the other tests read what it wrote (never
    change it: copy or link what a test alters)."""
    out = tmp_path_factory.mktemp("tau2") / "scenarios" / "tau2_retail"
    args = ["import", "tau2", str(DATA), "--split", "train", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--persona", "tester"], env={"COLUMNS": "400"})
    return CliImport(out, result.exit_code, result.output)


@pytest.fixture(scope="session")
def imported(cli_import: CliImport) -> Path:
    """All 74 train tasks imported (naming the fixture persona ``tester``)."""
    assert cli_import.exit_code == 0, cli_import.output
    return cli_import.out
