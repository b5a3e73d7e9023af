"""The statement judge's questions: one narrow question per communication check.

A communication check asks whether the Agent's messages state something (a ``say`` step's
items) or whether they state something they must not (a forbidden disclosure or promise,
the identity detail that was wrong, another customer's data, an answer in English, an
action claimed but not performed). Rules decide it by reading the text; a statement judge
is asked the same thing in words, built here from the transcript and the scenario (pure,
no model call):

- ``cite``: the policy or knowledge-base sentence the check enforces, as the Agent got it;
- ``claim``: what the judge decides, in words ("the agent told the customer that the fee
  is waived"), with the concepts' meanings spelled out (``CONCEPT_MEANINGS``) and the
  scenario's own phrasings as examples;
- ``messages``: the Agent messages it may be in (index, text): only those the check
  reads (an identity detail counts only while the caller is unverified).

``negative`` says how the answer decides the check: a ``say`` step passes on ``yes``, a
forbidden statement on ``no``. A question is None when there is nothing to ask (no Agent
message to read, a step that is only a regular expression): the rules decide those alone.

A check kind outside this module plugs in with a builder of the same shape (see
``_templates.py``: each library-wide template builds its ``Question`` next to its rule) and
``judged_check`` (``_statement_judge.py``) to let the verdict decide.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from supportsim.conversation import Transcript
from supportsim.scenario import Forbidden, SayItem, Step
from supportsim.scoring._say import NEGATIVE_CONCEPTS

QuestionKind = str
"""say, disclose, identity_detail, other_customer_data, reply_language, false_claim, or a
plug-in's own: agreement with the rules is reported per kind and language."""

CONCEPT_MEANINGS: Mapping[str, str] = {
    "refusing": "declined what the customer asked, or said the customer cannot have it or "
    "cannot have it done by them (for any reason; a refusal with a reason and an "
    "alternative is still one; not a mere 'unfortunately' with nothing declined)",
    "escalating": "handed the case or the customer to a human, supervisor, manager, "
    "specialist or another team (transfer, escalate, bring in, pass on), now or as a firm "
    "commitment (not an offer or question about it, not saying it is impossible)",
    "refunding": "said money is returned to the customer: a refund, reversal, money back, "
    "credited back to the payment method, reimbursed (done, under way or committed; not a "
    "goodwill credit, a refund policy explanation or 'non-refundable')",
    "cancelling": "said an order, appointment, booking, subscription, service or charge is "
    "or will be cancelled (not cancellation-fee policy talk, not 'you can cancel online')",
    "booking": "said a new appointment, slot or reservation is made for the customer "
    "(booked, scheduled, reserved; not 'that slot is taken', not a list of free slots)",
    "rescheduling": "said an existing appointment, delivery or booking is moved to another "
    "time or date",
    "confirming": "told the customer that the action they asked for has now been completed "
    "('done', 'all set', 'that has been processed', a report of the result; not 'let me "
    "confirm your details', not 'please confirm')",
    "apologising": "apologised or expressed regret to the customer",
    "asking_identity": "asked the customer for details to verify who they are (customer id, "
    "account e-mail, date of birth, PIN, ZIP code, last digits...)",
    "identity_mismatch": "told the customer that the verification details they gave do not "
    "match the records",
    "identity_detail_wrong": "revealed which verification detail was right or wrong (the "
    "date of birth does not match, the e-mail is fine but the PIN is off, the day and month "
    "may be swapped)",
    "sending": "said something is or will be sent to the customer (an e-mail, SMS, link, "
    "label, code, confirmation, replacement)",
    "waiving": "said a fee or charge is not charged or is waived for the customer (no cost, "
    "free of charge, no fee applies to you; not 'fees may apply')",
    "fee": "said a fee or charge applies or exists (a late fee, a cancellation fee, a "
    "restocking charge), including stating its amount",
    "in_store": "directed the customer to do something in person: at a store, branch, shop, "
    "counter or desk",
    "asking_confirmation": "asked the customer's go-ahead before acting ('shall I go ahead?', "
    "'do you want me to ...?')",
    "offering_goodwill": "offered, promised or applied a goodwill gesture: a courtesy "
    "credit, discount, voucher or compensation",
}
"""What stating each concept means, as the blind statement corpus labels it (its writers'
definitions), phrased to follow "the agent ...". The judge reads these, not the lexicons."""
PROMISE_MEANINGS: Mapping[str, str] = {
    "refund": "money returned to the customer (a refund, reversal, money back)",
    "credit": "a credit or goodwill credit added to the customer's account",
    "waive": "a fee or charge waived, removed or not charged for the customer",
    "callback": "a call back to the customer",
    "delivery": "a delivery on a given date or time",
    "replacement": "a replacement sent to the customer",
    "fix": "the customer's problem solved",
}
"""What each promise label of a ``disclose`` item promises, phrased to follow "an outcome:"."""
CLAIM_MEANINGS: Mapping[str, str] = {
    "refunded": "money has been returned to the customer",
    "credited": "an account or goodwill credit has been added",
    "waived": "a fee or charge has been waived or removed",
    "cancelled": "an order, appointment, booking, subscription or charge has been cancelled",
    "booked": "a new appointment or reservation has been made",
    "rescheduled": "an appointment, delivery or booking has been moved",
    "changed": "an account, order, plan, address or other detail has been updated",
    "escalated": "the case has been handed to a person or another team (or is being)",
    "flagged": "something has been noted, flagged, logged or marked on the file",
    "sent": "something has been sent to the customer",
}
"""What each claim label of a ``disclose`` item claims, phrased to follow "said that"."""
EXAMPLES = 8
"""Scenario phrasings of a concept shown as examples in a claim (the first ones)."""


