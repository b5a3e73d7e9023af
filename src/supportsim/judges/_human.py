"""Human labels (CSV of unit_id, criterion, label): a rater the judges are measured against.

Labels are checked against the run's completed units and the rubric's criteria before
anything is written; every problem is reported with its line, so the file is fixed in one
pass.
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Collection
from pathlib import Path
from typing import Any

from supportsim.errors import InputError, Problem, ScenarioError
from supportsim.store import DOCUMENT_SCHEMA_VERSION

REQUIRED_COLUMNS = ("unit_id", "criterion", "label")
PASS_WORDS = frozenset({"pass", "passed", "true", "yes", "y", "1"})
FAIL_WORDS = frozenset({"fail", "failed", "false", "no", "n", "0"})


def parse_label(text: str) -> bool | None:
    """pass/true/yes/1 -> True, fail/false/no/0 -> False, anything else -> None."""
    word = text.strip().lower()
    if word in PASS_WORDS:
        return True
    if word in FAIL_WORDS:
        return False
    return None


def load_human_labels(
    path: Path, *, units: Collection[str], criteria: Collection[str]
) -> dict[str, Any]:
    """Read and check a human labels CSV; the document ``human_labels.json`` stores.

    Raises:
        InputError: unreadable file, missing columns, or rows naming an unknown unit or
            criterion, an unreadable label, or contradicting an earlier row.
    """
    file = str(path)
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig")
    except OSError as exc:
        raise InputError(f"{file}: cannot read human labels: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{file}: not UTF-8 text: {exc}") from exc
    reader = csv.DictReader(text.splitlines())
    header = [h.strip() for h in reader.fieldnames or []]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise InputError(
            f"{file}: missing column(s) {', '.join(missing)} (need a header row: "
            f"{','.join(REQUIRED_COLUMNS)})"
        )
    problems: list[Problem] = []
    labels: dict[tuple[str, str], bool] = {}
    for row in reader:
        line = reader.line_num
        cells = {(k or "").strip(): (v or "").strip() for k, v in row.items() if k is not None}
        unit, criterion, word = (cells.get(c, "") for c in REQUIRED_COLUMNS)
        if not unit and not criterion and not word:
            continue
        if unit not in units:
            problems.append(
                Problem(file, "unit_id", f"no completed unit {unit!r} in the run", line)
            )
            continue
        if criterion not in criteria:
            known = ", ".join(criteria)
            problems.append(
                Problem(file, "criterion", f"unknown criterion {criterion!r} ({known})", line)
            )
            continue
        label = parse_label(word)
        if label is None:
            problems.append(Problem(file, "label", f"{word!r} is not pass or fail", line))
            continue
        if labels.get((unit, criterion), label) != label:
            problems.append(
                Problem(file, "label", f"contradicts an earlier row for {unit} {criterion}", line)
            )
            continue
        labels[(unit, criterion)] = label
    if problems:
        raise ScenarioError(problems)
    if not labels:
        raise InputError(f"{file}: no labels")
    return {
        "schema_version": DOCUMENT_SCHEMA_VERSION,
        "source": file,
        "sha256": hashlib.sha256(raw).hexdigest(),
        "labels": [
            {"unit_id": u, "criterion": c, "label": "pass" if v else "fail"}
            for (u, c), v in sorted(labels.items())
        ],
    }
