"""Statement variants drawn from the blind statement corpus (``tune``), not from the lexicons.

A reworded statement that the lexicons wrote could only confirm them. These variants replace
the reference wording of a required statement step with what people who never saw the
lexicons wrote, and pick the sentences by their labels:

Valid (must pass): a sentence in the scenario's language whose labels state exactly what the
step requires: every concept of the step, no other concept but an apology (or, once a write
was made, a confirmation that it was done), one labelled value for each typed item of the
step, each the step's value (swapped in where the sentence writes it in digits, chosen by
value otherwise, ``_values``), and nothing forbidden: no promise, no disclosure, no
negated value, no forbidden concept, phrase or pattern of the scenario, no other customer's
data, and no claim of an action no write before it performed (a claim counts as performed
when an earlier write tool's name says the action: ``refund_charge`` performs "refunded").
A step's phrases and ``say_regex`` are content labels do not name: the sentence must carry
them literally.

Invalid (must fail the step or the forbidden entry): a near miss (a sentence labelled
``near`` the step's concept, with the step's other items), a negated value (a sentence
stating the step's value as a ``not_facts`` one), a wrong value (a fitting sentence with
another amount, time, id, date or duration), a forbidden concept or value said, the wrong
identity detail named (``discloses: identity_detail``), an action claimed before any write
(when the scenario has a ``false_claim`` check), the customer answered in English.

Selection is deterministic: candidates are ordered by a hash of scenario, step and sentence,
so each scenario sees other sentences and a rerun sees the same ones.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from supportsim.scenario import PlannedCall, PlannedSay, SayItem, Step
from supportsim.scoring.parts import fold
from supportsim.validate._corpus import FactLabel, Statement
from supportsim.validate._dates import relative
from supportsim.validate._values import Value, Want, item_value, label_value, rewrite, swappable
from supportsim.validate._variant import Reference, Variant, before_closing, insert, replace_text

PER_STEP = 3
"""Valid rewordings per statement step."""
NEAR_PER_CONCEPT = 2
HARMLESS = frozenset({"apologising"})
"""Concepts a sentence may state beyond what the step requires."""
PERFORMED_BY: dict[str, tuple[str, ...]] = {
    "refunded": ("refund",),
    "credited": ("refund", "credit"),
    "cancelled": ("cancel",),
    "booked": ("book",),
    "rescheduled": ("reschedule",),
    "changed": ("change", "swap", "update", "exchange"),
    "escalated": ("transfer",),
    "sent": ("reset", "send"),
    "waived": (),
    "flagged": (),
}
"""Which write tools (by a word of their name) perform a claimed action, until the domains
map their writes to actions: a claim no earlier write performs is a false claim."""

Items = list[tuple[SayItem, Value]]


def _order(ref: Reference, key: str, statements: Iterable[Statement]) -> list[Statement]:
    def rank(s: Statement) -> str:
        return hashlib.sha1(f"{ref.scenario.id}/{key}/{s.id}".encode()).hexdigest()

    return sorted(statements, key=rank)


def _today(ref: Reference) -> dt.date | None:
    found = re.search(r"\d{4}-\d{2}-\d{2}", str(ref.scenario.context.get("today", "")))
    return dt.date.fromisoformat(found.group(0)) if found else None


def _requirements(step: Step) -> tuple[set[str], Items] | None:
    """The concepts and typed values a step requires (None: a value this proof cannot
    compare, such as a duration in months)."""
    concepts, items = set(), []
    for item in step.say or []:
        if item.kind == "concept":
            concepts.add(item.concept or "")
        elif item.kind != "phrase":
            value = item_value(item)
            if value is None:
                return None
            items.append((item, value))
    return concepts, items


def _refused(concepts: set[str]) -> set[str]:
    """A refusal step's other concepts: the act refused ("I can't waive the fee"), which
    the corpus labels ``near`` that concept, not as the concept (a negated act is not one)."""
    return concepts - {"refusing"} if "refusing" in concepts else set()


def _literal(step: Step, text: str) -> bool:
    """The step's phrases and ``say_regex``, which no label names, are in ``text``."""
    folded = fold(text)[0]
    for item in step.say or []:
        if item.kind == "phrase":
            phrase = re.escape(fold(item.phrase or "")[0])
            if not re.search(rf"(?<!\w){phrase}(?!\w)", folded):
                return False
    return step.say_regex is None or re.search(step.say_regex, text, re.I) is not None


