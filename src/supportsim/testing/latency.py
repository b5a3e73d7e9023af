"""Per-model latency for the mock server: ``--latency MODEL=TTFT/TOTAL`` and its script form.

Latency profiling offline needs each model to answer at its own speed without a script of
hundreds of replies: ``mock-server --latency fast=80/300 --latency slow=400/2500`` makes
every reply of ``fast`` (scripted or autopilot) send its first token at 80 ms and finish at
300 ms, counted from when the request has arrived. A reply's own ``ttft_ms``/``total_ms``
still wins; ``*`` names every model without a latency of its own (the server-wide default).

The same in a script file: a model's entry is a mapping instead of a list::

    fast:
      latency: 80/300              # or {ttft_ms: 80, total_ms: 300}
      replies:                     # optional: without it the autopilot answers
        - say: "Hello"
    slow:
      latency: 400/2500
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from supportsim.errors import InputError

__all__ = ["ALL_MODELS", "Latency", "latency_from_script", "parse_latency"]

ALL_MODELS = "*"
"""The model name that sets the server-wide latency (models without one of their own)."""

_FORM = "MODEL=TTFT/TOTAL in ms, e.g. gpt-4o=300/1200 (or MODEL=TOTAL for both)"


@dataclass(frozen=True, slots=True)
class Latency:
    """A model's injected timing: first token at ``ttft_ms``, last at ``total_ms``."""

    ttft_ms: float
    total_ms: float

    def __str__(self) -> str:
        return f"{self.ttft_ms:g}/{self.total_ms:g} ms"


def _ms(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{where}: {text!r} is not a number of milliseconds ({_FORM})") from None
    if not value >= 0 or value == float("inf"):
        raise InputError(f"{where}: {text!r} must be a finite number of ms, 0 or more")
    return value


def _timing(text: str, where: str) -> Latency:
    """``TTFT/TOTAL`` (or one number for both) as a Latency; TOTAL below TTFT is refused."""
    first, _, last = text.strip().partition("/")
    ttft = _ms(first, where)
    total = _ms(last, where) if last else ttft
    if total < ttft:
        raise InputError(f"{where}: total {total:g} ms is before the first token at {ttft:g} ms")
    return Latency(ttft, total)


def parse_latency(spec: str, *, where: str = "--latency") -> tuple[str, Latency]:
    """One ``--latency`` value: (model, latency).

    Raises:
        InputError: Not ``MODEL=TTFT/TOTAL``, a value that is not a number of ms, a
            negative one, or TOTAL before TTFT; the message names ``where`` and the value.
    """
    model, sep, timing = spec.partition("=")
    if not sep or not model.strip() or not timing.strip():
        raise InputError(f"{where} {spec!r}: expected {_FORM}")
    return model.strip(), _timing(timing, f"{where} {spec!r}")


def latency_from_script(value: Any, *, where: str) -> Latency:
    """A script file's ``latency:`` entry: ``"TTFT/TOTAL"``, a number, or a mapping with
    ``ttft_ms`` and ``total_ms`` (``total_ms`` defaults to ``ttft_ms``).

    Raises:
        InputError: Any other shape or value, naming ``where``.
    """
    if isinstance(value, bool):
        raise InputError(f"{where}: expected TTFT/TOTAL in ms, got {value!r}")
    if isinstance(value, int | float):
        return _timing(str(value), where)
    if isinstance(value, str):
        return _timing(value, where)
    if isinstance(value, Mapping):
        unknown = sorted(set(value) - {"ttft_ms", "total_ms"})
        if unknown or "ttft_ms" not in value:
            raise InputError(f"{where}: expected {{ttft_ms: N, total_ms: N}}, got {dict(value)!r}")
        ttft, total = value["ttft_ms"], value.get("total_ms", value["ttft_ms"])
        return _timing(f"{ttft}/{total}", where)
    raise InputError(f"{where}: expected TTFT/TOTAL in ms, got {value!r}")
