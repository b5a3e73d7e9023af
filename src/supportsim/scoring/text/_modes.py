"""The mode of a mention: is the act done, being done, committed to, offered, asked about,
conditional, negated, a policy, or someone else's? (``_grammar.Mode``)

Decided in the mention's clause (``_clauses``) from the language's data (``_grammar``,
compiled in ``_markers``), in this order:

1. negated (``_negation``): a negator before it in the clause ("I can't refund", "it was
   not cancelled"); a noun negator ("no", "kein", "sin") negates only the noun phrase it
   opens, so "no fee applies" negates the fee and not the act next to it; set phrases ("no
   worries", "not to worry", "don't panic") negate nothing.
2. asked: the clause is a question, or an offer ("would you like", "shall I") precedes it.
3. conditional: the clause sets a condition or is governed by one.
4. generic: an adverb of habit or policy in the clause ("usually", "automatically").
5. tense and aspect: the nearest auxiliary before the word decides with the word's slot
   ("have" + participle: done; "will" + base: committed; "is" + progressive: doing; "can":
   offered; "would": hypothetical; "should": expected; "to", "please": none), a passive
   auxiliary passing on to the one before it ("has been", "will be", "can be"); with none,
   the slot's bare mode (a participle alone is done: "Refund issued", "Booked ✅").
6. other: the customer is the active subject ("you booked it", "you can cancel online").

A noun ("refund", "cancellation") takes the mode of the support verb that states it
(``light``: "I've issued a refund", "your refund has been processed"), or of a copula
("the cancellation is confirmed" is a present state, done).
"""

from __future__ import annotations

from collections.abc import Callable

from supportsim.scoring.text._clauses import Clause
from supportsim.scoring.text._grammar import Mode, Slot, grammar
from supportsim.scoring.text._markers import (
    Markers,
    customer_before,
    has_before,
    in_other_phrase,
    marker_ending,
    markers,
    reported_before,
    specific_subject,
)
from supportsim.scoring.text._negation import Negation, negation_at, offered_before, trailing_reach

_STATED_SLOTS = frozenset({"participle", "past"})


NEAR_RIGHT = 8
"""Tokens after a noun within which the verb that states it is looked for."""


def tense_mode(
    clause: Clause, i: int, slot: Slot, lang: str, *, receipt: bool = False, phrase: bool = False
) -> Mode:
    """The mode the auxiliaries before token ``i`` (a verb form in ``slot``) give it.

    A verb form inside the noun phrase of another verb is in no mode ("I've sent a password
    reset link"); a ``phrase`` (a state such as "back on your") carries its own verb before
    it ("I've put the money back on your card") and is not checked for that."""
    mk = markers(lang)
    j, passive, nearest = i - 1, False, None
    while j >= 0:
        hit = marker_ending(clause, j, mk)
        if hit is None:
            j -= 1
            continue
        category, k = hit
        nearest = k if nearest is None else nearest
        if category == "passive":
            passive = True
            j = k - 1
            continue
        if category == "infinitive" and not _right_before(clause, k, i):
            j = k - 1  # a preposition ("escalated this to our team and flagged it")
            continue
        if category == "infinitive":
            lead = _causative_before(clause, k, mk)
            if lead is None:
                return "none"
            chained = tense_mode(clause, lead, "base", lang, receipt=True)
            if chained == "none" and clause.tokens[lead].text in mk.words["causative"]:
                return "none"
            return "committed" if chained in ("done", "doing", "committed") else chained
        # the nearest auxiliary's phrase: "I'll get the billing error corrected" is governed
        if not phrase and in_other_phrase(clause, nearest, i, mk):
            return "none"
        mode = _combine(category, slot, passive, clause, k, mk)
        # the customer as the subject of an active act: "you've booked", "you'll cancel";
        # not of a passive one ("you're booked", "you were refunded")
        # nor after a future with a participle, a passive ("vous sera remboursée")
        active = not passive and not (
            category in ("copula", "past", "future") and slot in _STATED_SLOTS
        )
        stated = mode in ("done", "doing", "committed", "generic")
        if stated and active and not receipt and _customer_subject(clause, k, mk):
            return "other"
        return mode
    if passive:
        return "done"
    if slot in _STATED_SLOTS and not receipt and _customer_subject(clause, i, mk):
        return "other"
    return mk.bare.get(slot, "none")


