"""A plug-in benchmark's own scoring, registered by name (``scoring/_benchmark.py``): its
module is imported only for the scenarios it claims, and those are scored, judged and
asked no statement questions its way."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from supportsim.conversation import Transcript
from supportsim.domains import mock
from supportsim.scenario import Scenario
from supportsim.scoring import _benchmark as benchmark_module
from supportsim.scoring import assertion_verdicts as verdicts_of
from supportsim.scoring import (
    oracle_run,
    reference_state,
    register_scoring,
    score,
    statement_questions,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "scenarios" / "mock_duplicate_refund.yaml"
PLUGIN = textwrap.dedent(
    """
    from supportsim.llm import LLMResponse
    from supportsim.scoring import AssertionVerdict, Check, Score

    class BenchScoring:
        def score(self, scenario, transcript, reference, *, verdicts=None):
            met = bool(verdicts) and all(v.met for v in verdicts)
            check = Check("reward:BENCH", "reward", met, "bench's own reward")
            return Score(checks=(check,), strict=met, partial=1.0 if met else 0.0)

        async def assertion_verdicts(self, scenario, transcript, call):
            if call is None:
                return None, None
            return [AssertionVerdict("said hello", True, "it did")], None

    def scoring():
        return BenchScoring()
    """
)


@pytest.fixture
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A benchmark ``bench`` claiming scenarios whose id starts ``bench_``; the registration
    ends with the test."""
    monkeypatch.setattr(benchmark_module, "_PLUGINS", dict(benchmark_module._PLUGINS))
    (tmp_path / "bench_scoring_plugin.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "bench_scoring_plugin", raising=False)
    register_scoring("bench", "bench_scoring_plugin:scoring", lambda s: s.id.startswith("bench_"))


def scenario(new_id: str | None = None) -> Scenario:
    s = Scenario.model_validate(yaml.safe_load(FIXTURE.read_text()))
    return s if new_id is None else s.model_copy(update={"id": new_id})


async def gold(s: Scenario) -> tuple[Transcript, dict[str, object]]:
    transcript, _ = await oracle_run(mock.domain(), s)
    return transcript, await reference_state(mock.domain(), s)


async def test_an_unclaimed_scenario_is_ours_and_never_imports_the_plugin(bench: None) -> None:
    plain = scenario()
    transcript, reference = await gold(plain)
    result = score(plain, mock.domain(), transcript, reference)
    assert result.strict and "reward:BENCH" not in [c.id for c in result.checks]
    assert await verdicts_of(plain, transcript, None) == (None, None)
    assert "bench_scoring_plugin" not in sys.modules


async def test_a_claimed_scenario_is_scored_and_judged_by_the_plugin(bench: None) -> None:
    claimed = scenario("bench_task_1")
    transcript, reference = await gold(claimed)
    assert statement_questions(claimed, mock.domain(), transcript, reference) == []
    unjudged = score(claimed, mock.domain(), transcript, reference)
    assert [c.id for c in unjudged.checks] == ["reward:BENCH"] and not unjudged.strict
    assert "bench_scoring_plugin" in sys.modules

    async def never(_request: object) -> object:
        raise AssertionError("the plug-in's judge decides whether to call")

    verdicts, _ = await verdicts_of(claimed, transcript, never)  # type: ignore[arg-type]
    assert verdicts is not None and [v.assertion for v in verdicts] == ["said hello"]
    judged = score(claimed, mock.domain(), transcript, reference, verdicts=verdicts)
    assert judged.strict
