"""Shared by the reading-cause tests: a table of sentences and what each must be read to
state, and the labels a reading states."""

from __future__ import annotations

from supportsim.scoring import Reading, read_statement

Case = tuple[str, str, frozenset[str], frozenset[str]]


def table(text: str) -> list[Case]:
    """Rows ``language | sentence | labels read | labels not read`` ("-": none)."""
    rows = []
    for line in text.strip().splitlines():
        lang, sentence, has, lacks = (part.strip() for part in line.split(" | "))
        rows.append((lang, sentence, _set(has), _set(lacks)))
    return rows


def _set(labels: str) -> frozenset[str]:
    return frozenset() if labels == "-" else frozenset(labels.split())


def labels(reading: Reading) -> set[str]:
    """The concepts, claims and promises a reading states, as ``kind:label``."""
    return (
        {f"concept:{c}" for c in reading.concepts}
        | {f"claim:{c}" for c in reading.claims}
        | {f"promise:{p}" for p in reading.promises}
    )


def check(lang: str, text: str, has: frozenset[str], lacks: frozenset[str]) -> None:
    """``text`` is read to state every label of ``has`` and none of ``lacks``."""
    read = labels(read_statement(text, lang))
    assert has <= read, f"missed {sorted(has - read)} in {text!r}: read {sorted(read)}"
    assert not lacks & read, f"over-read {sorted(lacks & read)} in {text!r}"
