"""Shared paths and builders of tau2 data for the tau2 tests."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parents[1] / "fixtures"
DATA = FIXTURES / "tau2"
RETAIL = DATA / "domains" / "retail"
PERSONAS = FIXTURES / "personas"
EXPECTED: dict[str, Any] = json.loads((RETAIL / "expected_train.json").read_text())
TASKS: list[dict[str, Any]] = json.loads((RETAIL / "tasks.json").read_text())


def data_dir(root: Path, tasks: list[Any], splits: dict[str, Any] | None = None) -> Path:
    """A tau2 data directory under ``root`` holding ``tasks`` (the fixture's db and policy)."""
    retail = root / "data" / "tau2" / "domains" / "retail"
    retail.mkdir(parents=True)
    shutil.copyfile(RETAIL / "db.json", retail / "db.json")
    shutil.copyfile(RETAIL / "policy.md", retail / "policy.md")
    (retail / "tasks.json").write_text(json.dumps(tasks))
    if splits is not None:
        (retail / "split_tasks.json").write_text(json.dumps(splits))
    return root / "data" / "tau2"


def task(task_id: str = "t1", **criteria: Any) -> dict[str, Any]:
    """A well-formed tau2 retail task (task 0's instructions and gold path)."""
    base = json.loads(json.dumps(TASKS[0]))
    base["id"] = task_id
    base["evaluation_criteria"].update(criteria)
    return base


@dataclass(frozen=True, slots=True)
class CliImport:
    """One ``supportsim import tau2`` of the train split: where it wrote and what it said."""

    out: Path
    exit_code: int
    output: str
