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
from supportsim.validate._judge_reading import (
    READING_TOOL,
    JudgeReadings,
    judge_readings,
    reading_request,
)
from supportsim.validate._metrics import Counts, Tally, rows, table_lines

__all__ = [
    "CLAIMS",
    "CONCEPTS",
    "DISCLOSURES",
    "LANGUAGES",
    "PROMISES",
    "READING_TOOL",
    "SPLITS",
    "Counts",
    "FactLabel",
    "JudgeReadings",
    "Reader",
    "Statement",
    "Tally",
    "corpus_files",
    "evaluate",
    "judge_readings",
    "load_corpus",
    "reading_request",
    "rows",
    "rule_reader",
    "same_fact",
    "table_lines",
]
