"""Acts in Agent text: every mention of a refund, cancellation, booking, transfer... with
the mode it is said in, and so the concepts, claims and promises a message states.

The acts and their words are language data (``lexicons/<lang>.acts.yaml``, ``_grammar``):
verbs in all their inflected forms, nouns stated through a support verb ("issue a refund")
and state phrases ("back on your card"), each with the conditions that make it that act
("move" is rescheduling with an appointment, a delivery or a time in the clause; "reverse"
is a refund of a charge and a waiver of a fee). Each mention gets a mode (``_modes``), and:

- its act's concept is stated when the mode is one of the act's ``concept_modes`` (done,
  doing, committed by default: "I've refunded", "I'm refunding", "I'll refund");
- its claim is made in ``claim_modes`` (done, doing), its promise in ``promise_modes``
  (committed);
- a negated mention of an act with ``negated_as`` states that act instead ("no fee
  applies", "you won't be charged": waiving), in the mode the negated words have;
- a stated mention cancels the mentions of the acts it ``cancels`` in its clause ("I've
  waived the fee" states no fee).

Text is read with its language's acts, clauses and modes (a language without data with
English's): a mode is only decided in the language's own grammar, so English acts are not
read in French text ("votre téléphone est en charge" is no fee).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from supportsim.scoring.text._clauses import Clause, clauses
from supportsim.scoring.text._grammar import (
    TIME,
    Act,
    Mode,
    Slot,
    Trigger,
    grammar,
    inflect,
    reading_language,
    trigger,
)
from supportsim.scoring.text._markers import (
    active_perfect,
    after_verb_word,
    as_noun,
    by_someone_else,
    existential_before,
    first_person_before,
    has_marker,
    modal_before,
    other_subject,
    past_obligation_before,
)
from supportsim.scoring.text._modes import context_mode, in_time_clause, noun_mode, tense_mode
from supportsim.scoring.text._negation import (
    negation_at,
    offered_before,
    request_before,
    trailing_reach,
)
from supportsim.scoring.text._patterns import LazyRegex, lazy_pattern_regex, pattern_regex
from supportsim.scoring.text._span import Span

PARTICLE_REACH = 6
"""Tokens after a verb within which its particle must come ("paid you back")."""
_CLOCK = re.compile(r"\b\d{1,2}(?:[:.]\d{2}\b|(?: ?(?:am|pm|a\.m|p\.m|h|uhr)\b))")


@dataclass(frozen=True, slots=True)
class Mention:
    """One mention of an act in a message."""

    act: str
    lang: str
    """The language whose data names the act."""
    mode: Mode
    span: Span
    concept: str | None
    """The concept the act names (whatever the mode)."""
    stated: bool
    """Whether the mode states the concept."""
    claim: str | None
    """The claim the mention makes (None: none in this mode)."""
    promise: str | None
    confirms: bool
    """Whether it states ``confirming`` too (a done act of a ``confirms`` kind)."""
    refuses: bool = False
    """Whether it states ``refusing``: the Agent negates its own act, as an ability or a
    commitment ("I won't be transferring you", "we will not refund it")."""
    asks: bool = False
    """Whether it states ``asking_confirmation``: the Agent asks whether to do the act
    ("Do you want me to cancel both tickets?", "Soll ich den Termin stornieren?")."""


@dataclass(frozen=True, slots=True)
class _Rule:
    """A trigger compiled: its act, kind and conditions."""

    act: str
    lang: str
    kind: str
    words: tuple[str, ...]
    regex: re.Pattern[str] | None
    particle: frozenset[str]
    objects: tuple[tuple[LazyRegex | None, bool], ...]
    """Groups the clause must hold one word of each: (regex, or a time expression)."""
    subjects: LazyRegex | None
    with_: LazyRegex | None
    without: LazyRegex | None
    receipt: bool
    copula: bool


@dataclass(frozen=True, slots=True)
class _Compiled:
    verbs: dict[str, list[tuple[_Rule, Slot]]]
    lights: dict[tuple[str, str], dict[str, list[tuple[_Rule, Slot]]]]
    nouns: dict[str, list[_Rule]]
    states: list[_Rule]
    unless: dict[tuple[str, str], re.Pattern[str]]
    time_words: frozenset[str]


def _group(patterns: list[str], lang: str) -> tuple[LazyRegex | None, bool]:
    return lazy_pattern_regex([p for p in patterns if p != TIME], lang), TIME in patterns


def _rule(act: str, lang: str, kind: str, t: Trigger) -> _Rule:
    words = tuple(t.word.split())
    plain = [o for o in t.objects if isinstance(o, str)]
    groups = ([plain] if plain else []) + [o for o in t.objects if isinstance(o, list)]
    return _Rule(
        act=act,
        lang=lang,
        kind=kind,
        words=words,
        regex=pattern_regex([t.word], lang) if kind == "state" else None,
        particle=frozenset(t.particle),
        objects=tuple(_group(g, lang) for g in groups),
        subjects=lazy_pattern_regex(t.subjects, lang),
        with_=lazy_pattern_regex(t.with_, lang),
        without=lazy_pattern_regex(t.without, lang),
        receipt=t.receipt,
        copula=t.copula,
    )


@cache
def _compiled(lang: str) -> _Compiled:
    g = grammar(lang)
    verbs: dict[str, list[tuple[_Rule, Slot]]] = {}
    lights: dict[tuple[str, str], dict[str, list[tuple[_Rule, Slot]]]] = {}
    nouns: dict[str, list[_Rule]] = {}
    states: list[_Rule] = []
    unless: dict[tuple[str, str], re.Pattern[str]] = {}
    for name, act in g.acts.items():
        for entry in act.verbs:
            t = trigger(entry)
            rule = _rule(name, lang, "verb", t)
            for slot, forms in inflect(t, g.paradigms).items():
                for form in forms:
                    verbs.setdefault(form, []).append((rule, slot))
        table = lights.setdefault((lang, name), {})
        for entry in act.light:
            t = trigger(entry)
            rule = _rule(name, lang, "light", t)
            for slot, forms in inflect(t, g.paradigms).items():
                for form in forms:
                    table.setdefault(form, []).append((rule, slot))
        for entry in act.nouns:
            rule = _rule(name, lang, "noun", trigger(entry))
            nouns.setdefault(rule.words[0], []).append(rule)
        states += [_rule(name, lang, "state", trigger(e)) for e in act.states]
        if act.unless and (regex := pattern_regex(act.unless, lang)) is not None:
            unless[(lang, name)] = regex
    for found in nouns.values():
        found.sort(key=lambda r: -len(r.words))
    return _Compiled(verbs, lights, nouns, states, unless, frozenset(g.time_words))


def _act(rule: _Rule) -> Act:
    return grammar(rule.lang).acts[rule.act]


def _holds(rule: _Rule, clause: Clause, i: int, end: int, sentence: str, c: _Compiled) -> bool:
    """Whether the trigger's conditions hold for its mention at tokens ``i .. end-1``."""
    if rule.particle:
        reach = len(clause.tokens) if grammar(rule.lang).clauses.particles_last else PARTICLE_REACH
        after = {t.text for t in clause.tokens[end : end + reach]}
        if not after & rule.particle:
            return False
    for regex, time in rule.objects:
        hit = regex is not None and regex.search(clause.text) is not None
        if not hit and time:
            hit = bool(_CLOCK.search(clause.text)) or any(
                t.text in c.time_words for t in clause.tokens
            )
        if not hit:
            return False
    if rule.subjects is not None and not rule.subjects.search(clause.text, 0, clause.starts[i]):
        return False
    if rule.with_ is not None and not rule.with_.search(sentence):
        return False
    return rule.without is None or not rule.without.search(sentence)


