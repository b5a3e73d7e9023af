"""Text matching for say steps and disclosures: case- and spacing-insensitive."""

from __future__ import annotations

import re
import unicodedata


def normalise(text: str) -> str:
    """Fold case, Unicode forms and runs of white space, so wording details don't count."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def contains_all(text: str, phrases: list[str]) -> bool:
    folded = normalise(text)
    return all(normalise(p) in folded for p in phrases)


def find_phrase(text: str, phrases: list[str]) -> str | None:
    folded = normalise(text)
    return next((p for p in phrases if normalise(p) in folded), None)


def search(pattern: str, text: str) -> bool:
    return re.search(pattern, unicodedata.normalize("NFKC", text), re.IGNORECASE) is not None
