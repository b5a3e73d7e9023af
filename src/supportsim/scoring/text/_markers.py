"""The words that decide a mention's mode, compiled per language, and what they say about
one token of a clause: the auxiliary ending there (``marker_ending``), whether a verb form is
read as a noun ("the refund"), whose act it is ("cancelled by the clinic", "you mentioned"),
and the like. The words are the language's data (``lexicons/<lang>.acts.yaml``, ``modes``
and ``negation``); ``_negation`` and ``_modes`` decide with them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from supportsim.scoring.text._clauses import Clause
from supportsim.scoring.text._grammar import Mode, Slot, grammar

_DIGIT = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class Markers:
    table: dict[tuple[str, ...], str]
    longest: int
    negators: re.Pattern[str] | None
    noun_negators: re.Pattern[str] | None
    idioms: re.Pattern[str] | None
    offers: re.Pattern[str] | None
    requests: re.Pattern[str] | None
    after: re.Pattern[str] | None
    generic: re.Pattern[str] | None
    words: dict[str, frozenset[str]]
    bare: dict[Slot, Mode]


def _alternation(fragments: list[str]) -> re.Pattern[str] | None:
    if not fragments:
        return None
    return re.compile(r"(?<![\w'-])(?:" + "|".join(fragments) + r")(?![\w'-])")


def _phrases(words: list[str]) -> list[str]:
    return [r"\s".join(re.escape(w) for w in phrase.split()) for phrase in words]


@cache
def markers(lang: str) -> Markers:
    """The compiled mode markers of ``lang``'s data."""
    g = grammar(lang)
    table: dict[tuple[str, ...], str] = {}
    m = g.modes
    for category in (
        "future",
        "perfect",
        "copula",
        "support",
        "past",
        "passive",
        "ability",
        "hypothetical",
        "expectation",
        "obligation",
        "past_obligation",
        "infinitive",
        "imperative",
        "desire",
    ):
        for phrase in getattr(m, category):
            table[tuple(phrase.split())] = category
    neg = g.negation
    return Markers(
        table=table,
        longest=max((len(k) for k in table), default=1),
        negators=_alternation(neg.negators),
        noun_negators=_alternation(neg.noun_negators),
        idioms=_alternation(neg.idioms),
        offers=_alternation(neg.offers),
        requests=_alternation(neg.requests),
        after=_alternation(neg.after),
        generic=_alternation(_phrases(m.generic)),
        words={
            "now": frozenset(m.now),
            "customer": frozenset(m.customer),
            "specific": frozenset(m.specific),
            "unable": frozenset(m.unable),
            "causative": frozenset(m.causative),
            "first_person": frozenset(m.first_person),
            "reported": frozenset(m.reported),
            "others": frozenset(m.others),
            "records": frozenset(m.records),
            "determiners": frozenset(m.determiners),
            "agent": frozenset(m.agent),
            "prepositions": frozenset(m.prepositions),
            "pronouns": frozenset(m.pronouns),
            "existential": frozenset(m.existential),
            "joins": frozenset(g.clauses.joins),
        },
        bare=dict(g.bare),
    )


def marker_ending(clause: Clause, j: int, mk: Markers) -> tuple[str, int] | None:
    """The longest marker whose last token is ``j``: (category, its first token)."""
    words = [t.text for t in clause.tokens]
    for n in range(min(mk.longest, j + 1), 0, -1):
        category = mk.table.get(tuple(words[j - n + 1 : j + 1]))
        if category is not None:
            return category, j - n + 1
    return None


def in_other_phrase(clause: Clause, k: int, i: int, mk: Markers) -> bool:
    """Whether token ``i`` stands in a noun phrase of another verb than the auxiliary at
    ``k`` governs: a determiner after a word that follows the auxiliary, with no join word
    after it ("I've sent a password reset link": "reset" is no act of "have"). A
    determiner right after the auxiliary ("I've got the visit booked") and a join after the
    determiner ("I've emailed you the label and cancelled the order") keep it governed."""
    words = [t.text for t in clause.tokens]
    for d in range(i - 1, k + 1, -1):
        if words[d] in mk.words["joins"]:
            return False
        if words[d] in mk.words["determiners"]:
            return True
    return False


def customer_before(clause: Clause, k: int, mk: Markers) -> bool:
    return k > 0 and clause.tokens[k - 1].text in mk.words["customer"]


def specific_subject(clause: Clause, k: int, mk: Markers) -> bool:
    """Whether what precedes token ``k`` names a particular thing (a determiner, a pronoun,
    a number or id), not a class ("orders are cancelled after 30 days")."""
    return any(t.text in mk.words["specific"] or _DIGIT.search(t.text) for t in clause.tokens[:k])


def has_before(clause: Clause, k: int, category: str, mk: Markers) -> bool:
    return any(
        (hit := marker_ending(clause, j, mk)) is not None and hit[0] == category for j in range(k)
    )