_NOUN_LIKE = frozenset({"base", "present", "gerund"})


def _found(
    clause: Clause, sentence: str, c: _Compiled, lang: str
) -> Iterator[tuple[_Rule, int, int, tuple[Slot, ...]]]:
    """Every trigger in the clause whose conditions hold: (rule, first, end token, the
    slots its form may be in: "reset" is a base form and a participle). A verb form after
    a determiner is a noun ("the refund", "an email"), not a verb."""
    for i, token in enumerate(clause.tokens):
        slots: dict[int, tuple[_Rule, list[Slot]]] = {}
        for rule, slot in c.verbs.get(token.text, ()):
            slots.setdefault(id(rule), (rule, []))[1].append(slot)
        for rule, found in slots.values():
            if set(found) <= _NOUN_LIKE and as_noun(clause, i, lang, bare="present" not in found):
                continue
            if _holds(rule, clause, i, i + 1, sentence, c):
                yield rule, i, i + 1, tuple(found)
        taken = 0
        for rule in c.nouns.get(token.text, ()):
            n = len(rule.words)
            if n < taken:
                break
            words = tuple(t.text for t in clause.tokens[i : i + n])
            if words != rule.words or (n == 1 and after_verb_word(clause, i, lang)):
                continue  # "please charge your device": a verb, not the noun
            if _holds(rule, clause, i, i + n, sentence, c):
                taken = n
                yield rule, i, i + n, ("base",)
    for rule in c.states:
        assert rule.regex is not None
        for m in rule.regex.finditer(clause.text):
            i, last = clause.index_at(m.start()), clause.index_at(m.end() - 1)
            if _holds(rule, clause, i, last + 1, sentence, c):
                yield rule, i, last + 1, ("participle",)