def _customer_subject(clause: Clause, k: int, mk: Markers) -> bool:
    """The customer's word right before token ``k`` as its subject, not as the object of
    the Agent's act, whose subject comes earlier ("je vous ai réservé", "nous vous avons
    envoyé", "ich habe den Termin für Sie gebucht")."""
    if not customer_before(clause, k, mk):
        return False
    # the Agent named before is the subject: "ich habe den Termin für Sie gebucht"
    return not any(t.text in mk.words["first_person"] for t in clause.tokens[: k - 1])


def _right_before(clause: Clause, k: int, i: int) -> bool:
    """Whether the marker at ``k`` stands right before token ``i`` (an adverb in "-ly" may
    come between: "to quickly refund")."""
    between = clause.tokens[k + 1 : i]
    return len(between) <= 1 and all(t.text.endswith("ly") for t in between)


CAUSATIVE_REACH = 6
"""Words a causative verb may stand before an infinitive marker ("get a member of our
team to take over")."""


def _causative_before(clause: Clause, k: int, mk: Markers) -> int | None:
    """A causative verb ("get", "ask") before the infinitive marker at ``k``: "I'll get a
    colleague to call you"."""
    for j in range(k - 1, max(-1, k - 1 - CAUSATIVE_REACH), -1):
        if clause.tokens[j].text in mk.words["causative"]:
            return j
    return None


def _combine(category: str, slot: Slot, passive: bool, clause: Clause, k: int, mk: Markers) -> Mode:
    stated = slot in _STATED_SLOTS or passive
    if category == "future":
        return "committed"
    if category == "perfect":
        if not stated:
            return "none"
        before = marker_ending(clause, k - 1, mk) if k > 0 else None
        if before is not None and before[0] == "future":
            return "committed"
        if before is not None and before[0] in ("hypothetical", "ability"):
            return "hypothetical"
        return "done"
    if category == "copula":
        if slot == "gerund":
            return "doing"
        if not stated:
            return "none"
        if has_before(clause, k, "future", mk):
            return "committed"
        now = any(t.text in mk.words["now"] for t in clause.tokens)
        # the subject may follow the copula (German "dann ist der Techniker ... eingeplant")
        after = k + 1 < len(clause.tokens) and clause.tokens[k + 1].text in mk.words["specific"]
        # a copula opening its clause has its subject in the clause before ("la cita ya no
        # existe; está cancelada")
        first = k == 0 and clause.opener in (",", ";", ":", "-")
        return "done" if now or after or first or specific_subject(clause, k, mk) else "generic"
    if category == "support":
        return "state" if slot == "base" else "none"
    if category == "past":
        return "done" if stated or slot in ("gerund", "base") else "none"
    if category == "ability":
        return "offered"
    if category == "hypothetical":
        return "hypothetical"
    if category == "expectation":
        return "expected"
    if category == "past_obligation":
        return "done"
    return "none"  # obligation, imperative, desire


def asked_at(clause: Clause, i: int, lang: str) -> bool:
    """A question, or an offer before token ``i`` in its sentence."""
    return clause.question or offered_before(clause, i, lang)


def generic_clause(clause: Clause, lang: str) -> bool:
    mk = markers(lang)
    return mk.generic is not None and mk.generic.search(clause.text) is not None


def unable_after(clause: Clause, i: int, lang: str) -> bool:
    """ "... is possible", "... is available": a noun offered, not stated."""
    words = markers(lang).words["unable"]
    return any(t.text in words for t in clause.tokens[i + 1 : i + 1 + NEAR_RIGHT])


