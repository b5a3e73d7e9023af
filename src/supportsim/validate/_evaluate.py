"""Measure a reader of agent text against the statement corpus (``supportsim judge-eval``).

A reader turns one statement into a ``Reading`` (concepts, facts, claims, promises,
disclosures). The rule path's reader is ``scoring.read_statement``; a statement judge is
another. Each labelled decision becomes a count in a ``Tally`` (``_metrics``):

- concepts, claims, promises, disclosures: a yes/no per item and label;
- facts: each labelled fact read (true positive) or not (false negative); each fact read
  that is no labelled fact of the item is a false positive (a mentioned-but-not-stated
  value, ``not_facts``, read as stated is one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from supportsim.scoring import ReadFact, Reading, read_statement
from supportsim.scoring.parts import normalise
from supportsim.validate._corpus import (
    CLAIMS,
    CONCEPTS,
    DISCLOSURES,
    PROMISES,
    FactLabel,
    Statement,
)
from supportsim.validate._metrics import Tally

Reader = Callable[[Statement], Reading]
TOLERANCE = 0.005


def rule_reader(statement: Statement) -> Reading:
    """The rule path's reading of a corpus statement."""
    ctx = statement.context
    return read_statement(
        statement.text, statement.language, today=ctx.today, other_customer=ctx.other_customer
    )


def evaluate(statements: Iterable[Statement], reader: Reader = rule_reader) -> Tally:
    """Every labelled decision of every statement, counted."""
    tally = Tally()
    for s in statements:
        read = reader(s)
        lang = s.language
        for dimension, labels, truth, got in (
            ("concept", CONCEPTS, set(s.concepts), read.concepts),
            ("claim", CLAIMS, set(s.claims), read.claims),
            ("promise", PROMISES, set(s.promises), read.promises),
            ("disclosure", DISCLOSURES, set(s.discloses), read.discloses),
        ):
            for label in labels:
                if label == "other_customer" and s.context.other_customer is None:
                    continue  # no other record to leak: not a decision
                tally.decide(
                    (dimension, label, lang),
                    truth=label in truth,
                    read=label in got,
                    item=s.id,
                )
        _facts(tally, s, read.facts)
    return tally


def _facts(tally: Tally, s: Statement, read: tuple[ReadFact, ...]) -> None:
    lang = s.language
    used: set[int] = set()
    for label in s.facts:
        hit = next((i for i, r in enumerate(read) if i not in used and same_fact(label, r)), None)
        if hit is not None:
            used.add(hit)
        tally.decide(("fact", label.kind, lang), truth=True, read=hit is not None, item=s.id)
    for i, r in enumerate(read):
        if i in used or any(same_fact(label, r) for label in s.facts):
            continue
        tally.decide(("fact", r.kind, lang), truth=False, read=True, item=s.id)


def same_fact(label: FactLabel, read: ReadFact) -> bool:
    """Whether a fact read is the labelled one (amounts within half a cent; a date read
    without its year is the labelled date if day and month agree)."""
    kind = label.kind
    if kind != read.kind:
        return False
    if kind == "money":
        assert label.money is not None
        if abs(float(read.value) - label.money) > TOLERANCE:  # type: ignore[arg-type]
            return False
        return label.currency is None or read.units is None or label.currency in read.units
    if kind == "percent":
        return abs(float(read.value) - float(label.percent or 0)) <= TOLERANCE  # type: ignore[arg-type]
    if kind == "duration":
        return abs(float(read.value) - float(label.duration_hours or 0)) <= 0.01  # type: ignore[arg-type]
    if kind == "date":
        assert label.date is not None
        year, month, day = cast(tuple[int | None, int, int], read.value)
        return (month, day) == (label.date.month, label.date.day) and year in (
            None,
            label.date.year,
        )
    if kind == "time":
        return read.value == label.time
    return _id(str(read.value)) == _id(label.id or "")


def _id(value: str) -> str:
    return normalise(value).replace(" ", "-").replace("_", "-")