def as_noun(clause: Clause, i: int, lang: str, *, bare: bool = True) -> bool:
    """Whether the verb form at token ``i`` is read as a noun: a determiner or preposition
    right before it ("the refunds", "by post"), or, for a ``bare`` form (base, gerund), a
    determiner at most two words before it and no auxiliary between ("a full refund",
    "your bank transfer"; not "the return label costs")."""
    mk = markers(lang)
    if i > 0 and clause.tokens[i - 1].text in mk.words["prepositions"]:
        return True
    for j in range(i - 1, max(-1, i - 4), -1):
        if marker_ending(clause, j, mk) is not None:
            return False
        if clause.tokens[j].text in mk.words["determiners"]:
            return j == i - 1 or bare
    return False


def by_someone_else(clause: Clause, i: int, lang: str) -> bool:
    """A passive's agent after token ``i`` that is not the Agent ("cancelled by the clinic")."""
    mk = markers(lang)
    words = [t.text for t in clause.tokens]
    return any(
        w in mk.words["agent"]
        and n + 1 < len(words)
        and words[n + 1] not in mk.words["first_person"]
        for n, w in enumerate(words[i + 1 :], i + 1)
    )


def first_person_before(clause: Clause, i: int, lang: str) -> bool:
    """Whether the Agent ("I", "we") is a subject before token ``i`` in its clause."""
    words = markers(lang).words["first_person"]
    return any(t.text in words for t in clause.tokens[:i])


def past_obligation_before(clause: Clause, i: int, lang: str) -> bool:
    return has_before(clause, i, "past_obligation", markers(lang))


def has_marker(clause: Clause, i: int, lang: str) -> bool:
    """Whether an auxiliary (other than a passive one) comes before token ``i``."""
    mk = markers(lang)
    return any(
        (hit := marker_ending(clause, j, mk)) is not None and hit[0] != "passive" for j in range(i)
    )


_MODALS = {
    "hypothetical": "hypothetical",
    "ability": "offered",
    "expectation": "expected",
    "future": "committed",
}


def modal_before(clause: Clause, i: int, lang: str) -> Mode | None:
    """The mode of a modal or future auxiliary before token ``i`` ("there would be"), if any."""
    mk = markers(lang)
    for j in range(i - 1, -1, -1):
        hit = marker_ending(clause, j, mk)
        if hit is not None and hit[0] in _MODALS:
            return _MODALS[hit[0]]  # type: ignore[return-value]
    return None


REPORT_REACH = 3
"""Words before a verb of saying within which its subject stands ("vous m'avez dit")."""


def reported_before(clause: Clause, i: int, lang: str) -> bool:
    """Someone else's words or records before token ``i``: a verb of saying or showing
    whose subject is the customer, a third person or a record ("you mentioned", "they told
    me", "the system shows", "Usted dijo que"), not the Agent ("I told you", "je vous
    indique"). In its clause, or in the clause right before when that one ends with the
    verb and this one has no subject of the Agent's ("Sie sagten, es wurde storniert")."""
    mk = markers(lang)
    words = [t.text for t in clause.tokens[:i]]
    if any(_reports(words, n, mk) for n in range(len(words))):
        return True
    if clause.opener in ("", ";", ":") or any(w in mk.words["first_person"] for w in words):
        return False
    previous = clause.previous.split()
    last = len(previous) - 1
    return any(_reports(previous, n, mk) for n in range(max(0, last - 1), last + 1))


def _reports(words: list[str], n: int, mk: Markers) -> bool:
    """Whether ``words[n]`` is a verb of saying with someone else as its subject."""
    if words[n] not in mk.words["reported"]:
        return False
    subject = words[max(0, n - REPORT_REACH) : n]
    if any(w in mk.words["first_person"] for w in subject):
        return False
    who = mk.words["customer"] | mk.words["others"] | mk.words["records"]
    return any(w in who for w in subject)


def other_subject(clause: Clause, i: int, lang: str) -> bool:
    """A third person right before the verb at token ``i`` (an auxiliary may come between):
    someone else's act ("they cancelled it", "ellos lo cancelaron")."""
    mk = markers(lang)
    words = [t.text for t in clause.tokens[max(0, i - REPORT_REACH) : i]]
    return any(w in mk.words["others"] for w in words) and not any(
        w in mk.words["first_person"] for w in words
    )


def active_perfect(clause: Clause, i: int, lang: str) -> bool:
    """Whether the verb at token ``i`` is an active perfect or past with a subject that is
    not the Agent ("the courier has cancelled it"): someone else's act."""
    mk = markers(lang)
    if any(t.text in mk.words["first_person"] for t in clause.tokens[:i]):
        return False
    for j in range(i - 1, -1, -1):
        hit = marker_ending(clause, j, mk)
        if hit is not None:
            return hit[0] == "perfect" and hit[1] > 0
    return False


def existential_before(clause: Clause, i: int, lang: str) -> bool:
    """An existential subject before token ``i`` ("there won't be any fee")."""
    words = markers(lang).words["existential"]
    return any(t.text in words for t in clause.tokens[:i])


def after_verb_word(clause: Clause, i: int, lang: str) -> bool:
    """Whether token ``i`` follows a subject pronoun or an auxiliary directly, so a noun
    form there is a verb ("please charge your device", "we charge a fee")."""
    if i == 0:
        return False
    mk = markers(lang)
    return (
        clause.tokens[i - 1].text in mk.words["pronouns"]
        or marker_ending(clause, i - 1, mk) is not None
    )
