"""Wire timing in the records and the summary's ``measurement`` section: a real run over
the mock server with the real SDKs, old records without the new fields, the section's
rules, and ``report`` keeping the runner's loop lag when it rewrites summary.json."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from rich.console import Console

from supportsim.app import write_summary
from supportsim.batch import RunRequest, Session, execute, prepare_run
from supportsim.report import report_command, summarise
from supportsim.store import (
    MIN_SAMPLES,
    SUMMARY,
    ConversationRecord,
    LLMCallRecord,
    LoopLagStats,
    Measurement,
    Summary,
    describe_measurement,
    iter_records,
    measurement_from,
    measurement_of,
    stored_wire,
    with_loop_lag,
)
from supportsim.testing import MockLLMServer, autopilot

TESTS = Path(__file__).parents[1]
OLD_CALL = {"role": "agent", "model": "m", "llm_ms": 120.0, "ttft_ms": 40.0}
LAG = {"interval_ms": 100.0, "samples": 120, "p50_ms": 3.0, "p99_ms": 30.0, "saturated": True}


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as srv:
        srv.default(None, autopilot)
        srv.latency(ttft_ms=2, total_ms=6)
        yield srv


async def _run(server: MockLLMServer, out: Path) -> Session:
    overrides = {
        "scenarios": [str(TESTS / "batch" / "scenarios")],
        "personas": str(TESTS / "fixtures" / "personas"),
        "out": str(out),
        "agents": ["openai:agent-o", "anthropic:agent-a"],
        "customer": "openai:customer-m",
        "concurrency": 4,
    }
    env = {
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": server.url + "/v1",
        "ANTHROPIC_API_KEY": "sk-test",
        "ANTHROPIC_BASE_URL": server.url,
    }
    prepared = prepare_run(RunRequest(None, overrides, run_id="r"), env)
    try:
        session = await execute(prepared.session, prepared.ctx, prepared.config, pool=prepared.pool)
    finally:
        await prepared.pool.aclose()
    assert session.status == "completed"
    return session


def _section(calls: int = 4, wire_calls: int = 4) -> dict[str, Any]:
    return {
        "calls": calls,
        "wire_calls": wire_calls,
        "client_ms": {"p50": 1.0, "p99": 2.0},
        "loop_lag_ms": None,
        "inflation_ms": None,
        "lagged_calls": 0,
        "saturated": False,
    }


def _lag(**changes: Any) -> LoopLagStats:
    return LoopLagStats.model_validate(LAG | changes)


def _m(calls: int = 4, wire_calls: int = 4, **changes: Any) -> Measurement:
    return Measurement.model_validate(_section(calls, wire_calls) | changes)


def _d(section: Measurement | None) -> dict[str, Any] | None:
    return None if section is None else section.model_dump()


async def test_a_run_records_ordered_wire_stamps_for_every_llm_call(
    server: MockLLMServer, tmp_path: Path
) -> None:
    records = list(iter_records((await _run(server, tmp_path)).run_dir))
    calls = [c for r in records for c in r.llm_calls]
    # the statement judge is the Customer's model by default: its calls are stamped too
    assert {c.role for c in calls} == {"agent", "customer", "judge"}
    assert {c.model for c in calls if c.role == "agent"} == {"agent-o", "agent-a"}
    assert {c.model for c in calls if c.role == "judge"} == {"openai:customer-m"}
    for c in calls:
        wire = stored_wire(c)
        assert wire is not None and c.client_ms is not None and c.client_ms >= 0.0
        assert 0.0 <= wire.sent_ms <= wire.first_byte_ms <= wire.last_byte_ms <= wire.total_ms
        assert c.llm_ms == pytest.approx(wire.last_byte_ms - wire.sent_ms)
        assert c.llm_ms <= wire.total_ms
    section = measurement_of(records).model_dump()
    assert section["calls"] == section["wire_calls"] == len(calls)
    assert section["client_ms"]["p50"] is not None


async def test_report_keeps_the_runners_loop_lag_in_the_measurement(
    server: MockLLMServer, tmp_path: Path
) -> None:
    session = await _run(server, tmp_path)
    run_dir = session.run_dir
    summary, _ = write_summary(session, 1)  # as ``supportsim run`` ends
    path = run_dir / SUMMARY
    written = json.loads(path.read_text())
    assert summary.measurement is not None
    assert written["measurement"] == summary.measurement.model_dump(mode="json")
    Summary.model_validate(written)
    assert written["measurement"]["wire_calls"] > 0
    written["run"]["loop_lag"] = LAG  # as a saturated runner would have written it
    path.write_text(json.dumps(written))
    html = run_dir / "report.html"
    code = report_command(
        run_dir,
        json_out=True,
        html=True,
        html_path=html,
        out=Console(file=io.StringIO()),
        err=Console(file=io.StringIO()),
    )
    assert code == 0
    rewritten = json.loads(path.read_text())["measurement"]
    assert rewritten["loop_lag_ms"] == {"p50": 3.0, "p99": 30.0}
    assert rewritten["saturated"] is True  # 120 samples, p99 30 ms: the runner's verdict
    # the estimate stays the calls' own lag, read from the records, not the run's
    assert rewritten["inflation_ms"] == written["measurement"]["inflation_ms"] is not None
    assert rewritten["wire_calls"] == written["measurement"]["wire_calls"]
    assert "client saturated" in html.read_text()


def test_an_old_record_without_the_new_fields_loads() -> None:
    call = LLMCallRecord.model_validate(OLD_CALL)
    assert call.client_ms is None and call.sent_ms is None and stored_wire(call) is None
    assert call.loop_lag_ms is None
    record = ConversationRecord.model_validate(
        {
            "unit_id": "s|a|1",
            "scenario_id": "s",
            "agent": "a",
            "customer": "c",
            "trial": 1,
            "status": "completed",
            "termination": "customer_done",
            "llm_calls": [OLD_CALL],
            "messages": [{"role": "agent", "content": "hi", "response_ms": 130.0}],
            "started_at": "2025-01-01T00:00:00+00:00",
            "ended_at": "2025-01-01T00:00:01+00:00",
        }
    )
    assert record.messages[0].loop_lag_ms is None
    assert measurement_of([record]).model_dump() == _section(calls=1, wire_calls=0) | {
        "client_ms": {"p50": None, "p99": None}
    }


def test_a_new_record_gives_its_wire_stamps_back() -> None:
    stamped = LLMCallRecord.model_validate(
        OLD_CALL | {"client_ms": 5.0, "sent_ms": 2.0, "first_byte_ms": 50.0, "last_byte_ms": 122.0}
    )
    wire = stored_wire(stamped)
    assert wire is not None and wire.total_ms == pytest.approx(125.0)
    partial = LLMCallRecord.model_validate(OLD_CALL | {"client_ms": 5.0, "sent_ms": 2.0})
    assert stored_wire(partial) is None


def test_the_run_lag_fills_the_estimate_only_of_old_records_and_from_enough_samples() -> None:
    filled = _d(with_loop_lag(_m(), _lag()))  # old records: no per-call lag
    assert filled is not None
    assert filled["loop_lag_ms"] == filled["inflation_ms"] == {"p50": 3.0, "p99": 30.0}
    assert filled["saturated"] is True
    few = _d(with_loop_lag(_m(), _lag(samples=MIN_SAMPLES - 1)))
    assert few is not None and few["loop_lag_ms"] == {"p50": 3.0, "p99": 30.0}
    assert few["inflation_ms"] is None  # a p99 of a few samples is the start-up's hiccup
    assert few["saturated"] is False
    untimed = _d(with_loop_lag(_m(wire_calls=0), _lag()))
    assert untimed is not None
    assert untimed["loop_lag_ms"] == {"p50": 3.0, "p99": 30.0} and untimed["inflation_ms"] is None
    own = _d(with_loop_lag(_m(inflation_ms={"p50": 1.0, "p99": 2.0}), _lag()))
    assert own is not None and own["inflation_ms"] == {"p50": 1.0, "p99": 2.0}
    assert with_loop_lag(_m(), None) == _m()
    assert with_loop_lag(_m(), LoopLagStats(interval_ms=100.0, samples=0)) == _m()
    assert with_loop_lag(None, _lag()) is None


def test_the_estimate_is_the_wire_timed_calls_own_loop_lag() -> None:
    section = measurement_from([1.0, 2.0, None, 1.5], [0.5, 40.0, 900.0, None]).model_dump()
    assert section["wire_calls"] == 3
    # the untimed call's lag is left out, the call without a lag reading too
    assert section["inflation_ms"] == {"p50": 0.5, "p99": 40.0}
    assert section["lagged_calls"] == 1
    assert measurement_from([1.0, 2.0]).inflation_ms is None  # no lag measured


def test_the_summary_model_takes_the_section_and_rejects_unknown_fields() -> None:
    base = {
        "units": 0,
        "trials": 1,
        "agents": {},
        "by_category": {},
        "by_domain": {},
        "scenarios": {},
        "failing_checks": [],
    }
    ok = Summary.model_validate(base | {"measurement": _d(with_loop_lag(_m(), _lag()))})
    assert ok.measurement is not None and ok.measurement.inflation_ms is not None
    assert Summary.model_validate(base).measurement is None  # an older summary
    with pytest.raises(ValidationError, match="measurement"):
        Summary.model_validate(base | {"measurement": _section() | {"bogus": 1}})


def test_the_terminal_line_states_the_estimate_and_the_lag() -> None:
    line = describe_measurement(with_loop_lag(_m(), _lag()))
    assert line is not None
    assert "inflated by about p50 3 ms, p99 30 ms" in line
    assert "4 of 4 calls timed at the wire" in line
    assert "inflated by about n/a" in (describe_measurement(_m()) or "")
    assert describe_measurement(None) is None


def test_summarise_adds_the_section_from_records() -> None:
    measured = summarise([]).measurement
    assert measured is not None and measured.calls == 0
