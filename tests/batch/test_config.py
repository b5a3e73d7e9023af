"""Run config files, flag overrides, durations, auto concurrency, selection, auto steps."""

from __future__ import annotations

from pathlib import Path

import pytest
from batch_helpers import LOOKUP

from supportsim.batch import (
    Batch,
    LoopLag,
    RunConfig,
    RunRequest,
    load_run_config,
    parse_duration,
    resolve_config,
    with_overrides,
)
from supportsim.errors import InputError, ScenarioError


def test_run_config_file_with_every_section(tmp_path: Path):
    path = tmp_path / "nightly.yaml"
    path.write_text(
        "agents: [oracle, openai:gpt-4.1-mini]\n"
        "customer: anthropic:claude-haiku-4-5\n"
        "trials: 3\n"
        "concurrency: auto\n"
        "rate_limits:\n"
        "  openai: {rpm: 500, tpm: 200000, max_concurrency: 32}\n"
        "  gpt-4.1-mini: {rpm: 100}\n"
        "retries: {max_attempts: 5}\n"
        "budget_usd: 20\n"
        "deadline_s: 8h\n"
        "tags: [billing]\n"
    )
    config = load_run_config(path)
    assert config.name == "nightly"  # from the file name
    assert config.concurrency == "auto"
    assert config.deadline_s == 8 * 3600
    assert config.rate_limits["openai"].tpm == 200000
    assert config.rate_limits["gpt-4.1-mini"].max_concurrency is None
    assert config.retries.max_attempts == 5


def test_config_errors_name_the_file_and_field(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text("trials: 0\nconcurency: 3\nrate_limits: {openai: {rps: 3}}\n")
    with pytest.raises(ScenarioError) as caught:
        load_run_config(path)
    text = str(caught.value)
    assert f"{path}:1 [trials]" in text
    assert f"{path}:2 [concurency]: unknown field" in text
    assert f"{path}:3 [rate_limits.openai.rps]: unknown field" in text


def test_config_refuses_a_key_given_twice(tmp_path: Path):
    path = tmp_path / "twice.yaml"
    path.write_text("trials: 2\nagents: [oracle]\n")
    assert load_run_config(path).trials == 2
    path.write_text("trials: 2\nagents: [oracle]\ntrials: 3\n")
    with pytest.raises(ScenarioError) as caught:
        load_run_config(path)
    assert [(p.field, p.line, p.message) for p in caught.value.problems] == [
        ("trials", 3, "duplicate key")
    ]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("trials: 1\nname: &n x\nout: *n\n", 3, "YAML aliases (*n) are not accepted"),
        ("trials: 1\nname: " + "[" * 5000 + "]" * 5000 + "\n", 2, "nested deeper than 64"),
        ("trials: 1\nmax_turns: " + "9" * 5000 + "\n", 2, "integer longer than 40 digits"),
    ],
    ids=["alias", "deep", "long-int"],
)
def test_config_limits_are_problems_with_a_line(tmp_path: Path, text: str, line: int, message):
    path = tmp_path / "limits.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as caught:
        load_run_config(path)
    [problem] = caught.value.problems
    assert (problem.file, problem.line) == (str(path), line)
    assert problem.message.startswith(message)


def test_flags_override_the_file_and_bad_flags_name_the_field():
    base = RunConfig(trials=2, concurrency=4)
    merged = with_overrides(base, {"trials": 5, "concurrency": "auto", "agents": None})
    assert (merged.trials, merged.concurrency, merged.agents) == (5, "auto", ["oracle"])
    assert with_overrides(base, {"concurrency": "16"}).concurrency == 16
    assert with_overrides(base, {"concurrency": "auto:256"}).concurrency == "auto:256"
    for bad in ("auto:0", "auto:5000", "auto:x", "auto:", "0", "4097"):
        with pytest.raises(ScenarioError, match=r"auto:N"):
            with_overrides(base, {"concurrency": bad})
    with pytest.raises(ScenarioError, match=r"command line \[concurrency\]"):
        with_overrides(base, {"concurrency": "lots"})
    with pytest.raises(ScenarioError, match=r"command line \[deadline_s\]"):
        with_overrides(base, {"deadline_s": "soon"})


def test_durations():
    assert parse_duration(90) == 90.0
    assert parse_duration("90") == 90.0
    assert parse_duration("30m") == 1800.0
    assert parse_duration("1.5h") == 5400.0
    with pytest.raises(ValueError):
        parse_duration("tomorrow")


def test_resume_without_run_id_is_refused():
    with pytest.raises(InputError, match="--resume needs --run-id"):
        resolve_config(RunRequest(resume=True))


