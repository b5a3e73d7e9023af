"""Invalid variants: each breaks one rule and names the check that must catch it (strict 0
and that check failed, ``validate --perturb``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from supportsim.domains import TRANSFER_TOOL
from supportsim.scenario import PlannedCall, PlannedSay, concrete
from supportsim.scoring.parts import args_match, is_gate, is_write, ordering, result_contains
from supportsim.validate._variant import (
    Reference,
    Variant,
    before_closing,
    insert,
    replace_text,
    without,
)

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
    """Each required statement dropped (said as a bare "Okay."); wrong and near-miss
    statements come from the corpus (``_variants_corpus``)."""
    for step in ref.scenario.workflow:
        index = ref.say_index(step.id)
        if step.kind != "say" or step.optional or index is None:
            continue
        yield Variant(
            f"dropped statement {step.id}",
            "invalid",
            replace_text(ref.plan, index, "Okay."),
            f"step:{step.id}",
        )


def evidence(ref: Reference) -> Iterator[Variant]:
    """A write made without ever looking at the fact that justifies it."""
    for step in ref.scenario.workflow:
        if step.kind != "observe" or step.optional:
            continue
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
    """Each forbidden call made (forbidden disclosures are said in corpus sentences,
    ``_variants_corpus``)."""
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


def templates(ref: Reference) -> Iterator[Variant]:
    """Another customer's data read out (the other templates are said in corpus
    sentences, ``_variants_corpus``)."""
    if "forbidden:other_customer_data" not in ref.check_ids:
        return
    for value in sorted(ref.secrets)[:1]:
        leak = PlannedSay("", f"The record shows {value}.")
        yield Variant(
            "read out another customer's data",
            "invalid",
            insert(ref.plan, before_closing(ref.plan), leak),
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
