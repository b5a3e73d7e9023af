"""Values an Agent mentions without stating them as true: negated, corrected, replaced,
moved from, or said to be someone else's.

"not the 35 dollars, it's 40", "Ich erstatte 35,00 € – nicht 53,00 €", "no el lunes, sino el
miércoles", "votre rendez-vous est à 15 h, pas à 13 h", "instead of Thursday", "en lugar del
sábado 27", "moved from the 2nd to the 5th", "vom 13. auf den 15. April verlegt", "le total
passe de 64 € à 54,40 €", "your 10:00 has now become a 13:30", "the 16:30 slot is already
taken", "der Termin um 16 Uhr ist bereits vergeben", "Camille a déjà un rendez-vous à 9 h",
"l'ancien (mardi 2 juin) est annulé", "CH-777, sorry, I mean CH-778". The value after the
correction is stated; the one ruled out is not.

The rules are local and explainable, like the concepts' negation (``_negation``), but about a
value rather than an act: a negator counts only right before the value (with at most a few
articles, prepositions or a copula between: "won't make it by Friday"), so "I can't refund
the $35" still states the $35 (the amount is true, the act is refused). A question or an
offer ("shall I book 16:30?") is left as stated: a say step that wants the slot offered
needs it found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

from supportsim.scoring.text.facts._text import Folded, Found

_NEGATORS = {
    "en": r"not|isn't|wasn't|won't|isnt|wont|never|no|rather than|instead of",
    "de": r"nicht|statt|anstatt|anstelle von|anstelle|keine?n?",
    "es": r"no|ni|en lugar de|en lugar del|en vez de|en vez del",
    "fr": r"pas|non|au lieu de|au lieu du|plutot que",
}
"""Words that rule out the value right after them ("not 5", "pas à 13 h", "en lugar del")."""
_BETWEEN = {
    "en": "the a an on at by for in from is was be it make it's its",
    "de": "am um den die der das dem bei von vom zum zur ist war wird es",
    "es": "el la los las de del a al en es era sera fue para lo",
    "fr": "a au aux le la les l du de des d en est etait sera pour sur",
}
"""What may stand between a negator and its value: articles, prepositions, a copula."""
_MAX_BETWEEN = 3
_CHANGE = {
    "en": r"mov\w*|reschedul\w*|chang\w*|switch\w*|shift\w*|push\w*|brought|bring\w*|updat\w*"
    r"|corrected|become|became|goes|gone|went|reduc\w*|lower\w*|rais\w*|increas\w*|decreas\w*",
    "de": r"verleg\w*|verlegt|verschob\w*|verschieb\w*|geschoben|umgebucht|umbuch\w*|geander\w*"
    r"|ander\w*|korrigiert|reduziert|gesenkt|erhoht|sinkt|steigt",
    "es": r"movid\w*|muev\w*|mover|cambi\w*|pasad\w*|pasa|paso|traslad\w*|reprogram\w*"
    r"|adelant\w*|aplaz\w*|pospu\w*|retras\w*|baj\w*|sub\w*|reduc\w*|correg\w*",
    "fr": r"deplac\w*|report\w*|decal\w*|avanc\w*|modifi\w*|chang\w*|pass\w*|bascul\w*"
    r"|reduit\w*|baiss\w*|augment\w*|corrig\w*|recul\w*",
}
"""A change verb in the sentence makes "from X to Y" a move: X is what it was."""
_FROM = {
    "en": r"from",
    "de": r"vom|von|von der|von den",
    "es": r"de|del|de la|de las|desde",
    "fr": r"de|du|des|de la",
}
_TO = {
    "en": r"to|into",
    "de": r"auf|auf den|auf die|zum|zur|nach|in",
    "es": r"a|al|a la|a las|hasta",
    "fr": r"a|au|aux|a la|jusqu'a",
}
_BECOME = {
    "en": r"(?:has |have )?(?:now )?(?:become|becomes|turned into|is now)",
    "de": r"wird (?:jetzt |nun )?zu|ist (?:jetzt|nun)",
    "es": r"(?:se )?(?:convierte|convirtio|ha convertido|pasa a ser|ahora es)",
    "fr": r"devient|est devenu|est desormais|passe a",
}
_CORRECTION = {
    "en": r"(?:sorry,?\s)?i\s(?:mean|meant)|correction",
    "de": r"(?:entschuldigung,?\s)?ich\s(?:meine|meinte)|besser gesagt|korrektur",
    "es": r"(?:perdon,?\s)?quiero decir|quise decir|mejor dicho|correccion",
    "fr": r"(?:pardon,?\s)?je veux dire|je voulais dire|correction",
}
"""Between two values of a kind: the speaker corrects the first ("CH-777, sorry, I mean
CH-778"; "am Dienstag, ich meine Mittwoch")."""
_RETRACTION = {
    "en": r"(?:oh,? )?wait,? no(?=\s?[,.:;!])|no,? wait|i misspoke|scratch that"
    r"|sorry,? (?:no|wrong)(?=\s?[,.:;!])|that(?:'s| is) (?:wrong|not right|incorrect)",
    "de": r"(?:oh,? )?moment,? nein|nein,? moment|ich habe mich versprochen"
    r"|verzeihung,? nein|das (?:ist|war) falsch",
    "es": r"(?:oh,? )?espere,? no(?=\s?[,.:;!])|no,? espere|me he equivocado|me equivoque"
    r"|perdon,? no(?=\s?[,.:;!])|eso (?:es|era) incorrecto",
    "fr": r"(?:oh,? )?attendez,? non|non,? attendez|je me suis trompee?|pardon,? non(?=\s?[,.:;!])"
    r"|c'(?:est|etait) (?:faux|une erreur)",
}
"""After a value, in its sentence or opening the next: the speaker takes it back ("on 24
March at 9:00 - oh wait, no, that one isn't yours. Yours is on the 26th"; "35 USD. Oh wait,
no, it was 53 USD"); it counts only when a value of the kind follows (the correction)."""
_TAKEN_AFTER = {
    "en": r"(?:is|was|'s|are)\s(?:\w+\s)?(?:taken|gone|full|unavailable|not available"
    r"|no longer available)|(?:held|booked|reserved|taken) by",
    "de": r"vergeben|belegt|ausgebucht|nicht (?:mehr )?(?:verfugbar|frei)|besetzt",
    "es": r"ocupad[oa]s?|se ocupo|no (?:esta|queda) (?:libre|disponible)"
    r"|ya no (?:esta )?disponible",
    "fr": r"(?:deja )?pris|occupe|complet|indisponible|n'est plus (?:libre|disponible)",
}
"""After a value: it is not the customer's to have ("the 16:30 slot is already taken")."""
_TAKEN_BEFORE = {
    "en": r"already has (?:an? )?(?:appointment|booking|slot)",
    "de": r"hat (?:bereits|schon) (?:einen )?termin",
    "es": r"ya tiene (?:una )?(?:cita|reserva)",
    "fr": r"a deja (?:un )?(?:rendez-vous|creneau|rdv)",
}
_OLD_BEFORE = {
    "en": r"old|previous|former",
    "de": r"alte|alten|alter|bisherige|bisherigen|vorherige|vorherigen",
    "es": r"antigua|antiguo|anterior",
    "fr": r"ancien|ancienne|precedent|precedente",
}
"""Before a value: the one replaced ("the old one (Tuesday 2 June)", "der alte Termin am
Dienstag")."""
_TAKEN_WORDS = 8
"""A "taken" predicate counts up to this many words after the value, in its clause."""
_BREAK = re.compile(r"[.!?;\n]|:\s|\s[-–—]\s")
_ABBREVIATIONS = frozenset(
    "dr av avda sr sra mme mr mrs ms st nr no ca bzw inkl etc pl".split()  # noqa: SIM905
)


@lru_cache(maxsize=1024)
def _breaks(text: str, sentences: bool) -> tuple[tuple[int, int], ...]:
    """Clause breaks: sentence punctuation (not the dot of "13.", "20.03." or "Dr."), and
    unless only ``sentences`` are wanted, a semicolon, a colon, a dash between spaces."""
    out = []
    for m in _BREAK.finditer(text):
        if m.group() == ".":
            word = re.search(r"(\w+)\Z", text[: m.start()])
            if word and (word.group(1).isdigit() or word.group(1) in _ABBREVIATIONS):
                continue
        elif sentences and m.group() not in "!?\n":
            continue
        out.append(m.span())
    return tuple(out)


def _either(table: dict[str, str], langs: tuple[str, ...]) -> str:
    return "|".join(f"(?:{table[lang]})" for lang in langs)


@cache
def _regexes(langs: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
    between = "|".join(re.escape(w) for lang in langs for w in _BETWEEN[lang].split())
    gap = rf"(?:(?:{between})\s){{0,{_MAX_BETWEEN}}}"
    return {
        "negated": re.compile(rf"(?<![\w'])(?:{_either(_NEGATORS, langs)})\s{gap}\Z"),
        "change": re.compile(rf"(?<![a-z])(?:{_either(_CHANGE, langs)})(?![a-z])"),
        "from": re.compile(rf"(?<![a-z])(?:{_either(_FROM, langs)})\s(?:[\w']+\s){{0,4}}\Z"),
        "to": re.compile(
            rf"\s?(?:[\w']+\s){{0,3}}?(?:{_either(_TO, langs)})\s(?:[\w']+\s){{0,4}}\Z"
        ),
        "become": re.compile(rf"\s(?:{_either(_BECOME, langs)})\s(?:an?\s|la\s|el\s)?\Z"),
        "retraction": re.compile(rf"(?<![a-z])(?:{_either(_RETRACTION, langs)})(?![a-z])"),
        "correction": re.compile(
            rf"(?<![a-z])(?:{_either(_CORRECTION, langs)})[,:]?\s(?:[\w']+\s){{0,3}}\Z"
        ),
        "taken_after": re.compile(
            rf"\A(?:\s?[\w'():]+){{0,{_TAKEN_WORDS}}}?\s(?:{_either(_TAKEN_AFTER, langs)})(?![a-z])"
        ),
        "taken_before": re.compile(rf"(?:{_either(_TAKEN_BEFORE, langs)})\s(?:[\w']+\s){{0,2}}\Z"),
        "old_before": re.compile(
            rf"(?<![a-z])(?:{_either(_OLD_BEFORE, langs)})\s(?:[\w'(]+\s?){{0,4}}\Z"
        ),
    }


def _clause(text: str, start: int, end: int, *, sentence: bool = False) -> tuple[int, int]:
    """The clause (or whole ``sentence``) holding ``[start, end)``."""
    breaks = _breaks(text, sentence)
    lo = max((e for s, e in breaks if e <= start), default=0)
    hi = min((s for s, e in breaks if s >= end), default=len(text))
    return lo, hi


def act_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The part of folded ``text`` an act at ``[start, end)`` gives its values in: its
    sentence (not cut at "13." or "Dr.") up to a semicolon or a dash between spaces, but
    across a colon ("Refunded: CH-778, 35 USD")."""
    lo, hi = _clause(text, start, end, sentence=True)
    cuts = [m.span() for m in _PART.finditer(text, lo, hi)]
    lo = max((e for s, e in cuts if e <= start), default=lo)
    hi = min((s for s, e in cuts if s >= end), default=hi)
    return lo, hi


_PART = re.compile(r";|\s[-–—]\s")


_SLOT_KINDS = frozenset({"time", "date", "id"})
"""The kinds a "taken" predicate rules out: a time, a date or a slot's id is someone else's
("the 16:30 slot is already taken"); an amount taken off ("the £30 fee is taken off") or a
duration stays stated."""


def ruled_out(
    f: Folded, found: Sequence[Found], langs: tuple[str, ...], kind: str = "time"
) -> set[int]:
    """Indices of ``found`` (statements of ``kind``) mentioned but not stated as true."""
    rx = _regexes(langs)
    slot = kind in _SLOT_KINDS
    text = f.text
    out: set[int] = set()
    for i, a in enumerate(found):
        lo, hi = _clause(text, a.start, a.end)
        head = text[lo : a.start]
        if rx["negated"].search(head) and _corrected(text, a, found):
            out.add(i)
            continue
        if (slot and rx["taken_before"].search(head)) or rx["old_before"].search(head):
            out.add(i)
            continue
        if slot and rx["taken_after"].match(text[a.end : hi]):
            out.add(i)
            continue
        if _retracted(text, a, found, rx["retraction"]):
            out.add(i)
            continue
        for b in found:
            if b.start <= a.end or b.start >= hi or b.value == a.value:
                continue
            between = text[a.end : b.start]
            # "your 40 USD fee is now 30 USD", not "35 USD, so your balance is now 10 USD"
            # (after a comma "is now" speaks of another thing); a correction likewise
            if "," not in between and rx["become"].search(between):
                out.add(i)
                break
            if rx["correction"].search(between):
                out.add(i)
                break
            moved = rx["change"].search(text[lo:hi]) is not None
            alternative = re.search(r"(?<![a-z])(?:o|or|oder|ou|y|and|und|et)\s", between)
            if (
                moved
                and not alternative
                and rx["from"].search(head)
                and rx["to"].fullmatch(between)
            ):
                out.add(i)
                break
    return out


def _corrected(text: str, value: Found, found: Sequence[Found]) -> bool:
    """Whether the sentence of a negated value states another value of its kind (the
    correction: "not 5, 3 hours"; "nicht 53,00 €" after "35,00 €"). A negated value alone
    is a true value the act around it refuses ("nicht die 5,90 € Versandkosten")."""
    lo, hi = _clause(text, value.start, value.end, sentence=True)
    return any(
        lo <= other.start < hi and other.value != value.value and other is not value
        for other in found
    )


def _retracted(text: str, value: Found, found: Sequence[Found], rx: re.Pattern[str]) -> bool:
    """Whether ``value`` is taken back after it, in its sentence or at the start of the next,
    and a value of its kind follows the retraction (the one meant instead)."""
    _, hi = _clause(text, value.start, value.end, sentence=True)
    m = rx.search(text, value.end, hi)
    if m is None and hi < len(text):
        m = rx.match(text, len(text) - len(text[hi + 1 :].lstrip()))
    return m is not None and any(
        other.start >= m.end() and other.value != value.value for other in found
    )
