"""Text as the fact matchers read it: folded, with a map back to what the Agent wrote.

Agents write "10 €" with a no-break space, "2–3 days" with an en dash, "１４:００" in
full-width digits and "Février" with or without its accent. The matchers run their patterns
on one folded copy (NFKC, typography to ASCII, accents stripped, lower case, runs of white
space made one space) and report spans of the original text through the index map.
A parallel copy that keeps letter case lets ISO codes ("USD") be told from words ("usd").
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

_APOSTROPHES = "’‘´`‛′ʼʻ‚"
_QUOTES = "″“”„‟«»‹›"
_DASHES = "‐‑‒–—―−"
_SPACES = "\u00a0\u202f\u2009\u2007\u2008\u200a\u2002\u2003\u2004\u2005\u2006\u205f\u3000\t\n\r"
_INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"

# Applied before NFKC, which would turn "´" into a space and a combining accent.
_TYPOGRAPHY = str.maketrans(
    {
        **dict.fromkeys(_APOSTROPHES, "'"),
        **dict.fromkeys(_QUOTES, '"'),
        **dict.fromkeys(_DASHES, "-"),
        **dict.fromkeys(_SPACES, " "),
        **dict.fromkeys(_INVISIBLE, None),
    }
)


_PLAIN = frozenset(chr(c) for c in range(0x21, 0x7F)) - {"`"}


@dataclass(frozen=True, slots=True)
class Folded:
    """``text`` is the folded copy patterns run on; ``cased`` the same characters before
    lower-casing; ``starts[i]``/``ends[i]`` the original range folded character i came from."""

    text: str
    cased: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def origin(self, start: int, end: int) -> tuple[int, int]:
        """The original ``[start, end)`` of a non-empty folded range."""
        return self.starts[start], self.ends[end - 1]


def _fold_chunk(chunk: str) -> str:
    chunk = unicodedata.normalize("NFKC", chunk.translate(_TYPOGRAPHY))
    decomposed = unicodedata.normalize("NFD", chunk)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=2048)
def fold(text: str) -> Folded:
    """Fold ``text`` cluster by cluster (a base character with its combining marks), so
    "e" + U+0301 folds like "é" and both map back to the whole cluster."""
    cased: list[str] = []
    lower: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _PLAIN and (i + 1 == n or text[i + 1] < "\u0300"):
            cased.append(c)  # fast path: printable ASCII not followed by a combining mark
            lower.append(c.lower())
            starts.append(i)
            ends.append(i + 1)
            i += 1
            continue
        j = i + 1
        while j < n and unicodedata.combining(text[j]):
            j += 1
        for c in _fold_chunk(text[i:j]):
            if c.isspace():
                if not cased or cased[-1] == " ":
                    continue
                c = " "
            low = c.lower()
            cased.append(c)
            lower.append(low if len(low) == 1 else c)  # keep one character per character
            starts.append(i)
            ends.append(j)
        i = j
    return Folded("".join(lower), "".join(cased), tuple(starts), tuple(ends))


def fold_word(word: str) -> str:
    """A vocabulary entry (month name, unit, currency word) folded like text is."""
    return fold(word).text.strip()


@dataclass(frozen=True, slots=True)
class Found:
    """One statement of a kind found in folded text: its folded range, its value and, for
    money and durations, the units it may be in (None: none stated)."""

    start: int
    end: int
    value: object
    unit: frozenset[str] | None = None
    weak: bool = False
    """Only a guess of this kind ("14.00" may be a time or an amount): never hides a
    number from the other kinds."""


def overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in spans)


def longest(found: list[Found]) -> list[Found]:
    """``found`` without the statements another one strictly contains ("2 pm" inside "2
    pm in the afternoon") and without repeats; equal spans with different values are all
    kept (two readings of one text)."""
    kept = [
        a
        for a in found
        if not any(
            b.start <= a.start and a.end <= b.end and b.end - b.start > a.end - a.start
            for b in found
        )
    ]
    return list({(a.start, a.end, repr(a.value), a.weak): a for a in kept}.values())
