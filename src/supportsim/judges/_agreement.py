"""Agreement statistics between raters: pure functions over label sequences.

Raters are LLM judges, the deterministic strict verdict and humans; labels are any hashable
value (``True`` for pass, ``False`` for fail in practice). Every function returns ``None``
when the statistic is undefined (no items, no pairs, a rater with no variation for tau),
rather than a made-up number that would read as a result.

Edge case, by definition here: when chance agreement is 1 (both raters used one and the
same label throughout), kappa is 1.0 if observed agreement is 1, else 0.0. The usual
formula is 0/0 there, and 1.0 states the plain fact that the raters never disagreed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import TypeVar

L = TypeVar("L", bound=Hashable)


def _check_paired(a: Sequence[object], b: Sequence[object]) -> None:
    if len(a) != len(b):
        raise ValueError(f"paired ratings differ in length ({len(a)} vs {len(b)})")


def percent_agreement(a: Sequence[Hashable], b: Sequence[Hashable]) -> float | None:
    """Share of items both raters labelled the same; None when there are no items."""
    _check_paired(a, b)
    if not a:
        return None
    return sum(x == y for x, y in zip(a, b, strict=True)) / len(a)


def _kappa(observed: float, expected: float) -> float:
    if math.isclose(expected, 1.0, rel_tol=0.0, abs_tol=1e-12):
        return 1.0 if math.isclose(observed, 1.0, rel_tol=0.0, abs_tol=1e-12) else 0.0
    return (observed - expected) / (1.0 - expected)


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two raters over the same items: (po - pe) / (1 - pe).

    ``pe`` is the agreement expected by chance from each rater's own label frequencies.
    A judge that always says pass against a rater that varies gets exactly 0.
    """
    _check_paired(a, b)
    if not a:
        return None
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[label] * cb[label] for label in ca) / (n * n)
    return _kappa(observed, expected)


def fleiss_kappa_table(counts: Sequence[Sequence[int]]) -> float | None:
    """Fleiss' kappa from a subjects x categories table of rating counts.

    Every subject must have the same number of ratings n >= 2 (the table's row sums).
    """
    if not counts:
        return None
    n = sum(counts[0])
    if n < 2:
        return None
    if any(sum(row) != n for row in counts):
        raise ValueError("every subject needs the same number of ratings")
    subjects = len(counts)
    categories = len(counts[0])
    per_subject = [(sum(c * c for c in row) - n) / (n * (n - 1)) for row in counts]
    observed = sum(per_subject) / subjects
    shares = [sum(row[j] for row in counts) / (subjects * n) for j in range(categories)]
    expected = sum(p * p for p in shares)
    return _kappa(observed, expected)


def fleiss_kappa(ratings: Sequence[Sequence[Hashable]]) -> float | None:
    """Fleiss' kappa from each subject's labels (one per rater, same count per subject)."""
    if not ratings:
        return None
    labels = sorted({label for row in ratings for label in row}, key=repr)
    table = [[Counter(row)[label] for label in labels] for row in ratings]
    return fleiss_kappa_table(table)


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b of two scorings of the same items (ties handled).

    None when there are fewer than two items or either scoring is constant (no ranking).
    """
    _check_paired(x, y)
    n = len(x)
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = (x[i] > x[j]) - (x[i] < x[j])
            dy = (y[i] > y[j]) - (y[i] < y[j])
            if dx == 0 and dy == 0:
                ties_x += 1
                ties_y += 1
            elif dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif dx == dy:
                concordant += 1
            else:
                discordant += 1
    pairs = n * (n - 1) // 2
    denominator = math.sqrt((pairs - ties_x) * (pairs - ties_y))
    if denominator == 0:
        return None
    return max(-1.0, min(1.0, (concordant - discordant) / denominator))


def majority(labels: Sequence[bool]) -> bool | None:
    """The majority of pass/fail labels; a tie fails (a gate must not pass on a split).

    None when there are no labels.
    """
    if not labels:
        return None
    passes = sum(labels)
    return passes * 2 > len(labels)


def consistency(labels: Sequence[L]) -> float | None:
    """Share of labels equal to the commonest one (1.0: every sample agreed)."""
    if not labels:
        return None
    return Counter(labels).most_common(1)[0][1] / len(labels)


def confusion(judge: Sequence[bool], truth: Sequence[bool]) -> dict[str, int]:
    """Counts of the four pass/fail combinations of a judge against a reference."""
    _check_paired(judge, truth)
    pairs = list(zip(judge, truth, strict=True))
    return {
        "both_pass": sum(j and t for j, t in pairs),
        "both_fail": sum(not j and not t for j, t in pairs),
        "judge_pass_reference_fail": sum(j and not t for j, t in pairs),
        "judge_fail_reference_pass": sum(not j and t for j, t in pairs),
    }
