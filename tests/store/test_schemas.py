"""The typed run directory: every file has a model and an exported JSON Schema, the files
of real runs validate against the schemas, and what does not fit is named, never defaulted."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from supportsim.batch import read_manifest
from supportsim.cli import app
from supportsim.errors import InputError
from supportsim.store import DOCUMENTS, RECORDS, export_schemas, json_schemas, run_dir_problems
from supportsim.testing import MockLLMServer, autopilot

ROOT = Path(__file__).parents[2]
SCHEMAS = ROOT / "schemas"
FIXTURE_RUNS = ROOT / "tests" / "fixtures" / "runs"
BATCH = ROOT / "tests" / "batch" / "scenarios"
PERSONAS = ROOT / "tests" / "fixtures" / "personas"
FILES = {file: name for name, (file, _) in {**DOCUMENTS, **RECORDS}.items()}


def validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def validate_dir(run_dir: Path) -> list[str]:
    """Every known file of the run directory against its exported schema; the files seen."""
    seen = []
    for path in sorted(run_dir.iterdir()):
        name = FILES.get(path.name)
        if name is None:
            continue
        check = validator(name)
        if path.suffix == ".jsonl":
            complete = path.read_text().split("\n")[:-1]  # a torn last line is not a record
            for line in complete:
                if line.strip():
                    check.validate(json.loads(line))
        else:
            check.validate(json.loads(path.read_text()))
        seen.append(path.name)
    return seen


def test_the_committed_schemas_are_the_models_schemas(tmp_path: Path) -> None:
    export_schemas(tmp_path)
    committed = sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    assert committed == sorted(p.name for p in tmp_path.iterdir()), (
        "run `supportsim schemas` to update schemas/"
    )
    for path in tmp_path.iterdir():
        assert json.loads(path.read_text()) == json.loads((SCHEMAS / path.name).read_text()), (
            f"{path.name} is out of date: run `supportsim schemas`"
        )
    assert set(json_schemas()) == {p.stem.removesuffix(".schema") for p in tmp_path.iterdir()}


@pytest.mark.parametrize("run", sorted(p.name for p in FIXTURE_RUNS.iterdir() if p.is_dir()))
def test_the_frozen_fixture_runs_validate(run: str) -> None:
    seen = validate_dir(FIXTURE_RUNS / run)
    assert {"run.json", "conversations.jsonl"} <= set(seen)
    assert run_dir_problems(FIXTURE_RUNS / run) == []


@pytest.fixture
def threaded() -> Iterator[MockLLMServer]:
    server = MockLLMServer()
    server.start_in_thread()
    server.default(None, autopilot)
    try:
        yield server
    finally:
        server.stop_thread()


def test_every_file_of_a_fresh_run_validates(
    tmp_path: Path, threaded: MockLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    env = {"OPENAI_API_KEY": "sk-schema", "OPENAI_BASE_URL": threaded.url + "/v1"}
    runner = CliRunner()
    base = ["--scenarios", str(BATCH), "--personas", str(PERSONAS), "--out", "runs"]
    ran = runner.invoke(
        app, ["run", *base, "--run-id", "r", "--agent", "oracle", "--agent", "openai:a"], env=env
    )
    assert ran.exit_code == 0, ran.output
    run_dir = tmp_path / "runs" / "r"
    records = (run_dir / "conversations.jsonl").read_text().splitlines()
    unit = json.loads(records[0])["unit_id"]
    labels = tmp_path / "labels.csv"
    labels.write_text(f"unit_id,criterion,label\n{unit},overall,pass\n")
    judged = runner.invoke(
        app, ["judge", str(run_dir), "--judge", "openai:j", "--human", str(labels)], env=env
    )
    assert judged.exit_code == 0, judged.output
    assert runner.invoke(app, ["rescore", str(run_dir)]).exit_code == 0
    assert runner.invoke(app, ["report", str(run_dir), "--json"]).exit_code == 0
    seen = validate_dir(run_dir)
    assert set(seen) == {
        "run.json",
        "summary.json",
        "conversations.jsonl",
        "judgments.jsonl",
        "judges.json",
        "agreement.json",
        "human_labels.json",
        "rescored.jsonl",
    }
    assert run_dir_problems(run_dir) == []
    for name in ("run.json", "summary.json", "judges.json", "agreement.json"):
        assert json.loads((run_dir / name).read_text())["schema_version"] == 1


def test_a_schema_rejects_what_the_model_rejects() -> None:
    check = validator("summary")
    good = {
        "schema_version": 1,
        "units": 0,
        "trials": 1,
        "agents": {},
        "by_category": {},
        "by_domain": {},
        "scenarios": {},
        "failing_checks": [],
    }
    check.validate(good)
    for bad in (
        {**good, "units": "ten"},
        {**good, "colour": 1},
        {k: good[k] for k in list(good)[1:3]},
    ):
        with pytest.raises(jsonschema.ValidationError):
            check.validate(bad)


def test_a_manifest_field_that_does_not_fit_is_named_never_defaulted(tmp_path: Path) -> None:
    run_dir = tmp_path / "v1"
    shutil.copytree(FIXTURE_RUNS / "v1", run_dir)
    manifest = json.loads((run_dir / "run.json").read_text())
    manifest["sessions"][0]["units_planned"] = "twelve"
    (run_dir / "run.json").write_text(json.dumps(manifest))
    with pytest.raises(InputError) as caught:
        read_manifest(run_dir)
    problem = caught.value.problems[0]  # type: ignore[attr-defined]
    assert problem.file.endswith("run.json") and problem.field == "sessions.0.units_planned"
    assert [p.field for p in run_dir_problems(run_dir)] == ["sessions.0.units_planned"]
    resumed = CliRunner().invoke(app, ["run", "--out", str(tmp_path), "--run-id", "v1", "--resume"])
    assert resumed.exit_code == 2
    assert "sessions.0.units_planned" in resumed.output


def test_a_corrupted_record_line_is_reported_with_its_number(tmp_path: Path) -> None:
    run_dir = tmp_path / "v1"
    shutil.copytree(FIXTURE_RUNS / "v1", run_dir)
    path = run_dir / "conversations.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    lines[2] = '{"unit_id": 3}\n'
    path.write_text("".join(lines))
    problems = run_dir_problems(run_dir)
    assert problems and {p.line for p in problems} == {3}
    assert all(p.file.endswith("conversations.jsonl") for p in problems)
    shown = CliRunner().invoke(app, ["report", str(run_dir)])
    assert shown.exit_code == 2
    assert "conversations.jsonl:3" in shown.output.replace("\n", "")
