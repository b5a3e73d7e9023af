"""Every file of a run directory has one model here, one writer and one reader.

The JSON documents (run.json, summary.json, judges.json, agreement.json) are validated when
written (a producer that drifts from its model is a bug, caught before the disk) and when
read (a hand-edited or foreign file is named with its field, never silently defaulted). The
JSONL files' lines are pydantic records already (``ConversationRecord``,
``JudgmentRecord``, ``RescoredRecord``). ``export_schemas`` writes each model's JSON Schema
to ``schemas/<name>.schema.json``, so tools outside Python can read a run directory; a test
keeps the committed files in step with the models.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from supportsim.errors import Problem, ScenarioError
from supportsim.store._files import read_json, write_json
from supportsim.store._judgments import JudgmentRecord
from supportsim.store._records import ConversationRecord
from supportsim.store._rescored import RescoredRecord
from supportsim.store._schema_judges import Agreement, HumanLabelsDoc, JudgesManifest
from supportsim.store._schema_run import RunManifest
from supportsim.store._schema_summary import Summary

M = TypeVar("M", bound=BaseModel)

DOCUMENTS: dict[str, tuple[str, type[BaseModel]]] = {
    "run": ("run.json", RunManifest),
    "summary": ("summary.json", Summary),
    "judges": ("judges.json", JudgesManifest),
    "agreement": ("agreement.json", Agreement),
    "human_labels": ("human_labels.json", HumanLabelsDoc),
}
"""Schema name -> (file name in a run directory, model) of the JSON documents."""

RECORDS: dict[str, tuple[str, type[BaseModel]]] = {
    "conversation_record": ("conversations.jsonl", ConversationRecord),
    "judgment": ("judgments.jsonl", JudgmentRecord),
    "rescored_record": ("rescored.jsonl", RescoredRecord),
}
"""Schema name -> (file name, model of one line) of the JSONL files."""


def _problems(path: Path, exc: ValidationError, line: int | None = None) -> list[Problem]:
    return [
        Problem(
            str(path),
            ".".join(str(p) for p in e["loc"]),
            "unknown field" if e["type"] == "extra_forbidden" else e["msg"],
            line=line,
        )
        for e in exc.errors(include_url=False)
    ]


def checked_model(model: type[M], data: Mapping[str, Any], path: Path) -> M:
    """``data`` (read from ``path``, or about to be written there) as ``model``.

    Raises:
        ScenarioError: each field that does not fit, naming the file and the field.
    """
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        raise ScenarioError(_problems(path, exc)) from None


def checked(model: type[BaseModel], data: Mapping[str, Any], path: Path) -> dict[str, Any]:
    """``data`` validated against ``model`` and dumped as given (only the fields it has).

    Raises:
        ScenarioError: each field that does not fit, naming the file and the field.
    """
    return checked_model(model, data, path).model_dump(mode="json", exclude_unset=True)


def write_doc(path: Path, model: type[BaseModel], data: Mapping[str, Any]) -> None:
    """The one writer of a run-directory document: validated, then written atomically."""
    write_json(path, checked(model, data, path))


def read_doc(path: Path, model: type[M]) -> M:
    """The one reader of a run-directory document, typed.

    Raises:
        ScenarioError: the file is not valid JSON or does not fit the model (file, field).
        OSError: the file cannot be read.
    """
    try:
        data = read_json(path)
    except ValueError as exc:
        raise ScenarioError([Problem(str(path), "", f"not valid JSON: {exc}")]) from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(_problems(path, exc)) from None


def json_schemas() -> dict[str, dict[str, Any]]:
    """Schema name -> JSON Schema of every file kind in a run directory."""
    out = {}
    for name, (file, model) in {**DOCUMENTS, **RECORDS}.items():
        schema = model.model_json_schema()
        schema["$id"] = f"https://supportsim.dev/schemas/{name}.schema.json"
        schema["description"] = (
            f"{file} in a supportsim run directory"
            + (" (one JSON object per line)" if file.endswith(".jsonl") else "")
            + (f". {schema['description']}" if schema.get("description") else "")
        )
        out[name] = schema
    return out


def export_schemas(folder: Path) -> list[Path]:
    """Write ``<name>.schema.json`` for every file kind into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in json_schemas().items():
        path = folder / f"{name}.schema.json"
        path.write_bytes(
            orjson.dumps(schema, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
        )
        written.append(path)
    return written


def run_dir_problems(run_dir: Path) -> list[Problem]:
    """Every problem of a run directory's files against their models, by file and line."""
    problems: list[Problem] = []
    for file, model in DOCUMENTS.values():
        path = run_dir / file
        if path.exists():
            try:
                read_doc(path, model)
            except ScenarioError as exc:
                problems += exc.problems
    for file, model in RECORDS.values():
        path = run_dir / file
        if not path.exists():
            continue
        with path.open("rb") as f:
            for number, line in enumerate(f, start=1):
                if not line.strip() or not line.endswith(b"\n"):
                    continue
                try:
                    model.model_validate_json(line)
                except ValidationError as exc:
                    problems += _problems(path, exc, number)
    return problems
