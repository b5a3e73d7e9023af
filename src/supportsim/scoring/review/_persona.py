"""The Customer against its persona and goal: the language it writes in, what it accepts
that its goal rules out, and the deterministic measures of how it behaved.

Tone far from the persona needs a reader of meaning (the statement judge); the rules here
decide only what words decide.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from supportsim.conversation import Message, Transcript
from supportsim.scenario import Persona, Scenario
from supportsim.scoring.review._facts import Given, authored
from supportsim.scoring.review._findings import CustomerMeasures, Finding
from supportsim.scoring.review._markers import accepts, folded, mentions, refuses
from supportsim.scoring.text._language import answered_in_english

_WORD = re.compile(r"[^\W\d_]{4,}")


def persona_drift(scenario: Scenario, messages: Sequence[Message]) -> list[Finding]:
    """Customer messages in English in a conversation held in another language (the
    reply_language check's reader, ``answered_in_english``). Critical when an Agent reply
    after it is in English too: the Agent followed the Customer, and the language check it
    then fails is the Customer's doing. Reported once, at the first such message."""
    lang = scenario.language
    for i, m in enumerate(messages):
        if m.role != "customer" or not m.content:
            continue
        english, n_en, n_own = answered_in_english([m.content], lang)
        if not english:
            continue
        later = [x.content for x in messages[i + 1 :] if x.role == "agent" and x.content]
        before = [x.content for x in messages[:i] if x.role == "agent" and x.content]
        # the Agent went English first: the Customer followed it, not the other way round
        first = not any(answered_in_english([b], lang)[0] for b in before)
        followed = first and answered_in_english(later, lang)[0]
        detail = (
            f"the customer writes in English ({n_en} English function words, {n_own} of "
            f"{lang!r}) in a {lang!r} conversation"
            + ("; the agent followed it into English" if followed else "")
        )
        return [Finding("persona_drift", i, detail, followed)]
    return []


def goal_drift(scenario: Scenario, messages: Sequence[Message]) -> list[Finding]:
    """The Customer accepts what its goal refuses (``customer.refuses``, e.g. a store
    credit when it wants a refund): a message that names the refused thing and agrees, or
    agrees (with no refusal word) right after an Agent message that offers it. Critical:
    the Agent has been told the wrong outcome is fine."""
    refused = scenario.customer.refuses
    if not refused:
        return []
    lang = scenario.language
    offered: str | None = None
    for i, m in enumerate(messages):
        if not m.content:
            continue
        named = next((r for r in refused if mentions(m.content, r)), None)
        if m.role == "agent":
            offered = _only_offer(m.content, refused)
            continue
        if m.role != "customer":
            continue
        thing = named or offered
        if thing is not None and accepts(m.content, lang):
            detail = f"the customer accepts {thing!r}, which its goal rules out"
            return [Finding("goal_drift", i, detail, _done_after(thing, messages[i + 1 :]))]
        offered = None
    return []


_ALTERNATIVE = re.compile(r"\b(or|oder|ou|o|instead|alternatively|stattdessen|sinon)\b")


def _only_offer(text: str, refused: Sequence[str]) -> str | None:
    """The refused thing an Agent message offers with no alternative beside it."""
    named = next((r for r in refused if mentions(text, r)), None)
    return named if named is not None and _ALTERNATIVE.search(folded(text)) is None else None


def _done_after(thing: str, later: Sequence[Message]) -> bool:
    """The Agent then did the refused thing: a later tool call names it, or a later
    Agent message states it (not its own refusal)."""
    key = folded(thing).replace(" ", "_")
    for m in later:
        if m.role != "agent":
            continue
        if any(key in folded(c.name) or folded(thing) in folded(c.arguments) for c in m.tool_calls):
            return True
        if m.content and mentions(m.content, thing) and not refuses(m.content, "en"):
            return True
    return False


def _vocabulary(scenario: Scenario, messages: Sequence[Message]) -> set[str]:
    texts = [*authored(scenario), *(m.content for m in messages if m.role == "agent")]
    return {w for t in texts for w in _WORD.findall(folded(t))}


def _one_off(word: str, vocabulary: set[str]) -> bool:
    """``word`` (5 letters or more) is a typo of a word of ``vocabulary``: two neighbouring
    letters swapped or one letter changed. Letters dropped or added are left out: they
    are mostly inflections ("order", "orders"), not typos."""
    if len(word) < 5:
        return False
    letters = "abcdefghijklmnopqrstuvwxyz"
    swaps = (word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1))
    changes = (word[:i] + c + word[i + 1 :] for i in range(len(word)) for c in letters)
    return any(
        e != word and e in vocabulary and not _inflected(word, e) for e in (*swaps, *changes)
    )


def _inflected(a: str, b: str) -> bool:
    """``a`` and ``b`` differ only in an inflection ending ("charges", "charged")."""
    return a[:-1] == b[:-1] and {a[-1], b[-1]} <= set("sdrny")


def measures(
    scenario: Scenario,
    transcript: Transcript,
    given: Sequence[Given],
    invented: int,
) -> CustomerMeasures:
    """The persona measures of one conversation (``CustomerMeasures``)."""
    said = [m.content for m in transcript.messages if m.role == "customer" and m.content]
    words = [w for text in said for w in re.findall(r"\w+", text)]
    vocabulary = _vocabulary(scenario, transcript.messages)
    own = [w for text in said for w in _WORD.findall(folded(text))]
    typos = sum(w not in vocabulary and _one_off(w, vocabulary) for w in own)
    gave_up = transcript.termination == "customer_done" and transcript.end_reason == "gave_up"
    return CustomerMeasures(
        messages=len(said),
        words_per_message=round(len(words) / len(said), 2) if said else 0.0,
        facts_given=len(given),
        facts_volunteered=sum(not g.asked for g in given),
        turns_before_giving_up=len(said) if gave_up else None,
        typo_rate=round(typos / len(own), 4) if own else 0.0,
        contradictions=invented,
    )


_PLAYS_WRONG = frozenset({"wrong_info_first", "changes_mind", "social_engineering", "typos"})
"""Behaviours that tell the Customer to state values it does not know (a wrong detail
first, a changed story, a guessed PIN, a typo in an id)."""


def lenient(persona: Persona) -> bool:
    """The persona is told to state values it does not know (``_PLAYS_WRONG``, a
    dishonest ``honesty``, ``slips: typos``): a value it invents is its part, not an error
    (reported, never critical)."""
    return (
        persona.honesty != "honest"
        or persona.slips == "typos"
        or bool(_PLAYS_WRONG & set(persona.behaviours))
    )
