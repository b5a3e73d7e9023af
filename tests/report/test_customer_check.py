"""``report.customer_check``: a Customer's success with the oracle, counted so that only
the Customer's failures count against it (provider and harness errors do not), each failure
named by its first critical finding."""

from __future__ import annotations

from typing import Any

from supportsim.report import customer_check, with_pushback
from supportsim.store import ConversationRecord


def record(
    unit: str, scenario: str, status: str = "completed", **fields: Any
) -> ConversationRecord:
    base: dict[str, Any] = {
        "unit_id": unit,
        "scenario_id": scenario,
        "agent": "oracle",
        "customer": "openai:c",
        "trial": 1,
        "status": status,
        "termination": "customer_done",
        "started_at": "t0",
        "ended_at": "t1",
        "customer_review": {"persona": "p", "findings": []},
    }
    return ConversationRecord.model_validate(base | fields)


def finding(kind: str, critical: bool) -> dict[str, Any]:
    return {"kind": kind, "message_index": 1, "detail": "", "critical": critical}


def test_only_the_customer_s_failures_count_against_it() -> None:
    review = {
        "persona": "p",
        "findings": [finding("repeating", False), finding("premature_end", True)],
    }
    records = [
        record("a1", "a", strict=True),
        record("a2", "a", strict=False, customer_review=review),
        record("b1", "b", strict=False),  # no finding: unexplained
        record("b2", "b", "simulator_fault"),
        record("b3", "b", "infra_error"),  # not the Customer's
    ]
    check = customer_check(records, customer="openai:c", threshold=0.5)
    assert (check.overall.played, check.overall.succeeded, check.overall.not_counted) == (4, 1, 1)
    assert check.by_scenario["a"].findings == {"premature_end": 1}
    assert check.by_scenario["b"].findings == {"simulator_fault": 1, "unexplained": 1}
    assert check.unplayable == ["b"]
    assert not check.passed  # 25% < 50%
    assert check.findings == {"premature_end": 1, "repeating": 1}
    assert customer_check(records[:1], customer="c", threshold=1.0).passed


def test_pushing_back_is_not_ending_satisfied() -> None:
    check = customer_check([record("a1", "a", strict=True)], customer="c")
    sloppy = [
        record("a1", "a", strict=False, end_reason="satisfied"),
        record("a2", "a", strict=False, end_reason="gave_up"),
        record("a3", "a", strict=False, termination="max_turns"),
    ]
    pushed = with_pushback(check, sloppy).pushed_back
    assert pushed is not None and (pushed.played, pushed.succeeded) == (3, 2)
