"""Proofs that the checks are right: the blind statement corpus and how a reader of agent
text (the rule path, a statement judge) agrees with it."""

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
    "LANGUAGES",
    "PROMISES",
    "SPLITS",
    "Counts",
    "FactLabel",
    "Reader",
    "Statement",
    "Tally",
    "corpus_files",
    "evaluate",
    "load_corpus",
    "rows",
    "rule_reader",
    "same_fact",
]