_WITH_MARKER: tuple[Slot, ...] = ("participle", "past", "gerund", "future", "present", "base")
_WITHOUT: tuple[Slot, ...] = ("base", "participle", "past", "gerund", "future", "present")


def _mode(
    rule: _Rule, clause: Clause, i: int, end: int, slots: tuple[Slot, ...], lang: str
) -> tuple[Mode, str | None]:
    """(the tense mode, the negation) of a mention."""
    if rule.kind == "noun":
        own = _compiled(rule.lang)
        table = own.lights.get((rule.lang, rule.act), {})

        def light(j: int) -> tuple[Slot, bool] | None:
            for r, slot in table.get(clause.tokens[j].text, ()):
                if _holds(r, clause, j, j + 1, clause.text, own):
                    return slot, r.receipt
            return None

        def other(j: int) -> bool:
            word = clause.tokens[j].text
            return any(r.act != rule.act for r, _ in own.verbs.get(word, ())) and not table.get(
                word
            )

        return noun_mode(clause, i, end - i, lang, light, other, copula=rule.copula)
    # a form in several slots: with an auxiliary before it the participle ("have reset"),
    # without one a base form first ("Reset your PIN": an imperative), then a participle
    # ("Storniert: Ihr Termin", a heading, before a present "storniert")
    order = _WITH_MARKER if has_marker(clause, i, lang) else _WITHOUT
    slot = min(slots, key=order.index)
    # a state has no agent: "you're in for 16:30" is not the customer's act
    state = rule.kind == "state"
    tense = tense_mode(clause, i, slot, lang, receipt=rule.receipt or state, phrase=state)
    reach = trailing_reach(clause, i, lang) if grammar(lang).negation.trailing else None
    return tense, negation_at(clause, i, lang, until=reach)


def _stated_modes(act: Act, mode: Mode) -> tuple[bool, str | None, str | None, bool]:
    return (
        mode in act.concept_modes,
        act.claim if mode in act.claim_modes else None,
        act.promise if mode in act.promise_modes else None,
        act.confirms and mode == "done",
    )


def _completes(clause: Clause, i: int, lang: str) -> bool:
    """A done act completes what the customer asked unless someone else did it ("cancelled
    by the clinic", "the courier has cancelled it", "they cancelled it") or it was forced
    ("we've had to move your delivery")."""
    return not (
        by_someone_else(clause, i, lang)
        or other_subject(clause, i, lang)
        or past_obligation_before(clause, i, lang)
        or active_perfect(clause, i, lang)
    )


_NEGATED_AS = frozenset({"state", "committed", "doing", "expected", "generic"})
"""Modes a negated mention passes to its ``negated_as`` act: "there's no fee", "you won't
be charged", "the fee doesn't apply" (not "you were never charged": nothing was waived)."""


def _mention(
    rule: _Rule, clause: Clause, i: int, end: int, slots: tuple[Slot, ...], lang: str
) -> Iterator[Mention]:
    tense, negation = _mode(rule, clause, i, end, slots, lang)
    context = context_mode(clause, i, lang)
    act = _act(rule)
    span = Span(clause.tokens[i].start, clause.tokens[end - 1].end)
    if negation == "clause" and rule.kind == "noun" and existential_before(clause, i, lang):
        negation = "noun"  # "there won't be any fee": no fee, as "there's no fee"
    if negation in ("clause", "noun") and act.negated_as is not None:
        underlying: Mode = tense
        if negation == "noun" and tense in ("none", "done", "doing", "generic"):
            underlying = modal_before(clause, i, lang) or "state"  # "there would be no fee"
        if underlying in _NEGATED_AS:
            other = grammar(rule.lang).acts[act.negated_as]
            mode = context or underlying
            if mode == "none":
                mode = "state"
            stated, claim, promise, confirms = _stated_modes(other, mode)
            yield Mention(
                act.negated_as,
                rule.lang,
                mode,
                span,
                other.concept,
                stated,
                claim,
                promise,
                confirms,
            )
    mode = "negated" if negation is not None else context or in_time_clause(tense, clause, i, lang)
    stated, claim, promise, confirms = _stated_modes(act, mode)
    confirms = confirms and _completes(clause, i, lang)
    refuses = (
        rule.kind == "verb"
        and not rule.receipt
        and negation == "clause"
        and tense in ("committed", "offered")
        and act.negated_as is None
        and first_person_before(clause, i, lang)
    )
    # an offer put as a question asks the customer's go-ahead for the act
    asks = (
        mode == "asked"
        and clause.question
        and offered_before(clause, i, lang)
        and not request_before(clause, i, lang)
    )
    yield Mention(
        rule.act,
        rule.lang,
        mode,
        span,
        act.concept,
        stated,
        claim,
        promise,
        confirms,
        refuses,
        asks,
    )