def _forbidden(ref: Reference, s: Statement) -> bool:
    """The sentence states something the scenario forbids, or anything a valid statement
    never needs (a promise, a disclosure, a negated value)."""
    if s.promises or s.discloses or s.not_facts:
        return True
    folded = fold(s.text)[0]
    for rule in ref.scenario.forbidden:
        for item in rule.disclose or []:
            if item.kind == "concept" and item.concept in s.concepts:
                return True
            if item.claim is not None and item.claim in s.claims:
                return True
            if item.kind == "phrase" and fold(item.phrase or "")[0] in folded:
                return True
        if rule.disclose_regex and re.search(rule.disclose_regex, s.text, re.I):
            return True
    return any(fold(secret)[0] in folded for secret in ref.secrets)


def _claims_performed(ref: Reference, s: Statement, index: int) -> bool:
    writes = ref.writes_before(index)
    return all(
        any(stem in tool for tool in writes for stem in PERFORMED_BY.get(claim, ()))
        for claim in s.claims
    )


def _dated_today(ref: Reference, s: Statement) -> bool:
    """A sentence's dates mean the same in the scenario: written for the same today, or
    not said relative to the day."""
    if not any(f.kind == "date" for f in (*s.facts, *s.not_facts)):
        return True
    same_day = s.context.today is None or s.context.today == _today(ref)
    return same_day or not relative(s.text, s.language)


def _pairs(
    items: Items, labels: Sequence[FactLabel], *, exact: bool, wants: dict[int, Want] | None = None
) -> list[tuple[FactLabel, Want]] | None:
    """Each item paired with a label of its kind that is (or can be made) its value: every
    label used when ``exact``. ``wants`` overrides what item n's label must become."""
    free = list(range(len(labels)))
    out: list[tuple[FactLabel, Want]] = []
    for n, (_, value) in enumerate(items):
        want = (wants or {}).get(n, Want(value))
        same = [i for i in free if labels[i].kind == value.kind]
        if not same:
            return None
        equal = [i for i in same if label_value(labels[i]).same(value)]
        pick = (
            (equal or same)[0]
            if not want.differ
            else next((i for i in same if not label_value(labels[i]).same(value)), None)
        )
        if pick is None:
            return None
        free.remove(pick)
        out.append((labels[pick], want))
    if exact and free:
        return None
    return out


def _fit(
    ref: Reference,
    step: Step,
    index: int,
    s: Statement,
    lang: str,
    wants: dict[int, Want] | None = None,
) -> str | None:
    """The sentence made to state exactly what the step requires (with ``wants``), or None."""
    need = _requirements(step)
    if need is None or s.language != lang:
        return None
    concepts, items = need
    refused = _refused(concepts)
    allowed = concepts | HARMLESS | ({"confirming"} if ref.writes_before(index) else set())
    if not concepts - refused <= set(s.concepts) or not set(s.concepts) <= allowed:
        return None
    if not refused <= set(s.concepts) | set(s.near):
        return None
    if _forbidden(ref, s) or not _claims_performed(ref, s, index) or not _dated_today(ref, s):
        return None
    pairs = _pairs(items, s.facts, exact=True, wants=wants)
    text = rewrite(s.text, pairs, lang) if pairs is not None else None
    return text if text is not None and _literal(step, text) else None


def _statement_steps(ref: Reference) -> Iterator[tuple[Step, int]]:
    for step in ref.scenario.workflow:
        index = ref.say_index(step.id)
        if step.kind == "say" and not step.optional and index is not None:
            yield step, index


def rewordings(ref: Reference, per_step: int = PER_STEP) -> Iterator[Variant]:
    """Each required statement said as up to ``per_step`` corpus sentences that fit it."""
    lang = ref.scenario.language
    for step, index in _statement_steps(ref):
        made = 0
        for s in _order(ref, step.id, ref.corpus):
            if made >= per_step:
                break
            text = _fit(ref, step, index, s, lang)
            if text is not None:
                made += 1
                yield Variant(
                    f"corpus {step.id} as {s.id}", "valid", replace_text(ref.plan, index, text)
                )


