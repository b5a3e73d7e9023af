"""Summarising a run holds one record at a time and a few facts per unit, never every
record (a 10,000-unit run's records are gigabytes as models): counted, not measured."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from report_helpers import make_record

from supportsim.report import agent_summary, summarise
from supportsim.report._facts import Facts, unit_facts
from supportsim.store import CheckRecord, ConversationRecord, LLMCallRecord, MessageRecord

UNITS = 40


def _record(trial: int, **update: Any) -> ConversationRecord:
    """A record as read from a file: every string its own object."""
    record = make_record("s1", "a", trial, strict=trial % 3 != 0).model_copy(update=update)
    return ConversationRecord.model_validate_json(record.model_dump_json())


def _failing_check() -> list[CheckRecord]:
    return [CheckRecord(id="step:verify", kind="step", passed=False, reason="not called")]


def _most_alive(consume: Callable[[Iterable[ConversationRecord]], Any]) -> int:
    """The most records, among those already handed to ``consume``, alive at once."""
    handed: list[weakref.ref[ConversationRecord]] = []
    most = 0

    def stream() -> Iterator[ConversationRecord]:
        nonlocal most
        for trial in range(1, UNITS + 1):
            record = _record(trial)
            most = max(most, sum(ref() is not None for ref in handed))
            handed.append(weakref.ref(record))
            yield record

    consume(stream())
    return most


def test_summarise_holds_one_record_at_a_time() -> None:
    out: dict[str, Any] = {}
    most = _most_alive(lambda rs: out.update(summarise(rs, trials=UNITS).document()))
    assert most <= 1  # the one being read at most; never the earlier ones
    assert out["units"] == UNITS
    assert out["agents"]["a"]["strict_passes"] == UNITS - UNITS // 3


def test_the_count_sees_a_reader_that_keeps_every_record() -> None:
    assert _most_alive(list) == UNITS - 1  # the probe can fail: a list keeps them all


def test_repeated_strings_are_kept_once_whatever_the_units() -> None:
    facts = Facts()
    first = [facts(_record(t, checks=_failing_check())) for t in range(1, 11)]
    size = len(facts)
    more = [facts(_record(t, checks=_failing_check())) for t in range(11, 111)]
    assert len(facts) == size  # 100 more units, not one more string kept
    assert more[-1].checks[0].reason is first[0].checks[0].reason
    assert more[-1].scenario_id is first[0].scenario_id
    other = facts(_record(111, checks=[CheckRecord(id="x", kind="step", passed=False, reason="y")]))
    assert len(facts) == size + 2  # a new check id and reason are new strings
    assert other.checks[0].reason == "y"


def _call(role: str, tokens_in: int | None, tokens_out: int | None) -> LLMCallRecord:
    return LLMCallRecord(
        role=role,  # type: ignore[arg-type]
        model="m",
        llm_ms=10.0,
        input_tokens=tokens_in,
        output_tokens=tokens_out,
    )


def _reply(response_ms: float) -> MessageRecord:
    return MessageRecord(role="agent", content="hi", response_ms=response_ms, ttft_ms=1.0)


def test_facts_give_the_figures_the_records_give() -> None:
    known = [
        _record(1, llm_calls=[_call("agent", 100, 10), _call("customer", None, None)]),
        _record(2, llm_calls=[]),  # no Agent call: adds nothing, unknowns none
        _record(3, llm_calls=[_call("agent", 50, 5), _call("agent", 50, 5)]),
    ]
    known[0].messages = [_reply(200.0), MessageRecord(role="agent", content="tool call")]
    known[2].messages = [_reply(400.0)]
    row = agent_summary(known, trials=3).model_dump()
    assert row["tokens"]["input"] == 200 and row["tokens"]["output"] == 20
    assert row["response_ms_mean"] == 300.0 and row["latency"]["n"] == 2
    assert agent_summary(unit_facts(known), trials=3).model_dump() == row  # facts pass through

    unknown = [*known, _record(4, llm_calls=[_call("agent", None, 3)])]
    row = agent_summary(unknown, trials=4).model_dump()
    assert row["tokens"]["input"] is None  # one unknown count: the sum is unknown
    assert row["tokens"]["output"] == 23
    assert agent_summary([_record(1, llm_calls=[])], trials=1).tokens.input is None
