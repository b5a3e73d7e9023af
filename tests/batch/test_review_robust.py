"""The customer review never costs a run what it had: an old run's persona hashes stay the
same after the persona gained fields, and a review that fails keeps the finished score."""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import SimpleNamespace

import orjson
import pytest
from typer.testing import CliRunner

from supportsim.batch._manifest import persona_hashes
from supportsim.cli import app
from supportsim.scenario import Persona
from supportsim.store import iter_records
from supportsim.testing import MockLLMServer, call, reply, say

REPO = Path(__file__).parents[2]
REFUND = REPO / "tests" / "batch" / "scenarios" / "refund.yaml"
PERSONAS = REPO / "tests" / "fixtures" / "personas"
OLD = {
    "id": "tester",
    "name": "Sam",
    "tone": "calm",
    "verbosity": "normal",
    "patience": 8,
    "language": "en",
    "volunteers": "some",
    "behaviours": ["typos"],
    "style": "",
}
"""A persona as a run.json made before cooperation/honesty/slips hashed it: every field."""
OLD_HASH = hashlib.sha256(orjson.dumps(OLD)).hexdigest()


def _hash(persona: Persona) -> str:
    return persona_hashes([SimpleNamespace(persona="tester")], {"tester": persona})["tester"]  # type: ignore[list-item]


def test_an_unchanged_persona_file_keeps_the_hash_an_older_run_recorded() -> None:
    assert _hash(Persona.model_validate(OLD)) == OLD_HASH
    file_like = {k: v for k, v in OLD.items() if k in ("id", "name", "tone", "behaviours")}
    assert _hash(Persona.model_validate(file_like)) == OLD_HASH


@pytest.mark.parametrize("field", [{"honesty": "changes_story"}, {"cooperation": "neutral"}])
def test_a_persona_file_that_sets_a_new_field_hashes_differently(field: dict) -> None:
    assert _hash(Persona.model_validate({**OLD, **field})) != OLD_HASH


def test_a_failing_review_keeps_the_finished_score(
    threaded_server: MockLLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("review bug")

    monkeypatch.setattr("supportsim.batch._unit.review_customer", broken)
    threaded_server.script(
        "cust-m",
        [
            say("My id is C-1 and my PIN is 4321, yes please refund CH-2."),
            say("Thanks!"),
            reply(tool_calls=[call("end_conversation", reason="satisfied")]),
        ],
    )
    env = {
        "COLUMNS": "220",
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": threaded_server.url + "/v1",
    }
    args = ["run", "--scenarios", str(REFUND), "--personas", str(PERSONAS), "--agent", "oracle"]
    args += ["--customer", "openai:cust-m", "--statement-judge", "none"]
    args += ["--out", str(tmp_path / "runs"), "--run-id", "r"]
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    (record,) = iter_records(tmp_path / "runs" / "r")
    assert record.status == "completed" and record.strict is True
    assert record.customer_review is not None
    assert record.customer_review.failed == "RuntimeError: review bug"
    assert record.customer_review.findings == [] and not record.customer_hindered
