"""Judging runs through the batch's job runner: signals, budget and resume behave as for
conversations."""

from __future__ import annotations

import os
import signal
from collections import Counter
from pathlib import Path

from judge_helpers import PerUnitJudge, make_run, table_of

from supportsim.batch import JobRunner
from supportsim.judges import iter_judgments, judge_run
from supportsim.judges._session import JudgeBatch
from supportsim.testing import MockLLMServer

STRICT = "1111 1100 1000"


def test_judging_and_conversations_share_the_runner() -> None:
    from supportsim.batch import Batch

    assert issubclass(JudgeBatch, JobRunner) and issubclass(Batch, JobRunner)


async def test_first_ctrl_c_finishes_running_judgments_and_resume_completes(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, pattern=STRICT)
    server.default("j1", PerUnitJudge(table_of(STRICT)))

    def press_once(judgment, state) -> None:
        if state.done == 1:
            os.kill(os.getpid(), signal.SIGINT)

    first = await judge_run(
        run, judge_specs=["openai:j1"], concurrency=2, env=env, on_judgment=press_once
    )
    assert first.plan is not None and first.plan.status == "interrupted"
    done = list(iter_judgments(run))
    assert 1 <= len(done) < 12
    assert first.exit_code == 1
    again = await judge_run(run, judge_specs=["openai:j1"], concurrency=2, env=env)
    assert again.plan is not None and again.plan.status == "completed"
    assert len(again.plan.todo) == 12 - len(done)
    counts = Counter(j.unit_id for j in iter_judgments(run))
    assert len(counts) == 12 and set(counts.values()) == {1}  # each unit judged once


def test_judge_deadline_flag_is_checked(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from supportsim.cli import app

    run = make_run(tmp_path, pattern=STRICT)
    bad = CliRunner().invoke(app, ["judge", str(run), "--judge", "openai:j", "--deadline", "soon"])
    assert bad.exit_code == 2 and "--deadline" in bad.output


async def test_a_deadline_stops_starting_judgments(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, pattern=STRICT)
    server.default("j1", PerUnitJudge(table_of(STRICT)))
    outcome = await judge_run(run, judge_specs=["openai:j1"], deadline_s=0.0, env=env)
    assert outcome.plan is not None and outcome.plan.status == "deadline"
    assert list(iter_judgments(run)) == []  # a passed deadline starts nothing


def test_a_damaged_judges_manifest_is_named_not_a_traceback(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from supportsim.cli import app

    run = make_run(tmp_path, pattern=STRICT)
    for text, field in (("{not json", ""), ('{"sessions": 5}', "sessions")):
        (run / "judges.json").write_text(text)
        result = CliRunner().invoke(app, ["judge", str(run), "--judge", "openai:j"])
        assert result.exit_code == 2, result.output
        flat = result.output.replace("\n", "")
        assert "judges.json" in flat and (not field or f"[{field}]" in flat)
