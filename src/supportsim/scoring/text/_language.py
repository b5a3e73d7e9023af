"""Which language an Agent answered in: English or the scenario's, by function words.

Policies ask the Agent to answer in the customer's language, and statements are matched in
English too (agents fall back to it), so without this check an all-English answer to a German
customer would pass. Deterministic by design: the share of the most frequent function words
of each language over all of the Agent's text, not a statistical detector (one English
greeting in a German conversation must not decide it). The lists are short and closed:
articles, pronouns, prepositions and auxiliaries that carry no topic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from supportsim.scoring.text._text import fold

FUNCTION_WORDS: dict[str, frozenset[str]] = {
    # No word that is also common in German, Spanish or French ("on", "was", "will", "an",
    # "in", "so", "me", "no", "a"): those would make a German message read as English.
    "en": frozenset(
        [
            "the",
            "and",
            "you",
            "your",
            "is",
            "are",
            "to",
            "of",
            "for",
            "it",
            "that",
            "this",
            "we",
            "have",
            "has",
            "with",
            "be",
            "can",
            "i",
            "my",
            "our",
            "not",
            "at",
            "from",
            "would",
            "please",
            "thank",
            "thanks",
            "if",
            "or",
            "but",
            "they",
            "them",
            "their",
            "there",
            "here",
            "what",
            "which",
            "when",
            "how",
            "do",
            "does",
            "did",
            "been",
            "were",
            "its",
            "just",
            "then",
            "than",
            "about",
            "after",
            "before",
            "until",
            "only",
            "any",
            "could",
            "should",
            "yes",
        ]
    ),
    "de": frozenset(
        [
            "der",
            "die",
            "das",
            "und",
            "ist",
            "sie",
            "ihr",
            "ihre",
            "ihren",
            "ihnen",
            "ich",
            "nicht",
            "mit",
            "fur",
            "auf",
            "ein",
            "eine",
            "einen",
            "den",
            "dem",
            "zu",
            "wir",
            "haben",
            "wird",
            "es",
            "bitte",
            "danke",
            "im",
            "am",
            "vom",
            "zum",
            "zur",
            "sind",
            "noch",
            "auch",
        ]
    ),
    "es": frozenset(
        [
            "el",
            "la",
            "los",
            "las",
            "de",
            "que",
            "y",
            "en",
            "su",
            "usted",
            "es",
            "por",
            "para",
            "un",
            "una",
            "con",
            "no",
            "se",
            "le",
            "lo",
            "al",
            "del",
            "sus",
            "esta",
            "este",
            "gracias",
            "muy",
            "hay",
            "como",
            "pero",
            "mas",
        ]
    ),
    "fr": frozenset(
        [
            "le",
            "la",
            "les",
            "de",
            "des",
            "et",
            "est",
            "vous",
            "votre",
            "vos",
            "je",
            "nous",
            "un",
            "une",
            "pour",
            "pas",
            "que",
            "qui",
            "en",
            "du",
            "au",
            "avec",
            "sur",
            "ce",
            "cette",
            "merci",
            "ne",
            "sont",
            "aux",
            "mais",
            "tres",
        ]
    ),
}
MIN_WORDS = 4
"""A message with fewer English function words than this is never judged English (a
greeting, a product name, a quoted id)."""

_WORD = re.compile(r"[a-z]+")


def function_word_counts(texts: Iterable[str], lang: str) -> tuple[int, int]:
    """(English function words, ``lang`` function words) in ``texts``, folded, accents
    stripped; words both lists share ("de", "en", "son") count for neither."""
    english, own = FUNCTION_WORDS["en"], FUNCTION_WORDS[lang]
    shared = english & own
    n_en = n_own = 0
    for text in texts:
        for word in _WORD.findall(fold(text, accents=True)[0]):
            if word in shared:
                continue
            n_en += word in english
            n_own += word in own
    return n_en, n_own


def answered_in_english(texts: Iterable[str], lang: str) -> tuple[bool, int, int]:
    """Whether an Agent message of a ``lang`` conversation is in English: at least
    MIN_WORDS English function words and more of them than of ``lang``'s. Returns the
    verdict and the counts of the first English message (or of all the text). Never for
    English or an unsupported language."""
    if lang == "en" or lang not in FUNCTION_WORDS:
        return False, 0, 0
    total_en = total_own = 0
    for text in texts:
        n_en, n_own = function_word_counts([text], lang)
        if n_en >= MIN_WORDS and n_en > n_own:
            return True, n_en, n_own
        total_en, total_own = total_en + n_en, total_own + n_own
    return False, total_en, total_own
