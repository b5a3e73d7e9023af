"""Agreement of a reader (the rule path, or a statement judge) with the corpus's labels.

Every labelled decision is counted per dimension (concept, fact, claim, promise,
disclosure), label and language: a true positive (stated, and read as stated), a false
positive (read as stated, not stated), a false negative (stated, not read), a true negative
(neither; binary dimensions only: a fact reader extracts values, it does not say "no" to
each). Precision, recall and Cohen's kappa follow from the counts; "overall" is micro-
averaged over every decision of every dimension.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

Key = tuple[str, str, str]
"""(dimension, label, language)."""


@dataclass(slots=True)
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    errors: list[str] = field(default_factory=list)
    """Item ids of the mistakes (``id:fp`` or ``id:fn``), to read them back."""

    def add(self, other: Counts) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.tn += other.tn
        self.errors += other.errors

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def kappa(self) -> float | None:
        """Cohen's kappa of reader against labels (None without true negatives)."""
        n = self.tp + self.fp + self.fn + self.tn
        if not n or not self.tn:
            return None
        observed = (self.tp + self.tn) / n
        yes = ((self.tp + self.fp) / n) * ((self.tp + self.fn) / n)
        no = ((self.fn + self.tn) / n) * ((self.fp + self.tn) / n)
        expected = yes + no
        return 1.0 if expected == 1 else (observed - expected) / (1 - expected)


class Tally:
    """Counts by (dimension, label, language)."""

    def __init__(self) -> None:
        self.by: dict[Key, Counts] = defaultdict(Counts)

    def decide(self, key: Key, *, truth: bool, read: bool, item: str) -> None:
        counts = self.by[key]
        if truth and read:
            counts.tp += 1
        elif read:
            counts.fp += 1
            counts.errors.append(f"{item}:fp")
        elif truth:
            counts.fn += 1
            counts.errors.append(f"{item}:fn")
        else:
            counts.tn += 1

    def total(
        self, *, dimension: str | None = None, label: str | None = None, lang: str | None = None
    ) -> Counts:
        out = Counts()
        for (d, lb, lg), counts in self.by.items():
            if (dimension in (None, d)) and (label in (None, lb)) and (lang in (None, lg)):
                out.add(counts)
        return out

    def keys(self) -> Iterable[Key]:
        return sorted(self.by)


def rows(tally: Tally, languages: Iterable[str]) -> list[dict[str, object]]:
    """One row per (dimension, label) with each language's precision and recall, then
    one row per dimension and the overall row: the table the report and tests read."""
    langs = list(languages)
    out: list[dict[str, object]] = []
    labels: Mapping[str, list[str]] = defaultdict(list)
    for d, lb, _ in tally.keys():  # noqa: SIM118 (Tally is no mapping)
        if lb not in labels[d]:
            labels[d].append(lb)
    for d, names in labels.items():
        for lb in names:
            out.append(_row(tally, d, lb, langs))
        out.append(_row(tally, d, None, langs))
    out.append(_row(tally, None, None, langs))
    return out


def _row(tally: Tally, dimension: str | None, label: str | None, langs: list[str]) -> dict:
    total = tally.total(dimension=dimension, label=label)
    row: dict[str, object] = {
        "dimension": dimension or "overall",
        "label": label or "(all)",
        "tp": total.tp,
        "fp": total.fp,
        "fn": total.fn,
        "precision": total.precision,
        "recall": total.recall,
        "kappa": total.kappa,
    }
    for lang in langs:
        c = tally.total(dimension=dimension, label=label, lang=lang)
        row[f"{lang}_precision"] = c.precision
        row[f"{lang}_recall"] = c.recall
        row[f"{lang}_kappa"] = c.kappa
    return row


def _f(x: object) -> str:
    return "  -  " if x is None else f"{x:5.2f}"


def table_lines(tally: Tally, languages: Iterable[str]) -> list[str]:
    """The table ``benchmarks/bench_reading.py`` and ``supportsim judge-eval`` print: per
    (dimension, label) precision, recall and kappa overall, then per language."""
    langs = list(languages)
    head = "  ".join(f"{lang}:P/R/k       " for lang in langs)
    out = [f"{'dimension':10} {'label':20} {'P':>5} {'R':>5} {'k':>5}   {head}"]
    for r in rows(tally, langs):
        per = "  ".join(
            f"{_f(r[f'{lang}_precision'])}/{_f(r[f'{lang}_recall'])}/{_f(r[f'{lang}_kappa'])}"
            for lang in langs
        )
        out.append(
            f"{r['dimension']!s:10} {r['label']!s:20} {_f(r['precision'])} {_f(r['recall'])} "
            f"{_f(r['kappa'])}   {per}"
        )
    return out
