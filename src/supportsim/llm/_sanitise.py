"""Text from models made storable: lone UTF-16 surrogates become U+FFFD.

A provider may send ``"\\ud800"``: valid JSON, not valid Unicode. Python keeps it in a
``str``, but it cannot be encoded as UTF-8, so the next request that carries it and the
record that stores it would both fail. The model pool cleans every response on receipt
and ``run_unit`` cleans the transcript before its record is built (Agents that are not
models: python:, http:, langgraph:).
"""

from __future__ import annotations

import dataclasses
import re
from typing import TypeVar

T = TypeVar("T")
_SURROGATE = re.compile("[\ud800-\udfff]")


def sanitised(value: T) -> T:
    """``value`` with every lone surrogate in its strings replaced by U+FFFD.

    Walks strings, dicts, lists, tuples and dataclasses (the Transcript and all it holds);
    returns the very same object when there was nothing to replace, so the common case
    costs one regex scan per string.
    """
    if isinstance(value, str):
        if _SURROGATE.search(value) is None:
            return value
        # A pair of surrogates is one character, only lone ones are replaced.
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")  # type: ignore[return-value]
    if isinstance(value, dict):
        items = [(sanitised(k), sanitised(v)) for k, v in value.items()]
        if all(k is k2 and v is v2 for (k, v), (k2, v2) in zip(value.items(), items, strict=True)):
            return value
        return dict(items)  # type: ignore[return-value]
    if isinstance(value, list | tuple):
        cleaned = [sanitised(v) for v in value]
        if all(a is b for a, b in zip(value, cleaned, strict=True)):
            return value
        return type(value)(cleaned) if isinstance(value, list) else tuple(cleaned)  # type: ignore[return-value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changed = {}
        for f in dataclasses.fields(value):
            if not f.init:
                continue
            old = getattr(value, f.name)
            new = sanitised(old)
            if new is not old:
                changed[f.name] = new
        return dataclasses.replace(value, **changed) if changed else value
    return value