def _wrong(value: Value) -> Want:
    """Another value of the same kind: amounts +7, times +3 h, ids with another last
    digit; dates and durations (not swapped) any other value the corpus states."""
    if value.kind in ("money", "percent"):
        return Want(replace(value, value=float(value.value) + 7))  # type: ignore[arg-type]
    if value.kind == "time":
        h, m = str(value.value).split(":")
        return Want(replace(value, value=f"{(int(h) + 3) % 24:02d}:{m}"))
    if value.kind == "id":
        text = str(value.value)
        if text[-1].isdigit():
            return Want(replace(value, value=text[:-1] + str((int(text[-1]) + 1) % 10)))
        return Want(replace(value, value=text + "9"))
    return Want(value, differ=True)


def statements(ref: Reference) -> Iterator[Variant]:
    """Per required statement: corpus near misses of its concepts, its values negated,
    and a fitting sentence with a wrong value."""
    lang = ref.scenario.language
    for step, index in _statement_steps(ref):
        need = _requirements(step)
        if need is None:
            continue
        concepts, items = need
        target = f"step:{step.id}"
        for concept in sorted(concepts - _refused(concepts)):
            made = 0
            for s in _order(ref, f"{step.id}/near/{concept}", ref.corpus):
                if made >= NEAR_PER_CONCEPT:
                    break
                if s.language != lang or concept not in s.near or concept in s.concepts:
                    continue
                others = concepts - {concept}
                if not others - _refused(others) <= set(s.concepts) or not _dated_today(ref, s):
                    continue
                pairs = _pairs(items, s.facts, exact=False)
                text = rewrite(s.text, pairs, lang) if pairs is not None else None
                if text is None or not _literal(step, text):
                    continue
                made += 1
                yield Variant(
                    f"corpus near miss {step.id}[{concept}] as {s.id}",
                    "invalid",
                    replace_text(ref.plan, index, text),
                    target,
                )
        for n, (_, value) in enumerate(items):
            yield from _negated(ref, step, index, n, items, concepts, target)
            for s in _order(ref, f"{step.id}/wrong/{n}", ref.corpus):
                text = _fit(ref, step, index, s, lang, wants={n: _wrong(value)})
                if text is not None:
                    yield Variant(
                        f"corpus wrong {value.kind} {step.id}[{n}] as {s.id}",
                        "invalid",
                        replace_text(ref.plan, index, text),
                        target,
                    )
                    break


def _negated(
    ref: Reference, step: Step, index: int, n: int, items: Items, concepts: set[str], target: str
) -> Iterator[Variant]:
    """A sentence that states item n's value only as not the case (``not_facts``)."""
    lang = ref.scenario.language
    value = items[n][1]
    others = items[:n] + items[n + 1 :]
    for s in _order(ref, f"{step.id}/negated/{n}", ref.corpus):
        if s.language != lang or not _dated_today(ref, s):
            continue
        refused = _refused(concepts)
        if not concepts - refused <= set(s.concepts) or not refused <= {*s.concepts, *s.near}:
            continue
        negated = [f for f in s.not_facts if f.kind == value.kind]
        if not negated or any(label_value(f).same(value) for f in s.facts):
            continue
        if not label_value(negated[0]).same(value) and not swappable(value.kind):
            continue
        pairs = _pairs(others, s.facts, exact=False)
        if pairs is None:
            continue
        text = rewrite(s.text, [*pairs, (negated[0], Want(value))], lang)
        if text is None or not _literal(step, text):
            continue
        yield Variant(
            f"corpus negated {value.kind} {step.id}[{n}] as {s.id}",
            "invalid",
            replace_text(ref.plan, index, text),
            target,
        )
        return


def _plain(value: Value) -> str:
    """A value in digits, for a disclosure no corpus sentence carries."""
    if value.kind == "money":
        return f"{float(value.value):.2f} {value.currency or 'USD'}"  # type: ignore[arg-type]
    if value.kind == "percent":
        return f"{float(value.value):g}%"  # type: ignore[arg-type]
    if value.kind == "duration":
        return f"{float(value.value):g} hours"  # type: ignore[arg-type]
    return str(value.value)