def context_mode(clause: Clause, i: int, lang: str) -> Mode | None:
    """The mode the clause imposes at token ``i`` whatever the tense (asked, conditional,
    generic, the customer's reported words), or None."""
    if reported_before(clause, i, lang):
        return "other"
    if asked_at(clause, i, lang):
        return "asked"
    if clause.conditional:
        return "conditional"
    if generic_clause(clause, lang):
        return "generic"
    return None


def in_time_clause(mode: Mode, clause: Clause, i: int, lang: str) -> Mode:
    """A time clause tells of a future or ongoing act: "once the refund has gone through"
    (a completion to come), "while I transfer your call" (the Agent's act under way)."""
    if clause.kind != "time":
        return mode
    if mode == "done":
        return "committed"
    if (
        mode == "none"
        and i > 0
        and clause.tokens[i - 1].text in markers(lang).words["first_person"]
    ):
        return "committed"
    return mode


def noun_mode(
    clause: Clause,
    i: int,
    n: int,
    lang: str,
    light: Callable[[int], tuple[Slot, bool] | None],
    other: Callable[[int], bool],
    *,
    copula: bool = True,
) -> tuple[Mode, Negation]:
    """The tense mode of the noun at tokens ``i .. i+n-1`` and how it is negated.

    The noun is stated by the nearest support verb before it (``light(j)``: its slot, and
    whether the customer may be its subject: "I've issued a refund"), else by the first
    one after it ("your refund of £12 has been processed"), unless the verb of another act
    (``other(j)``) comes first ("your booking was cancelled" states no booking); else by
    a copula after it ("the cancellation is confirmed", "a refund is on its way": a present
    state; "a refund is possible": offered); else it is said in no mode (none).
    """
    mk = markers(lang)
    determiners = mk.words["determiners"]
    for j in range(i - 1, -1, -1):
        attributive = j > 0 and clause.tokens[j - 1].text in determiners  # "your corrected invoice"
        if other(j) and not attributive:
            break
        found = light(j)
        if found is not None:
            mode = tense_mode(clause, j, found[0], lang, receipt=found[1])
            return mode, negation_at(clause, i, lang)
    seen: tuple[str, int] | None = None
    for j in range(i + n, min(len(clause.tokens), i + n + NEAR_RIGHT)):
        found = light(j)
        after_copula = seen is not None and seen[0] in ("copula", "past") and seen[1] == j - 1
        if found is not None and not (after_copula and found[0] in ("base", "present")):
            mode = tense_mode(clause, j, found[0], lang, receipt=found[1])
            return mode, negation_at(clause, i, lang, until=j + 1)
        if found is not None:
            break  # "the booking is complete": an adjective after the copula
        if other(j):
            if seen is not None:
                break  # "the charge is not something I can reverse": the copula's
            return "none", negation_at(clause, i, lang)
        hit = marker_ending(clause, j, mk)
        if hit is not None and seen is None:
            seen = (hit[0], j)
    if seen is None:
        return "none", negation_at(clause, i, lang)
    category, j = seen
    negation = negation_at(clause, i, lang, until=j + 2)
    if category not in ("copula", "past"):
        if grammar(lang).negation.trailing:
            # the auxiliary's verb may close the clause ("die Erstattung wird nicht von uns
            # abgewickelt"): where the language puts its negator after the verb, one
            # anywhere after the noun in its clause negates it; elsewhere only a negator by
            # the auxiliary does ("the replacement will be shipped today and not next week")
            negation = negation_at(clause, i, lang, until=trailing_reach(clause, i, lang))
        return tense_mode(clause, j + 1, "base", lang), negation
    after = clause.tokens[j + 1 : j + 3]
    if not copula or any(t.text.endswith("ed") for t in after):
        return "none", negation
    if negation is not None:
        negation = "predicate"  # "the charge isn't something I can reverse"
    if unable_after(clause, j, lang):
        return "offered", negation
    if category == "past":
        return "done", negation
    # the subject is everything before the copula: "a refund of 22 USD is on its way"
    return ("doing" if specific_subject(clause, j, mk) else "generic"), negation
