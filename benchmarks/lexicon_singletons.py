"""Concept patterns that read one tune sentence each: the ones grown from it.

    python benchmarks/lexicon_singletons.py            # every pattern stated on one item
    python benchmarks/lexicon_singletons.py --needed   # ... and that item's only reading

For each pattern of each bundled concept lexicon, the tune items it states its concept on
(matched, not cancelled by an ``unless`` pattern, and accepted as the say steps accept a
phrase: not negated, asked, conditional, reported, a policy, nor an act the act reading
puts in a mode that does not state it). A pattern stated on exactly one item is printed
with the item's half (``bench_reading.half``) and whether the item is labelled with the
concept; ``--needed`` keeps those whose item loses the concept without the pattern (the
ones to generalise into a rule, or drop when dropping costs nothing on half b). English
patterns are tried on every language, as the scorer does. Tune only: never the holdout.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from unittest import mock

from bench_reading import half

from supportsim.scoring import read_statement
from supportsim.scoring._say import phrase_states, unstated_act
from supportsim.scoring.text import _lexicon
from supportsim.scoring.text._patterns import alternation
from supportsim.scoring.text._span import Span
from supportsim.scoring.text._text import fold_map
from supportsim.validate import Statement, load_corpus


@dataclass(frozen=True)
class Single:
    lang: str
    concept: str
    pattern: str
    item: Statement


def _states(item: Statement, concept: str, pattern: str, unless: re.Pattern[str] | None) -> bool:
    regex = alternation([pattern])
    assert regex is not None
    for line in re.finditer(r"[^\n]+", item.text):
        folded, starts, ends = fold_map(line.group(), accents=True)
        guards = [g.span() for g in unless.finditer(folded)] if unless else []
        for m in regex.finditer(folded):
            if any(a < m.end() and m.start() < b for a, b in guards):
                continue
            span = Span(line.start() + starts[m.start()], line.start() + ends[m.end() - 1])
            if phrase_states(concept, item.text, span, item.language) and not unstated_act(
                concept, item.text, span, item.language
            ):
                return True
    return False


def singles(items: list[Statement]) -> list[Single]:
    """Every pattern stated on exactly one item."""
    out = []
    for lang in _lexicon.LANGUAGES:
        for concept, entry in _lexicon._bundled(lang).items():
            guarded = isinstance(entry, _lexicon.GuardedLexicon)
            patterns = entry.patterns if isinstance(entry, _lexicon.GuardedLexicon) else entry
            unless = alternation(entry.unless) if guarded else None
            mine = [s for s in items if lang == "en" or s.language == lang]
            for pattern in patterns:
                hits = [s for s in mine if _states(s, concept, pattern, unless)]
                if len(hits) == 1:
                    out.append(Single(lang, concept, pattern, hits[0]))
    return out


def needed(single: Single) -> bool:
    """Whether the item loses the concept without the pattern."""
    lexicon = dict(_lexicon._bundled(single.lang))
    entry = lexicon[single.concept]
    if isinstance(entry, _lexicon.GuardedLexicon):
        kept = [p for p in entry.patterns if p != single.pattern] or ["zzzz"]
        lexicon[single.concept] = _lexicon.GuardedLexicon(patterns=kept, unless=entry.unless)
    else:
        lexicon[single.concept] = [p for p in entry if p != single.pattern] or ["zzzz"]
    original = _lexicon._bundled

    def bundled(lang: str) -> object:
        return lexicon if lang == single.lang else original(lang)

    _lexicon._compiled.cache_clear()
    with mock.patch.object(_lexicon, "_bundled", bundled):
        still = single.concept in read_statement(single.item.text, single.item.language).concepts
    _lexicon._compiled.cache_clear()
    return not still


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--needed", action="store_true", help="only the item's only reading")
    args = parser.parse_args()
    found = singles(load_corpus("tune"))
    if args.needed:
        found = [s for s in found if needed(s)]
    for s in found:
        kind = "tp" if s.concept in s.item.concepts else "fp"
        print(f"{s.lang} {s.concept} half {half(s.item)} {kind} {s.item.id} | {s.pattern}")
    print(f"{len(found)} patterns")


if __name__ == "__main__":
    main()