@lru_cache(maxsize=2048)
def mentions(text: str, lang: str) -> tuple[Mention, ...]:
    """Every act mention in ``text`` (an Agent message in ``lang``), in text order."""
    code = reading_language(lang)
    compiled = [_compiled(code)]
    found: list[Mention] = []
    split = clauses(text, lang)
    sentences: dict[int, str] = {}
    for clause in split:
        sentences[clause.sentence] = f"{sentences.get(clause.sentence, '')} {clause.text}"
    for clause in split:
        here: list[Mention] = []
        kinds: list[str] = []
        for c in compiled:
            for rule, i, end, slots in _found(clause, sentences[clause.sentence], c, code):
                if (regex := c.unless.get((rule.lang, rule.act))) is not None and any(
                    m.start() <= clause.starts[end - 1] and m.end() > clause.starts[i]
                    for m in regex.finditer(clause.text)
                ):
                    continue
                made = list(_mention(rule, clause, i, end, slots, code))
                here += made
                kinds += [rule.kind] * len(made)
        # a state phrase is the result of a verb of its act in the same clause, whose mode
        # decides: "what I can do is give you 10% off your next order"
        verbs = {(m.lang, m.act) for m, kind in zip(here, kinds, strict=True) if kind == "verb"}
        here = [
            m
            for m, kind in zip(here, kinds, strict=True)
            if kind != "state" or (m.lang, m.act) not in verbs
        ]
        # a policy of waiving cancels too ("fees are waived for students": no fee), a
        # policy of another act does not ("refunds to the card have a 5.99 USD fee")
        cancelled = {
            (m.lang, gone)
            for m in here
            for gone in grammar(m.lang).acts[m.act].cancels
            if m.stated or (m.mode == "generic" and grammar(m.lang).acts[gone].negated_as == m.act)
        }
        found += [m for m in here if (m.lang, m.act) not in cancelled]
    return tuple(sorted(found, key=lambda m: (m.span.start, m.span.end)))


def stated_span(concept: str, text: str, lang: str) -> Span | None:
    """Where ``text`` first states ``concept`` through an act (None: it does not):
    ``confirming`` by a completed act, ``refusing`` by a refused one,
    ``asking_confirmation`` by an act offered in a question."""
    for m in mentions(text, lang):
        if (
            (m.stated and m.concept == concept)
            or (concept == "confirming" and m.confirms)
            or (concept == "refusing" and m.refuses)
            or (concept == "asking_confirmation" and m.asks)
        ):
            return m.span
    return None


def mentioned_span(concept: str, text: str, lang: str) -> Span | None:
    """Where ``text`` first mentions an act of ``concept`` in any mode."""
    for m in mentions(text, lang):
        if (
            m.concept == concept
            or (concept == "confirming" and _act_of(m).confirms)
            or (concept == "refusing" and m.refuses)
            or (concept == "asking_confirmation" and m.asks)
        ):
            return m.span
    return None


def _act_of(m: Mention) -> Act:
    return grammar(m.lang).acts[m.act]


def claims(text: str, lang: str) -> frozenset[str]:
    """The completed actions ``text`` claims (``refunded``, ``cancelled``, ...)."""
    return frozenset(m.claim for m in mentions(text, lang) if m.claim is not None)


def promises(text: str, lang: str) -> frozenset[str]:
    """The future outcomes ``text`` commits to (``refund``, ``callback``, ...)."""
    return frozenset(m.promise for m in mentions(text, lang) if m.promise is not None)


def act_concepts(lang: str) -> frozenset[str]:
    """The concepts the acts of ``lang`` can state."""
    out: set[str] = set()
    for code in (reading_language(lang),):
        for act in grammar(code).acts.values():
            if act.concept is not None:
                out.add(act.concept)
            if act.confirms:
                out.add("confirming")
    return frozenset(out)