def test_resume_without_config_uses_the_stored_one(out: Path, tmp_path: Path):
    from supportsim.batch import fingerprint, prepare

    config = RunConfig(name="stored", trials=3, out=str(out), ids=[LOOKUP])
    prepare(
        config,
        fingerprint(config, [], {}, {}, agents={"oracle": "oracle"}),
        concurrency=config.bounds,
        run_id="x",
        resume=False,
        force=False,
    )
    again = resolve_config(RunRequest(None, {"out": str(out), "trials": None}, "x", resume=True))
    assert (again.name, again.trials, again.ids) == ("stored", 3, [LOOKUP])


def _running(batch: Batch, n: int) -> None:
    """``n`` units in flight, as the gate and the state count them."""
    batch.gate.in_flight = batch.state.running = n


def test_auto_concurrency_backs_off_on_lag_and_grows_while_saturated_and_fast():
    batch = Batch([], None, None, concurrency="auto", lag=LoopLag())  # type: ignore[arg-type]
    gate = batch.gate
    assert (gate.limit, gate.floor, gate.ceiling) == (16, 4, 1024)
    batch.step_auto(25.0)  # nothing in flight: that lag is not the units'
    assert gate.limit == 16
    _running(batch, 16)
    batch.step_auto(25.0)
    assert gate.limit == 12
    batch.step_auto(25.0)  # 16 still in flight: the cut has not bitten yet, hold
    assert gate.limit == 12
    _running(batch, 8)
    batch.step_auto(2.0)  # low lag but the gate is not full: no growth
    assert gate.limit == 12
    _running(batch, 12)
    batch.step_auto(2.0)
    assert gate.limit == 13
    batch.step_auto(7.0)  # between the thresholds: hold
    assert gate.limit == 13
    assert batch.concurrency_trace == [16, 12, 13]
    for _ in range(20):
        _running(batch, gate.limit)
        batch.step_auto(500.0)
    assert gate.limit == 4  # the floor


def test_auto_with_a_ceiling_never_grows_past_it():
    batch = Batch([], None, None, concurrency="auto:20", lag=LoopLag())  # type: ignore[arg-type]
    gate = batch.gate
    assert (gate.limit, gate.floor, gate.ceiling) == (16, 4, 20)
    for _ in range(10):
        _running(batch, gate.limit)
        batch.step_auto(1.0)
    assert gate.limit == 20 and batch.concurrency_trace == [16, 18, 20]
    small = Batch([], None, None, concurrency="auto:2", lag=LoopLag())  # type: ignore[arg-type]
    assert (small.gate.limit, small.gate.floor, small.gate.ceiling) == (2, 2, 2)


def test_a_run_being_written_cannot_be_resumed_by_a_second_session(out: Path):
    from supportsim.batch import fingerprint, prepare

    config = RunConfig(name="locked", out=str(out), ids=[LOOKUP])
    stamp = fingerprint(config, [], {}, {}, agents={"oracle": "oracle"})
    first = prepare(config, stamp, concurrency=config.bounds, run_id="x", resume=False, force=False)
    with pytest.raises(InputError, match="being written by another supportsim session"):
        prepare(config, stamp, concurrency=config.bounds, run_id="x", resume=True, force=False)
    assert first.lock is not None
    first.lock.release()  # what execute does when the session ends
    second = prepare(config, stamp, concurrency=config.bounds, run_id="x", resume=True, force=False)
    assert second.todo == first.todo
    assert second.lock is not None
    second.lock.release()


def test_a_refused_resume_leaves_the_run_unlocked(out: Path):
    from supportsim.batch import fingerprint, prepare

    config = RunConfig(name="changed", out=str(out), ids=[LOOKUP])
    first = prepare(
        config,
        fingerprint(config, [], {}, {}, agents={"oracle": "oracle"}),
        concurrency=config.bounds,
        run_id="x",
        resume=False,
        force=False,
    )
    assert first.lock is not None
    first.lock.release()
    changed = RunConfig(name="changed", out=str(out), ids=[LOOKUP], trials=2)
    with pytest.raises(InputError, match="refusing to resume"):
        prepare(
            changed,
            fingerprint(changed, [], {}, {}, agents={"oracle": "oracle"}),
            concurrency=changed.bounds,
            run_id="x",
            resume=True,
            force=False,
        )
    again = prepare(
        config,
        fingerprint(config, [], {}, {}, agents={"oracle": "oracle"}),
        concurrency=config.bounds,
        run_id="x",
        resume=True,
        force=False,
    )
    assert again.lock is not None
    again.lock.release()
