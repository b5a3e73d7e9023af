"""Facts in Customer messages: invented ones, and the known ones it gives (for the
over-sharing finding and the persona measures).

A Customer may state a value (an id, an amount, a date) only when it is one of its known
facts, is in the scenario's own text of the goal (its reason, opening and script lines,
what it accepts) or context, or the Agent said it earlier. Values are read with the
scorer's typed-fact readers (``scoring.text.facts``), so "W1234567", "#W1234567" and
"order W1234567" are one id, and 35, "$35" and "35.00 USD" one amount.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from supportsim.conversation import Message
from supportsim.scenario import Scenario
from supportsim.scoring.review._findings import Finding
from supportsim.scoring.review._markers import folded, mentions
from supportsim.scoring.text._span import Span
from supportsim.scoring.text.facts._read import TOLERANCE, StatedValue, stated_values

_KINDS = ("id", "money", "date")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_ALNUM = re.compile(r"[^a-z0-9]")
_WORDY_PREFIX = re.compile(r"^[a-z]{2,}-(?=.*\d)")
_SLASHED = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b")
_NUMBERED = re.compile(
    r"\b(?:pin(?: code| number)?|passcode|security code|geheimzahl|code|"
    r"(?:order|account|customer|member|kunden|bestell|konto)\s*(?:number|no\.?|nummer|#)|"
    r"kundennummer|bestellnummer|kontonummer|numero de (?:cliente|pedido|commande|client))"
    r"\s*(?:is|lautet|ist|es|est|:)?\s*#?(\d{4,12})\b",
    re.IGNORECASE,
)
"""Bare digits named by the words before them ("my PIN is 1234", "order number 55512",
"meine PIN lautet 2477"): an id the typed readers leave alone."""
_TOKEN = re.compile(r"[\w#-]+")


def _alnum(text: str) -> str:
    return _ALNUM.sub("", folded(text))


def values_in(text: str, lang: str) -> list[StatedValue]:
    """The ids, amounts and dates ``text`` states; an id read over a date or an amount
    ("on 2026-03-02") is the date, not an id."""
    found = [v for kind in _KINDS for v in stated_values(kind, text, lang)]  # type: ignore[arg-type]
    typed = [v.span for v in found if v.kind != "id"]
    out = [
        v
        for v in found
        if v.kind != "id" or not any(s.start < v.span.end and v.span.start < s.end for s in typed)
    ]
    spans = [v.span for v in out]
    for m in _NUMBERED.finditer(text):
        span = Span(m.start(1), m.end(1))
        if not any(s.start < span.end and span.start < s.end for s in spans):
            out.append(StatedValue("id", m.group(1), span))
    return out


def _readings(said: str) -> set[str]:
    """Both readings of a day-first or month-first date ("09/03/1994": 1994-03-09 and
    1994-09-03), as "YYYY-MM-DD"; empty for any other form."""
    m = _SLASHED.search(said)
    if m is None:
        return set()
    a, b, year = int(m.group(1)), int(m.group(2)), m.group(3)
    return {f"{year}-{mo:02d}-{d:02d}" for mo, d in ((a, b), (b, a)) if mo <= 12 and d <= 31}


@dataclass(slots=True)
class Known:
    """What the Customer may state: the alphanumeric text of everything known (ids are
    looked up in it), the numbers in it (amounts) and the dates read from it."""

    tokens: set[str] = field(default_factory=set)
    numbers: tuple[float, ...] = ()
    dates: tuple[str, ...] = ()

    def add(self, text: str, lang: str) -> None:
        words = [_alnum(w) for w in _TOKEN.findall(text)]
        self.tokens.update(w for w in words if w)
        # "C 1002" said for "C-1002": neighbouring words are one id too
        self.tokens.update(a + b for a, b in pairwise(words) if a and b)
        self.numbers += tuple(float(n.replace(",", ".")) for n in _NUMBER.findall(text))
        self.dates += tuple(str(v.value) for v in stated_values("date", text, lang))

    def has(self, value: StatedValue) -> bool:
        if value.kind == "id":
            raw = str(value.value)
            core = _WORDY_PREFIX.sub("", raw)  # "order-50387": the id is 50387
            if _alnum(raw) in self.tokens:
                return True
            # "order-50387", "co-80206": the id is the number (4 characters at least, so
            # "ch-2" never passes for a "2" said elsewhere)
            if core != raw and len(_alnum(core)) >= 4 and _alnum(core) in self.tokens:
                return True
            # "CO 80206" (a state and a zip): known when each part with a digit is
            parts = [_alnum(w) for w in _TOKEN.findall(raw) if any(c.isdigit() for c in w)]
            return len(_TOKEN.findall(raw)) > 1 and bool(parts) and set(parts) <= self.tokens
        if value.kind == "money":
            return any(abs(float(value.value) - n) <= TOLERANCE for n in self.numbers)  # type: ignore[arg-type]
        return any(_same_date(str(v), d) for v in (value.value, *value.also) for d in self.dates)

    def has_said(self, value: StatedValue, said: str) -> bool:
        """``has``, with a date's other reading ("09/03/1994" either way round)."""
        return self.has(value) or (
            value.kind == "date"
            and any(_same_date(r, d) for r in _readings(said) for d in self.dates)
        )


