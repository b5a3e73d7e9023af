"""Text folding and phrase matching for say steps, disclosures and the concept lexicons.

Agents write "can’t", "10 – 12", "Geburtsdatum" and "RÉSUMÉ"; scenario authors write
"can't", "10 - 12" and "résumé". Everything that compares the two folds both sides the same
way first (:func:`fold`) and keeps, for each folded character, where it came from, so a
match can be reported as a span of what the Agent actually wrote.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from supportsim.scoring.text._span import Span

_APOSTROPHES = "’‘´`‛′ʼʻ‚"
_QUOTES = "″“”„‟«»‹›"
_DASHES = "‐‑‒–—―−"
_SPACES = "\u00a0\u202f\u2009\u2007\u2008\u200a\u2002\u2003\u2004\u2005\u2006\u205f\u3000"
_INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"  # soft hyphen, zero-width characters

# Applied before NFKC: NFKC turns "´" into a space plus a combining accent and "″" into two
# primes, neither of which is what the writer meant.
_TYPOGRAPHY = str.maketrans(
    {
        **dict.fromkeys(_APOSTROPHES, "'"),
        **dict.fromkeys(_QUOTES, '"'),
        **dict.fromkeys(_DASHES, "-"),
        **dict.fromkeys(_SPACES, " "),
        **dict.fromkeys(_INVISIBLE, None),
    }
)


@lru_cache(maxsize=4096)
def _fold(text: str, accents: bool) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """Folded text plus, per folded character, the original ``[start, end)`` it came from.

    Works on clusters (a base character and its combining marks) so that "e" + U+0301
    composes like the precomposed "é" and both map back to the whole cluster.
    """
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    i, n = 0, len(text)
    while i < n:
        j = i + 1
        while j < n and unicodedata.combining(text[j]):
            j += 1
        chunk = unicodedata.normalize("NFKC", text[i:j].translate(_TYPOGRAPHY)).casefold()
        if accents:
            chunk = "".join(
                c for c in unicodedata.normalize("NFD", chunk) if not unicodedata.combining(c)
            )
        for c in chunk:
            if c.isspace():
                if not out or out[-1] == " ":
                    continue
                c = " "
            out.append(c)
            starts.append(i)
            ends.append(j)
        i = j
    if out and out[-1] == " ":
        out.pop()
        starts.pop()
        ends.pop()
    return "".join(out), tuple(starts), tuple(ends)


def fold(text: str, *, accents: bool = False) -> tuple[str, list[int]]:
    """NFKC; typographic quotes/apostrophes (’ ‘ ´ ` ‛ ″ “ ” „ « » ‹ ›) and dashes (‐ ‑ ‒ – — ―
    −) folded to ASCII ' " -; no-break/narrow/thin spaces to space; casefold; runs of white
    space to one space (none at either end); with accents=True also strip diacritics
    (é->e, ß stays ss via casefold). Returns the folded text and, for each folded character,
    the index of the original character it came from (so spans can be mapped back)."""
    folded, starts, _ = _fold(text, accents)
    return folded, list(starts)


def fold_map(text: str, *, accents: bool = False) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """Like :func:`fold`, with the end (exclusive) of each folded character's original too,
    so a match ending in "é" written as "e" + U+0301 spans both original characters."""
    return _fold(text, accents)


def normalise(text: str) -> str:
    """Fold case, Unicode forms, typography and runs of white space (accents kept), so
    wording details don't count."""
    return _fold(text, False)[0]


def find_span(regex: re.Pattern[str], text: str, *, accents: bool = False) -> Span | None:
    """First match of ``regex`` (written against folded text) in ``text``, as a span of the
    original text."""
    folded, starts, ends = _fold(text, accents)
    m = regex.search(folded)
    if m is None:
        return None
    return Span(starts[m.start()], ends[m.end() - 1]) if m.end() > m.start() else None


def bounded(body: str, first: str, last: str) -> str:
    """Wrap a regex body with word boundaries on the sides that begin/end with a word
    character, so "pin" is not found in "spinning" but "$10" still fits "($10)"."""
    head = r"(?<!\w)" if re.match(r"\w", first) else ""
    tail = r"(?!\w)" if re.match(r"\w", last) else ""
    return head + body + tail


@lru_cache(maxsize=1024)
def phrase_regex(phrase: str) -> re.Pattern[str] | None:
    """A phrase as a regex over folded text, on word boundaries (None for an empty one)."""
    folded = normalise(phrase)
    if not folded:
        return None
    return re.compile(bounded(re.escape(folded), folded[0], folded[-1]))


def _has(folded: str, phrase: str) -> bool:
    regex = phrase_regex(phrase)
    return regex is not None and regex.search(folded) is not None


def contains_all(text: str, phrases: list[str]) -> bool:
    """Whether every phrase occurs in ``text`` (folded, on word boundaries)."""
    folded = normalise(text)
    return all(_has(folded, p) for p in phrases)


def find_phrase(text: str, phrases: list[str]) -> str | None:
    """The first of ``phrases`` that occurs in ``text`` (folded, on word boundaries)."""
    folded = normalise(text)
    return next((p for p in phrases if _has(folded, p)), None)


def _typographic(text: str) -> str:
    return unicodedata.normalize("NFKC", text.translate(_TYPOGRAPHY))


def search(pattern: str, text: str) -> bool:
    """Regex search, case-insensitive, with typography folded in both the text and the
    pattern (so ``can't`` finds "can’t") and runs of white space in the text made one."""
    folded = " ".join(_typographic(text).split())
    return re.search(_typographic(pattern), folded, re.IGNORECASE) is not None
