"""What the rule path reads in one agent message: the concepts, typed facts, claims of
completed actions, promises and disclosures it states.

This is the reading every communication check rests on when no statement judge decides,
gathered in one function so the blind statement corpus can measure it as a whole
(``supportsim judge-eval``, ``validate/_evaluate.py``) with the same code the checks use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from supportsim.scenario import SayItem
from supportsim.scoring._say import Speech, states
from supportsim.scoring._templates import Secrets, disclosed_secret
from supportsim.scoring.text import _lexicon
from supportsim.scoring.text._acts import claims, promises
from supportsim.scoring.text._identity import named_detail
from supportsim.scoring.text._private import private_of_others, private_tokens
from supportsim.scoring.text.facts._read import Calendar, ReadFact, stated_facts


def statement_concepts() -> tuple[str, ...]:
    """The concepts a say step can name (``identity_detail_wrong`` is the disclosure's);
    read from the lexicons on first use, not when scoring is imported."""
    return tuple(c for c in _lexicon.CONCEPTS if c != "identity_detail_wrong")


@dataclass(frozen=True, slots=True)
class Reading:
    concepts: frozenset[str]
    facts: tuple[ReadFact, ...]
    claims: frozenset[str]
    promises: frozenset[str]
    discloses: frozenset[str]


def read_statement(
    text: str,
    lang: str,
    *,
    today: date | None = None,
    other_customer: Mapping[str, object] | None = None,
) -> Reading:
    """Everything the rule path reads as stated in ``text`` (an agent message in ``lang``).

    Concepts are read as a say step reads them (``_say.states``); claims are the acts
    stated as done or being done, promises the outcomes committed to (``_acts``).
    ``today`` places relative dates; ``other_customer`` is another customer's record whose
    values the message must not disclose.
    """
    calendar = Calendar(today) if today else None
    speech = Speech(lang, {}, calendar)
    concepts = frozenset(
        c for c in statement_concepts() if states(SayItem(concept=c), text, speech)
    )
    discloses = set()
    if named_detail(text, lang) is not None:
        discloses.add("identity_detail")
    if other_customer:
        record = {"other": [str(v) for v in other_customer.values()]}
        secrets = Secrets(private_of_others(record, (), ""), private_tokens(record, (), ""))
        if disclosed_secret(text, secrets, lang) is not None:
            discloses.add("other_customer")
    return Reading(
        concepts=concepts,
        facts=tuple(stated_facts(text, lang, calendar=calendar)),
        claims=claims(text, lang),
        promises=promises(text, lang),
        discloses=frozenset(discloses),
    )
