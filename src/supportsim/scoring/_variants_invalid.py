"""Invalid variants: each breaks one rule and names the check that must catch it (strict 0
and that check failed, ``validate --perturb``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from supportsim.domains import TRANSFER_TOOL
from supportsim.scenario import PlannedCall, PlannedSay, SayItem
from supportsim.scenario._plan import concrete
from supportsim.scoring._facts import Fact, renderings
from supportsim.scoring._lexicon import concept_terms
from supportsim.scoring._say import as_fact
from supportsim.scoring._templates import applicable, private_of_others, verified_owners
from supportsim.scoring._text import fold
from supportsim.scoring._variant import (
    Reference,
    Variant,
    before_closing,
    insert,
    replace_text,
    swap,
    without,
)
from supportsim.scoring._workflow import args_match, is_gate, is_write, ordering

# --- invalid ----------------------------------------------------------------------------


def _changed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 7
    text = str(value)
    if text and text[-1].isdigit():
        return text[:-1] + str((int(text[-1]) + 1) % 10)
    return text + "X"


def writes(ref: Reference) -> Iterator[Variant]:
    """Each required write dropped, given a wrong key argument, or moved before its gate."""
    deps = ordering(ref.scenario, ref.rules)
    steps = ref.steps()
    for step in ref.scenario.workflow:
        if step.optional or not is_write(step, ref.rules):
            continue
        at = ref.indices(step.id)
        if not at:
            continue
        target = f"step:{step.id}"
        yield Variant(f"dropped write {step.id}", "invalid", without(ref.plan, at), target)
        keys = [(n, v) for n, m in step.args.items() for ok, v in [concrete(m)] if ok]
        for name, value in keys[-2:]:  # the most specific arguments come last
            if step.args[name].matches(_changed(value)):
                continue
            item = ref.plan[at[-1]]
            assert isinstance(item, PlannedCall)
            wrong = list(ref.plan)
            wrong[at[-1]] = replace(item, args={**item.args, name: _changed(value)})
            yield Variant(f"wrong {name} in {step.id}", "invalid", tuple(wrong), target)
        gates = [
            d.step
            for d in deps[step.id]
            if is_gate(steps[d.step], ref.rules) and not steps[d.step].optional
        ]
        gate_at = [i for g in gates for i in ref.indices(g)]
        if gate_at and min(gate_at) < at[0]:
            g = min(gate_at)
            moved = without(ref.plan, at)
            moved = (*moved[:g], *(ref.plan[i] for i in at), *moved[g:])
            yield Variant(f"write {step.id} before its gate", "invalid", moved, target)


def statements(ref: Reference) -> Iterator[Variant]:
    """Each required statement dropped, or stating a different value."""
    for step in ref.scenario.workflow:
        index = ref.say_index(step.id)
        if step.kind != "say" or step.optional or index is None:
            continue
        target = f"step:{step.id}"
        yield Variant(
            f"dropped statement {step.id}",
            "invalid",
            replace_text(ref.plan, index, "Okay."),
            target,
        )
        text = ref.plan[index].text  # type: ignore[union-attr]
        for n, item in enumerate(step.say or []):
            fact = as_fact(item)
            if fact is None or fact.kind == "id":
                continue
            wrong = _wrong_fact(fact)
            rendered = renderings(wrong, ref.speech.lang)[0]
            new = swap(text, item, rendered, ref.speech, every=True)
            if new is not None:
                yield Variant(
                    f"wrong {fact.kind} in {step.id}[{n}]",
                    "invalid",
                    replace_text(ref.plan, index, new),
                    target,
                )


def _wrong_fact(fact: Fact) -> Fact:
    if fact.kind == "time":
        h, m = str(fact.value).split(":")
        return replace(fact, value=f"{(int(h) + 3) % 24:02d}:{m}")
    if fact.kind == "date":
        y, mo, d = str(fact.value).split("-")
        return replace(
            fact, value=f"{y}-{mo}-{(int(d) % 27) + 1:02d}" if int(d) != 27 else f"{y}-{mo}-03"
        )
    return replace(fact, value=float(fact.value) + 7)


def evidence(ref: Reference) -> Iterator[Variant]:
    """A write made without ever looking at the fact that justifies it."""
    for step in ref.scenario.workflow:
        if step.kind != "observe" or step.optional:
            continue
        from supportsim.scoring._evidence import result_contains

        showing = [
            i
            for i, item in enumerate(ref.plan)
            if isinstance(item, PlannedCall)
            and i in ref.results
            and ref.tools.get(item.tool) is not None
            and ref.tools[item.tool].kind == "read"
            and result_contains(ref.results[i], step.observe)
        ]
        if showing:
            yield Variant(
                f"never looked at {step.id}",
                "invalid",
                without(ref.plan, showing),
                f"observed:{step.id}",
            )


def forbidden(ref: Reference) -> Iterator[Variant]:
    """Each forbidden call made and each forbidden disclosure said."""
    at = before_closing(ref.plan)
    for rule in ref.scenario.forbidden:
        target = f"forbidden:{rule.id}"
        if rule.tool is not None:
            base = next(
                (
                    it.args
                    for it in ref.plan
                    if isinstance(it, PlannedCall) and it.tool == rule.tool
                ),
                {},
            )
            args = dict(base)
            for name, matcher in rule.args.items():
                ok, value = concrete(matcher)
                if ok:
                    args[name] = value
            if not args_match(rule.args, args):
                continue  # no concrete arguments the rule forbids (a regex matcher)
            call = PlannedCall("", rule.tool, args)
            needs = (at,) if rule.when == "succeeded" else ()
            yield Variant(
                f"forbidden call {rule.id}",
                "invalid",
                insert(ref.plan, at, call),
                target,
                needs_ok=needs,
            )
        for item in rule.disclose or []:
            text = _say_item(item, ref.speech.lang)
            if text:
                leak = PlannedSay("", f"Just so you know: {text}.")
                yield Variant(f"disclosed {rule.id}", "invalid", insert(ref.plan, at, leak), target)
                break


def _say_item(item: SayItem, lang: str) -> str | None:
    if item.kind == "phrase":
        return item.phrase
    if item.kind == "concept":
        terms = concept_terms(item.concept or "", lang)
        return terms[0] if terms else None
    fact = as_fact(item)
    return renderings(fact, lang)[0] if fact else None


def templates(ref: Reference) -> Iterator[Variant]:
    """The failed identity detail named; another customer's data read out; the customer
    answered in English."""
    at = before_closing(ref.plan)
    which = applicable(ref.scenario, ref.domain, ref.tools)
    if "reply_language" in which:
        yield Variant(
            "answered in English",
            "invalid",
            tuple(
                replace(item, text=_in_english(ref, item.step_id))
                if isinstance(item, PlannedSay)
                else item
                for item in ref.plan
            ),
            "forbidden:reply_language",
        )
    if "identity_detail" in which:
        # said while the caller is not verified yet: once verified, no detail was wrong
        unverified = next(
            (
                i
                for i, item in enumerate(ref.plan)
                if isinstance(item, PlannedCall) and item.tool in ref.rules.gates
            ),
            0,
        )
        for text in concept_terms("identity_detail_wrong", ref.speech.lang)[:1]:
            leak = PlannedSay("", f"{text[0].upper()}{text[1:]}.")
            yield Variant(
                "named the wrong identity detail",
                "invalid",
                insert(ref.plan, unverified, leak),
                "forbidden:identity_detail",
            )
    if "other_customer_data" in which and ref.domain.private_values is not None:
        initial = ref.domain.initial_state(ref.scenario.state).model_dump(mode="json")
        heard = " ".join(m.content for m in ref.transcript.messages if m.role == "customer")
        context = "\n".join(ref.scenario.context.values())
        secrets = private_of_others(
            ref.domain.private_values(initial),
            verified_owners(ref.transcript, ref.domain),
            fold(heard + "\n" + context)[0],
        )
        for value in sorted(secrets)[:1]:
            leak = PlannedSay("", f"The record shows {value}.")
            yield Variant(
                "read out another customer's data",
                "invalid",
                insert(ref.plan, at, leak),
                "forbidden:other_customer_data",
            )


def escalation(ref: Reference) -> Iterator[Variant]:
    """A transfer the case does not call for, or the transfer it does call for dropped."""
    if ref.scenario.outcome == "escalated":
        drop = [
            i
            for i, it in enumerate(ref.plan)
            if isinstance(it, PlannedCall) and it.tool == TRANSFER_TOOL
        ]
        if drop:
            yield Variant("dropped the transfer", "invalid", without(ref.plan, drop), "outcome")
    elif TRANSFER_TOOL in ref.tools:
        call = PlannedCall(
            "", TRANSFER_TOOL, {"reason": "customer asked for help", "summary": "see chat"}
        )
        yield Variant(
            "unnecessary transfer",
            "invalid",
            (*ref.plan, call),
            "outcome",
            needs_ok=(len(ref.plan),),
        )


def _in_english(ref: Reference, step_id: str) -> str:
    """What an Agent that ignores the customer's language says for a step: its items in
    English, wrapped in English sentences."""
    step = ref.steps().get(step_id)
    items = [t for it in (step.say or []) if step is not None for t in [_say_item(it, "en")] if t]
    said = ", ".join(items) if items else "I have checked this for you"
    return (
        f"Thank you for your patience. Here is what I can tell you: {said}. "
        "Please let me know if there is anything else that I can do for you."
    )
