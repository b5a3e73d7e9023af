"""The rule path's reading of the blind corpus's ``holdout`` split does not fall below the
figures last reported for it.

Issue 22 asks for precision >= 0.98 and recall >= 0.90 overall on ``holdout`` for the rule
path (no judge model). The rule path does not reach that on blind text (the closing notes give
the figures per concept and language): these floors are the last measured figures, rounded
down, so a change that loses ground on text nobody tuned for fails here, and a change that
gains ground raises them. Nothing is tuned against ``holdout``: the rules grow from ``tune``.
"""

from __future__ import annotations

import pytest

from supportsim.scoring import Reading
from supportsim.validate import LANGUAGES, Statement, Tally, evaluate, load_corpus

ISSUE_TARGET = {"precision": 0.98, "recall": 0.90}
"""What issue 22 asks of the rule path overall; not met (see the module docstring)."""

FLOORS = {
    None: (0.87, 0.79),
    "en": (0.86, 0.84),
    "de": (0.86, 0.76),
    "es": (0.90, 0.78),
    "fr": (0.88, 0.79),
}
"""(precision, recall) per language (``None``: all four), the last measure rounded down."""


@pytest.fixture(scope="module")
def tally() -> Tally:
    return evaluate(load_corpus("holdout"))


@pytest.mark.parametrize("lang", [None, *LANGUAGES])
def test_the_rule_path_keeps_its_holdout_figures(tally: Tally, lang: str | None) -> None:
    counts = tally.total(lang=lang)
    precision, recall = FLOORS[lang]
    assert counts.precision is not None and counts.recall is not None
    assert counts.precision >= precision, (lang, round(counts.precision, 3))
    assert counts.recall >= recall, (lang, round(counts.recall, 3))


def test_a_reader_that_states_nothing_misses_the_floors() -> None:
    """The floors can fail: a reader that states nothing has no recall."""

    def nothing(_: Statement) -> Reading:
        return Reading(frozenset(), (), frozenset(), frozenset(), frozenset())

    counts = evaluate(load_corpus("holdout"), reader=nothing).total()
    assert not counts.recall
