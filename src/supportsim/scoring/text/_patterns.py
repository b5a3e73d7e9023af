"""The lexicon pattern syntax: a phrase matched on word boundaries after folding, with
``*`` for any ending or beginning of a word and ``~`` for at most one word (never a
negator). Used by the concept lexicons (``_lexicon``) and the act data (``_acts``), which
also writes its patterns in the words the tokenizer reads (``pattern_regex``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from functools import lru_cache

from supportsim.scoring.text._clauses import split_word
from supportsim.scoring.text._text import bounded, fold

GAP = "~"
"""A pattern word that stands for at most one word of any kind but a negator."""
# What a GAP matches: a word ("10:00", "Dr.", "A-5023", "35,00", a currency sign: "12 €") and
# its space, the first part of a hyphen compound ("Northwind-" of "Northwind-Shop") or an
# elided article ("l'" of "l'e-mail"); never a negator, so "habe ~ ~ gebucht" does not find
# "habe es nicht gebucht".
_GAP_STOP = (
    r"(?:not|no|never|nicht|kein\w*|nie|niemals|nunca|jamas|pas|jamais|ne|ni|sin|ohne"
    r"|\w*n't|n'\w*)(?![\w'])"
)
_GAP = rf"(?:(?!{_GAP_STOP})(?:(?:\d+,\d+|[\w'.:/-]+|[€$£]),? |[\w'.:/]+-|\w+'))?"


def check_pattern(pattern: str) -> str:
    """Return ``pattern`` if it is a valid lexicon pattern, else raise ValueError saying why
    (for the YAML model here and for a scenario's ``lexicon`` extensions)."""
    if "|" in pattern:
        raise ValueError(f"{pattern!r}: one alternative per list item, no '|'")
    words = fold(pattern, accents=True)[0].split(" ")
    if words == [""]:
        raise ValueError("a pattern cannot be empty")
    for word in words:
        if _bad_star(word):
            raise ValueError(f"{pattern!r}: '*' is only allowed at the start or end of a word")
        if GAP in word and word != GAP:
            raise ValueError(f"{pattern!r}: '{GAP}' is a word of its own")
    if GAP in (words[0], words[-1]):
        raise ValueError(f"{pattern!r}: '{GAP}' only stands between two words")
    return pattern


def _bad_star(word: str) -> bool:
    """A ``*`` anywhere but at either end of a word, or next to a non-letter ("*" alone)."""
    core = word.removeprefix("*")
    core = core.removesuffix("*")
    if "*" in core:
        return True
    if word.startswith("*") and not core[:1].isalnum():
        return True
    return word.endswith("*") and not core[-1:].isalnum()


def regex_body(pattern: str) -> str:
    """Regex for one pattern over folded, accent-stripped text. An optional comma is allowed
    between words ("unfortunately, I cannot") and an optional space before ? ! : ; (French
    typography writes "PIN ?")."""
    folded = re.sub(r" (?=[?!:;])", "", fold(pattern, accents=True)[0])
    body = ""
    for word in folded.split(" "):
        if word == GAP:
            body += _GAP
        elif "*" in word:
            core = re.escape(word.strip("*"))
            head = r"\w*" if word.startswith("*") else ""
            body += head + core + (r"\w*" if word.endswith("*") else "") + ",? "
        else:
            body += re.sub(r"\\?([?!:;])", r" ?\\\1", re.escape(word)) + ",? "
    first = "a" if folded.startswith("*") else folded[0]
    last = "a" if folded.endswith("*") else folded[-1]
    return bounded(body[: -len(",? ")], first, last)


def alternation(patterns: Sequence[str]) -> re.Pattern[str] | None:
    """One regex for many patterns; longer patterns first, so the longest wins at a place."""
    if not patterns:
        return None
    ordered = sorted(dict.fromkeys(patterns), key=lambda p: (-len(p), p))
    return re.compile("|".join(f"(?:{regex_body(p)})" for p in ordered))


def plain(pattern: str) -> bool:
    return "*" not in pattern and GAP not in pattern.split(" ")


@lru_cache(maxsize=2048)
def _pattern_words(pattern: str, lang: str) -> str:
    words = []
    for word in fold(pattern, accents=True)[0].split(" "):
        words += [word] if word == GAP or "*" in word else split_word(word, lang)
    return " ".join(words)


def pattern_regex(patterns: Sequence[str], lang: str) -> re.Pattern[str] | None:
    """One regex for many patterns over a clause's text (``_clauses.Clause.text``): each
    plain word is read as the tokenizer reads it ("you're in for" as "you are in for")."""
    return alternation([_pattern_words(p, lang) for p in patterns])


class LazyRegex:
    """:func:`pattern_regex` of ``patterns``, built and compiled the first time it is
    searched: most of a language's act conditions (objects, subjects, ``with``,
    ``without``) are never searched in a run, and compiling them all cost about 0.1 s of
    the first score of every process."""

    __slots__ = ("_lang", "_patterns", "_regex")

    def __init__(self, patterns: Sequence[str], lang: str) -> None:
        self._patterns = tuple(patterns)
        self._lang = lang
        self._regex: re.Pattern[str] | None = None

    @property
    def regex(self) -> re.Pattern[str]:
        if self._regex is None:
            built = pattern_regex(self._patterns, self._lang)
            assert built is not None  # lazy_pattern_regex makes none of no patterns
            self._regex = built
        return self._regex

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.regex.search(text, pos, endpos)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.regex.finditer(text)


def lazy_pattern_regex(patterns: Sequence[str], lang: str) -> LazyRegex | None:
    """:func:`pattern_regex`, compiled on first use (None, as it, for no patterns)."""
    return LazyRegex(patterns, lang) if patterns else None