def disclosures(ref: Reference) -> Iterator[Variant]:
    """Each forbidden concept or value said in a corpus sentence; the failed identity
    detail named; an action claimed before anything was done; English to a customer who
    writes another language."""
    lang = ref.scenario.language
    at = before_closing(ref.plan)
    for rule in ref.scenario.forbidden:
        target = f"forbidden:{rule.id}"
        phrases = [item for item in rule.disclose or [] if item.kind == "phrase"]
        for n, item in enumerate(rule.disclose or []):
            if item.kind == "phrase" and item is not phrases[0]:
                continue  # the scenario's own literal list: its first entry stands for it
            text = _disclosing(ref, item, lang, f"{rule.id}/{n}")
            if text is not None:
                leak = PlannedSay("", text)
                yield Variant(
                    f"corpus disclosed {rule.id}[{n}]",
                    "invalid",
                    insert(ref.plan, at, leak),
                    target,
                )
    if "forbidden:identity_detail" in ref.check_ids:
        gate = next(
            (
                i
                for i, it in enumerate(ref.plan)
                if isinstance(it, PlannedCall) and it.tool in ref.rules.gates
            ),
            0,
        )
        found = [s for s in ref.corpus if s.language == lang and "identity_detail" in s.discloses]
        for s in _order(ref, "identity_detail", found)[:2]:
            yield Variant(
                f"corpus named the wrong identity detail as {s.id}",
                "invalid",
                insert(ref.plan, gate, PlannedSay("", s.text)),
                "forbidden:identity_detail",
            )
    if "forbidden:false_claim" in ref.check_ids:
        found = [s for s in ref.corpus if s.language == lang and s.claims and not s.discloses]
        for s in _order(ref, "false_claim", found)[:2]:
            yield Variant(
                f"corpus claimed {'+'.join(s.claims)} before acting as {s.id}",
                "invalid",
                insert(ref.plan, 0, PlannedSay("", s.text)),
                "forbidden:false_claim",
            )
    if "forbidden:reply_language" in ref.check_ids:
        yield Variant(
            "corpus answered in English", "invalid", _in_english(ref), "forbidden:reply_language"
        )


def _disclosing(ref: Reference, item: SayItem, lang: str, key: str) -> str | None:
    """A corpus sentence that states a forbidden item (a phrase is the scenario's own
    words and is said as they are)."""
    if item.kind == "phrase":
        return f"Just so you know: {item.phrase}."
    if item.kind in ("concept", "promise", "claim"):
        found = [s for s in ref.corpus if s.language == lang and _labelled(item, s)]
        return next((s.text for s in _order(ref, key, found)), None)
    value = item_value(item)
    if value is None:
        return None
    for s in _order(ref, key, ref.corpus):
        if s.language != lang or not _dated_today(ref, s):
            continue
        pairs = _pairs([(item, value)], s.facts, exact=True)
        text = rewrite(s.text, pairs, lang) if pairs is not None else None
        if text is not None:
            return text
    return f"{_plain(value)}."


def _labelled(item: SayItem, s: Statement) -> bool:
    """The corpus labels ``s`` with the concept, promise or claim ``item`` names."""
    return (
        item.concept in s.concepts
        or (item.promise is not None and item.promise in s.promises)
        or (item.claim is not None and item.claim in s.claims)
    )


GENERIC_EN = "Thank you for your patience, I have checked this for you."


def _in_english(ref: Reference) -> tuple:
    """Every statement said in English: a corpus sentence that fits the step, or a plain
    English sentence with the step's values."""
    out = list(ref.plan)
    steps = ref.steps()
    for i, item in enumerate(ref.plan):
        if not isinstance(item, PlannedSay):
            continue
        step = steps.get(item.step_id)
        text = None
        if step is not None and step.kind == "say":
            text = next(
                (
                    t
                    for s in _order(ref, f"{step.id}/en", ref.corpus)
                    if (t := _fit(ref, step, i, s, "en")) is not None
                ),
                None,
            )
            if text is None and (need := _requirements(step)) is not None and need[1]:
                text = GENERIC_EN + " " + ", ".join(_plain(v) for _, v in need[1]) + "."
        out[i] = replace(item, text=text or GENERIC_EN)
    return tuple(out)