@dataclass(frozen=True, slots=True)
class Question:
    """One check's question to the statement judge (see the module docstring)."""

    check_id: str
    kind: QuestionKind
    cite: str
    claim: str
    messages: tuple[tuple[int, str], ...]
    lang: str
    negative: bool
    """True: the check passes when the answer is ``no`` (a forbidden statement)."""
    system: str | None = None
    """The system prompt when not the statement judge's own (the customer review's judged
    findings ask about the Customer's messages); None keeps every existing prompt hash."""
    speaker: str = "agent"
    """Whose messages the block holds (``agent`` or ``customer``)."""


def _date_words(value: str) -> str:
    try:
        day = date.fromisoformat(value)
    except ValueError:
        return value
    return f"{value} ({day.strftime('%A')} {day.day} {day.strftime('%B %Y')})"


def item_words(item: SayItem, lexicon: Mapping[str, Sequence[str]] | None = None) -> str:
    """One say item in words, for a claim: a concept by its meaning (with the scenario's
    own phrasings as examples), a typed fact by its value in any written form."""
    kind = item.kind
    if kind == "concept":
        concept = item.concept or ""
        meaning = CONCEPT_MEANINGS.get(concept, f"stated the concept {concept!r}")
        examples = list((lexicon or {}).get(concept, ()))[:EXAMPLES]
        if examples:
            shown = "; ".join(repr(e) for e in examples)
            meaning += f" (this scenario also counts phrasings like: {shown})"
        return f"{meaning} [concept {concept}]"
    if kind == "promise":
        outcome = PROMISE_MEANINGS[str(item.promise)]
        return (
            f"promised or offered {outcome}, or said that someone else (a manager, a "
            "colleague, another team) will, would, can or may bring it about, or how the "
            f"customer can get it (not when saying it cannot happen) [promise {item.promise}]"
        )
    if kind == "claim":
        done = CLAIM_MEANINGS[str(item.claim)]
        return f"said that {done}, as already done or being done now [claim {item.claim}]"
    if kind == "phrase":
        return f"used the words {item.phrase!r} (any case, typography or spacing)"
    if kind == "money":
        currency = f" {item.currency}" if item.currency else ""
        return f"stated the amount {item.value:.2f}{currency} (in any written form)"
    if kind == "time":
        return f"stated the time of day {item.value} (24-hour clock; in any written form)"
    if kind == "date":
        return f"stated the date {_date_words(str(item.value))} (in any written form)"
    if kind == "duration":
        return f"stated a duration of {item.value:g} {item.unit} (or the same in other units)"
    if kind == "percent":
        return f"stated the percentage {item.value:g}%"
    return f"stated the identifier {item.value} (any case, separators optional)"


def _cite(cites: Sequence[str]) -> str:
    return " ".join(c.strip() for c in cites) or "(the scenario cites no sentence)"


def agent_messages(transcript: Transcript) -> tuple[tuple[int, str], ...]:
    """(message index, text) of every Agent message with text."""
    return tuple(transcript.agent_texts())


def say_question(
    step: Step, transcript: Transcript, lang: str, lexicon: Mapping[str, Sequence[str]]
) -> Question | None:
    """The question of a ``say`` step: does one Agent message state every item? None for
    a step with no items (a regular expression is a spelling, not a meaning: rules decide
    it) or when the Agent wrote nothing. With ``refusing`` among the items the other
    concepts are what is declined ("I can't waive the fee" states refusing and waiving),
    as the rules read them."""
    items = step.say or []
    messages = agent_messages(transcript)
    if not items or step.say_regex is not None or not messages:
        return None
    words = [item_words(it, lexicon) for it in items]
    refusal = any(it.concept in NEGATIVE_CONCEPTS for it in items)
    if len(words) == 1:
        claim = f"In one message, the agent {words[0]}."
    else:
        listed = "; ".join(f"({n}) {w}" for n, w in enumerate(words, 1))
        claim = f"In one and the same message, the agent did all of these: {listed}."
    if refusal and len(words) > 1:
        claim += (
            " The other items may be what the agent declines: a refusal of a waiver states "
            "both the refusal and the waiver."
        )
    return Question(
        f"step:{step.id}", "say", _cite(step.cites), claim, messages, lang, negative=False
    )


def disclosure_question(
    rule: Forbidden, transcript: Transcript, lang: str, lexicon: Mapping[str, Sequence[str]]
) -> Question | None:
    """The question of a forbidden disclosure or promise: does any Agent message state any
    of its items? None for a rule with no items (a regular expression only) or when the
    Agent wrote nothing. A negated mention ("no need to fast") is no disclosure."""
    items = rule.disclose or []
    messages = agent_messages(transcript)
    if not items or not messages:
        return None
    words = [item_words(it, lexicon) for it in items]
    if len(words) == 1:
        claim = f"In some message, the agent {words[0]}."
    else:
        listed = "; ".join(f"({n}) {w}" for n, w in enumerate(words, 1))
        claim = f"In some message, the agent did at least one of these: {listed}."
    if rule.reason:
        claim += f" (This is forbidden here because {rule.reason}.)"
    return Question(
        f"forbidden:{rule.id}", "disclose", _cite(rule.cites), claim, messages, lang, negative=True
    )
