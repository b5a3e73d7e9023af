"""The unit table's filters, sorts and pages, and pass^k per scenario."""

from __future__ import annotations

import math

import pytest
from view_runs import unit

from supportsim.store import ConversationRecord
from supportsim.view import UnitQuery, select_units, unit_row
from supportsim.view._units import pass_k_by_scenario

FINDING = {"kind": "invented_fact", "message_index": 1, "detail": "d", "critical": True}


def _rows() -> list:
    docs = [
        unit("s1", "a", 1, reply_ms=300, cost=0.02),
        unit("s1", "a", 2, strict=False, reply_ms=900, cost=None,
             checks=[{"id": "f", "kind": "forbidden", "passed": False, "reason": "x"},
                     {"id": "o", "kind": "outcome", "passed": False, "reason": "y"}],
             customer_review={"findings": [FINDING]}, customer_hindered=True),
        unit("s2", "b", 1, reply_ms=100, cost=0.05),
        unit("long1", "b", 1, status="infra_error", cost=None, messages=[]),
    ]  # fmt: skip
    return [unit_row(ConversationRecord.model_validate(d)) for d in docs]


def _ids(query: UnitQuery, size: int = 100) -> list[str]:
    return [r.unit_id for r in select_units(_rows(), query, size).rows]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, ["long1|b|1", "s1|a|1", "s1|a|2", "s2|b|1"]),
        ({"scenario": "s1"}, ["s1|a|1", "s1|a|2"]),
        ({"tag": "long"}, ["long1|b|1"]),
        ({"agent": "b"}, ["long1|b|1", "s2|b|1"]),
        ({"customer": "scripted", "agent": "a"}, ["s1|a|1", "s1|a|2"]),
        ({"status": "fail"}, ["s1|a|2"]),
        ({"status": "infra_error"}, ["long1|b|1"]),
        ({"check": "forbidden"}, ["s1|a|2"]),
        ({"finding": "invented_fact"}, ["s1|a|2"]),
        ({"finding": "any"}, ["s1|a|2"]),
        ({"finding": "hindered"}, ["s1|a|2"]),
        ({"finding": "other"}, []),
        ({"sort": "latency"}, ["s2|b|1", "s1|a|1", "s1|a|2", "long1|b|1"]),
        ({"sort": "-latency"}, ["s1|a|2", "s1|a|1", "s2|b|1", "long1|b|1"]),  # none last
        ({"sort": "-cost"}, ["s2|b|1", "s1|a|1", "long1|b|1", "s1|a|2"]),
        ({"sort": "nonsense"}, ["long1|b|1", "s1|a|1", "s1|a|2", "s2|b|1"]),
    ],
)
def test_filters_and_sorts(params: dict[str, str], expected: list[str]) -> None:
    assert _ids(UnitQuery.of(params)) == expected


def test_pages_and_options() -> None:
    page = select_units(_rows(), UnitQuery.of({"page": "2"}), size=3)
    assert [r.unit_id for r in page.rows] == ["s2|b|1"]
    assert (page.matched, page.page, page.pages) == (4, 2, 2)
    assert select_units(_rows(), UnitQuery.of({"page": "99"}), size=3).page == 2
    assert UnitQuery.of({"page": "x"}).page == 1
    assert page.options["status"] == ["fail", "infra_error", "pass"]
    assert page.options["check"] == ["forbidden", "outcome"]
    assert page.options["finding"] == ["any", "hindered", "invented_fact"]
    assert UnitQuery.of({"agent": "a", "page": "3"}).params(page=1) == {"agent": "a"}


def test_rows_carry_no_text() -> None:
    row = _rows()[1]
    assert (row.latency_ms, row.failed_checks, row.failing, row.hindered) == (
        900,
        2,
        ("forbidden", "outcome"),
        True,
    )


def test_a_record_written_before_the_review_has_no_finding() -> None:
    row = unit_row(ConversationRecord.model_validate(unit("s1", "a", 1)))
    assert row.findings == () and row.hindered is False


def test_pass_k_per_scenario() -> None:
    records = [
        ConversationRecord.model_validate(unit("s1", "a", t, strict=t != 3)) for t in (1, 2, 3)
    ]
    records.append(ConversationRecord.model_validate(unit("s2", "a", 1, status="infra_error")))
    (row,) = pass_k_by_scenario(records, [1, 2, 3])
    assert (row.scenario_id, row.n, row.c) == ("s1", 3, 2)
    assert row.values[0] == pytest.approx(2 / 3)
    assert row.values[1] == pytest.approx(math.comb(2, 2) / math.comb(3, 2))
    assert row.values[2] == 0.0
