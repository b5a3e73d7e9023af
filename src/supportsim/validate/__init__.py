"""Proofs that the checks are right: the blind statement corpus and how a reader of agent
text (the rule path, a statement judge) agrees with it; baseline agents that do nothing
useful, which no scenario may reward (``validate --baselines``)."""

from supportsim.validate._baselines import (
    FLOOR_AGENT,
    MAX_MEAN_PARTIAL,
    BaselineResult,
    BaselineRun,
    Floor,
    baselines,
    do_nothing_floor,
    run_baselines,
)
from supportsim.validate._corpus import (
    CLAIMS,
    CONCEPTS,
    DISCLOSURES,
    LANGUAGES,
    PROMISES,
    SPLITS,
    FactLabel,
    Statement,
    corpus_files,
    load_corpus,
)
from supportsim.validate._evaluate import Reader, evaluate, rule_reader, same_fact
from supportsim.validate._metrics import Counts, Tally, rows

__all__ = [
    "CLAIMS",
    "CONCEPTS",
    "DISCLOSURES",
    "FLOOR_AGENT",
    "LANGUAGES",
    "MAX_MEAN_PARTIAL",
    "PROMISES",
    "SPLITS",
    "BaselineResult",
    "BaselineRun",
    "Counts",
    "FactLabel",
    "Floor",
    "Reader",
    "Statement",
    "Tally",
    "baselines",
    "corpus_files",
    "do_nothing_floor",
    "evaluate",
    "load_corpus",
    "rows",
    "rule_reader",
    "run_baselines",
    "same_fact",
]