def _same_date(a: str, b: str) -> bool:
    """ "2026-03-19" and "03-19" are the same day (a date said without its year)."""
    return a == b or (a[-5:] == b[-5:] and (len(a) == 5 or len(b) == 5))


def authored(scenario: Scenario) -> list[str]:
    """The scenario's own text of the Customer's side: what the author wrote for it."""
    goal = scenario.customer
    return [
        *(f"{k} {v}" for k, v in goal.known_facts.items()),
        goal.reason,
        goal.opening or "",
        *goal.script,
        goal.will_accept,
        goal.gives_up_when,
        *scenario.context.values(),
    ]


def _used_by(said: str, value: StatedValue, later: Sequence[Message]) -> set[str]:
    """The tools of later Agent calls whose arguments hold the value (as said, or read)."""
    forms = {_alnum(said), _alnum(str(value.value))} - {""}
    return {
        call.name
        for m in later
        if m.role == "agent"
        for call in m.tool_calls
        if any(f in _alnum(call.arguments) for f in forms)
    }


def invented_facts(
    scenario: Scenario,
    messages: Sequence[Message],
    *,
    lenient: bool,
    used: dict[int, set[str]] | None = None,
) -> list[Finding]:
    """The first statement of each value the Customer could not know. An id is critical
    (the Agent looks up the wrong record, or none); a date when it answers the Agent's
    question for a known fact that is a date, with no right date beside it (a wrong date
    of birth fails verification; an invented order date is no such harm); an amount never.
    Critical only when the Agent then used the value (a later tool call's arguments hold
    it); ``used`` is filled with message index -> the tools of those calls.
    ``lenient``: the persona is told to play wrong or guessed details (``lenient`` of
    ``_persona``): reported, never critical."""
    used = {} if used is None else used
    lang = scenario.language
    known = Known()
    for text in authored(scenario):
        known.add(text, lang)
    dated = [
        k for k, v in scenario.customer.known_facts.items() if stated_values("date", str(v), lang)
    ]
    out: list[Finding] = []
    last_agent = ""
    for i, m in enumerate(messages):
        if m.role == "agent" and m.content:
            known.add(m.content, lang)
            last_agent = m.content
        if m.role != "customer" or not m.content:
            continue
        values = values_in(m.content, lang)
        # the asked date given right beside it, the other date is an extra, not the answer
        answered = any(v.kind == "date" and known.has(v) for v in values)
        for value in values:
            said = m.content[value.span.start : value.span.end]
            if known.has_said(value, said):
                continue
            asked_date = (
                value.kind == "date"
                and not answered
                and any(_asked(last_agent, k, date=True) for k in dated)
            )
            tools = _used_by(said, value, messages[i + 1 :])
            critical = not lenient and bool(tools) and (value.kind == "id" or asked_date)
            if critical:
                used[i] = tools
            out.append(
                Finding(
                    "invented_fact",
                    i,
                    f"the customer states {value.kind} {said!r}, which is neither in its "
                    "known facts nor said by the agent",
                    critical,
                )
            )
            known.add(said, lang)  # reported once
        known.add(m.content, lang)  # its own words are known from now on
    return out


