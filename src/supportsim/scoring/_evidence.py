"""Evidence in tool results: did a result the Agent received show a value.

An ``observe`` step is met by any successful lookup whose result contains the value, so
equivalent lookups (an invoice or the account's balance) pass alike. Numbers compare by
value (42.5 == "42.50"), also where a text leaf states them ("a fee of 25 USD" shows 25: the
knowledge base reveals fees as prose); text compares without case, on word boundaries.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any


def leaves(value: Any) -> Iterator[Any]:
    """Scalar leaves of nested JSON data (keys of mappings included: ids are often keys)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


_NUMBER_IN_TEXT = re.compile(r"(?<![\w.,-])\d+(?:\.\d+)?(?![\w-]|[.,]\d)")
"""A number standing alone in prose: not part of an id (CH-25), a date (2026-03-25) or a
longer number (1,250)."""


def _numbers_in(leaf: Any) -> Iterator[float]:
    if isinstance(leaf, str):
        for m in _NUMBER_IN_TEXT.finditer(leaf):
            yield float(m.group())
    elif (n := _number(leaf)) is not None:
        yield n


def result_contains(result: Any, wanted: str | float | None) -> bool:
    """Whether ``wanted`` appears in ``result`` as a leaf value (or inside a text leaf)."""
    if wanted is None:
        return False
    number = _number(wanted)
    if number is not None and not isinstance(wanted, str):
        return any(abs(n - number) < 0.005 for leaf in leaves(result) for n in _numbers_in(leaf))
    text = str(wanted).strip().casefold()
    if not text:
        return False
    pattern = re.compile(r"(?<!\w)" + re.escape(text) + r"(?!\w)")
    for leaf in leaves(result):
        if isinstance(leaf, str) and pattern.search(leaf.casefold()):
            return True
        if number is not None and (n := _number(leaf)) is not None and abs(n - number) < 0.005:
            return True
    return False
