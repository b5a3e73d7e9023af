"""Where in an Agent message something was found: character offsets into the original text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """Half-open range ``[start, end)`` of the ORIGINAL (unfolded) message text, so a check
    can quote exactly what the Agent wrote."""

    start: int
    end: int