@dataclass(frozen=True, slots=True)
class Given:
    """A known fact the Customer stated: where, and whether the Agent had asked."""

    fact: str
    message_index: int
    asked: bool


def _fact_forms(value: object, lang: str) -> tuple[list[StatedValue], str | None]:
    text = str(value)
    typed = values_in(text, lang)
    token = text.strip() if " " not in text.strip() and len(text.strip()) >= 4 else None
    return typed, token


def _states(text: str, forms: tuple[list[StatedValue], str | None], lang: str) -> bool:
    typed, token = forms
    if token is not None and mentions(text, token):
        return True
    if not typed:
        return False
    here = Known()
    here.add(text, lang)
    here.dates = tuple(str(v.value) for v in stated_values("date", text, lang))
    return any(here.has(v) for v in typed)


_REQUEST = re.compile(
    r"\b(please|could you|can you|may i|tell me|give me|provide|confirm|bitte|wie lautet|"
    r"nennen sie|geben sie|por favor|cual es|indique|s'?il vous plait|quel(le)? est|"
    r"pourriez-vous)\b"
)
"""A request without a question mark ("Please give me your date of birth.")."""
_DATE_WORDS = (
    "date",
    "birth",
    "born",
    "dob",
    "geburtsdatum",
    "geboren",
    "fecha",
    "nacimiento",
    "naissance",
    "datum",
)


def _asked(agent_text: str, fact: str, *, date: bool = False) -> bool:
    """The Agent's message asks for the fact: a question or a request ("please give me",
    "wie lautet", "por favor") that names a word of its key ("order_id": "order" or
    "id"), or for a date fact a date word in any of the read languages."""
    if "?" not in agent_text and _REQUEST.search(folded(agent_text)) is None:
        return False
    words = [w for w in re.split(r"[_\W]+", fact.lower()) if len(w) >= 2]
    if date:
        words += _DATE_WORDS
    return any(mentions(agent_text, w) for w in words)


def facts_given(scenario: Scenario, messages: Sequence[Message]) -> list[Given]:
    """Each known fact the Customer stated, the first time, and whether the Agent's last
    message before it asked for it."""
    lang = scenario.language
    out: list[Given] = []
    for fact, value in scenario.customer.known_facts.items():
        forms = _fact_forms(value, lang)
        last_agent = ""
        for i, m in enumerate(messages):
            if m.role == "agent" and m.content:
                last_agent = m.content
            elif m.role == "customer" and m.content and _states(m.content, forms, lang):
                out.append(Given(fact, i, _asked(last_agent, fact)))
                break
    return out


def over_sharing(
    scenario: Scenario, messages: Sequence[Message], given: Iterable[Given], *, minimal: bool
) -> list[Finding]:
    """Known facts a ``volunteers: minimal`` Customer gave before being asked. Lines the
    scenario's author wrote (its opening and script) are the author's choice, never a
    finding. Never critical: it makes the Agent's job easier, not impossible."""
    if not minimal:
        return []
    lines = {
        folded(t).strip() for t in (scenario.customer.opening or "", *scenario.customer.script)
    }
    return [
        Finding(
            "over_sharing",
            g.message_index,
            f"the customer volunteered {g.fact!r} before the agent asked (persona: "
            "volunteers minimal)",
            False,
        )
        for g in given
        if not g.asked and folded(messages[g.message_index].content).strip() not in lines
    ]
