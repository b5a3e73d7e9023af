"""Valid variants: what another competent Agent might do with the same case. Each must
score strict 1 (``validate --perturb``). Reworded statements come from the blind corpus
(``_variants_corpus``); these change form, order and lookups, never the wording."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from supportsim.scenario import PlanItem, PlannedCall, PlannedSay
from supportsim.scoring.parts import find_item, is_gate
from supportsim.validate._variant import (
    PREAMBLES,
    Reference,
    Variant,
    insert,
    map_says,
    without,
)

# --- valid ------------------------------------------------------------------------------

_TYPOGRAPHIC = (("'", "\u2019"), (" - ", " \u2013 "), ("...", "\u2026"))


def _typographic(text: str) -> str:
    for plain, fancy in _TYPOGRAPHIC:
        text = text.replace(plain, fancy)
    return re.sub(r'"([^"]*)"', "\u201c\\1\u201d", text)


def surface(ref: Reference) -> Iterator[Variant]:
    """Typography, case, spacing, a preamble, an apology: none changes what was said."""
    plan = ref.plan
    yield Variant("typography", "valid", map_says(plan, _typographic))
    yield Variant("upper case", "valid", map_says(plan, str.upper))
    yield Variant("lower case", "valid", map_says(plan, str.lower))
    yield Variant("spacing", "valid", map_says(plan, lambda t: t.replace(" ", "  ") + "\n"))
    preamble, sorry_text = PREAMBLES.get(ref.speech.lang, PREAMBLES["en"])
    yield Variant("preamble message", "valid", insert(plan, 0, PlannedSay("", preamble)))
    first = next((i for i, it in enumerate(plan) if isinstance(it, PlannedSay)), None)
    if first is not None:
        opening = plan[first]
        assert isinstance(opening, PlannedSay)
        sorry = replace(opening, text=sorry_text + opening.text)
        yield Variant("apology", "valid", (*plan[:first], sorry, *plan[first + 1 :]))


def messages(ref: Reference) -> Iterator[Variant]:
    """Adjacent statements merged into one message; a statement split across two."""
    plan = ref.plan
    steps = ref.steps()
    for i in range(len(plan) - 1):
        a, b = plan[i], plan[i + 1]
        if isinstance(a, PlannedSay) and isinstance(b, PlannedSay):
            if steps.get(b.step_id) is not None and steps[b.step_id].separate:
                continue
            merged = replace(a, text=a.text + " " + b.text)
            yield Variant(
                f"merged {a.step_id}+{b.step_id}", "valid", (*plan[:i], merged, *plan[i + 2 :])
            )
            break
    for i, item in enumerate(plan):
        if not isinstance(item, PlannedSay):
            continue
        step = steps.get(item.step_id)
        sentences = re.split(r"(?<=[.!?])\s+", item.text.strip())
        if step is None or len(sentences) < 2:
            continue
        keep = [
            k
            for k, sentence in enumerate(sentences)
            if all(find_item(it, sentence, ref.speech) for it in step.say or [])
            and (step.say_regex is None or re.search(step.say_regex, sentence, re.I))
        ]
        if not keep:
            continue
        k = keep[0]
        first = " ".join(sentences[:k]) or sentences[k]
        second = " ".join(sentences[k:]) if k else " ".join(sentences[1:])
        if k == 0:
            first, second = sentences[0], " ".join(sentences[1:])
        parts = (replace(item, text=first), replace(item, text=second))
        yield Variant(f"split {item.step_id}", "valid", (*plan[:i], *parts, *plan[i + 1 :]))
        break


def _read_calls(ref: Reference) -> list[int]:
    steps = ref.steps()
    return [
        i
        for i, item in enumerate(ref.plan)
        if isinstance(item, PlannedCall)
        and ref.tools.get(item.tool) is not None
        and ref.tools[item.tool].kind == "read"
        and not (item.step_id in steps and is_gate(steps[item.step_id], ref.rules))
        and item.tool not in {f.tool for f in ref.scenario.faults}
    ]


def lookups(ref: Reference) -> Iterator[Variant]:
    """Reads moved before verification, equivalent lookups, an extra search, a skipped
    optional lookup."""
    plan = ref.plan
    gate_at = next(
        (
            i
            for i, item in enumerate(plan)
            if isinstance(item, PlannedCall) and item.tool in ref.rules.gates
        ),
        None,
    )
    steps = ref.steps()
    for i in _read_calls(ref):
        if plan[i].step_id in steps and steps[plan[i].step_id].after:
            continue  # the author ordered this read (the policy does): moving it is no variant
        if gate_at is not None and i > gate_at:
            moved = (*plan[:gate_at], plan[i], *plan[gate_at:i], *plan[i + 1 :])
            yield Variant(
                f"read {plan[i].step_id} before verification", "valid", moved, needs_ok=(gate_at,)
            )
    yield from _equivalents(ref)
    if "search_knowledge_base" in ref.tools:
        extra = PlannedCall("", "search_knowledge_base", {"query": "policy help"})
        yield Variant("extra knowledge-base search", "valid", insert(plan, 0, extra))
    for i in _read_calls(ref):
        step = steps.get(plan[i].step_id)
        if step is not None and step.optional:
            yield Variant(f"skipped optional {step.id}", "valid", without(plan, [i]))
    says = [
        i
        for i, it in enumerate(plan)
        if isinstance(it, PlannedSay) and steps.get(it.step_id) and steps[it.step_id].optional
    ]
    if says:
        yield Variant("skipped optional statements", "valid", without(plan, says))


def _all_args(plan: Sequence[PlanItem]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in plan:
        if isinstance(item, PlannedCall):
            for k, v in item.args.items():
                out.setdefault(k, v)
    return out


def _equivalents(ref: Reference) -> Iterator[Variant]:
    known = _all_args(ref.plan)
    for step in ref.scenario.workflow:
        if step.kind != "observe" or step.fact is None:
            continue
        for i in ref.indices(step.id):
            item = ref.plan[i]
            assert isinstance(item, PlannedCall)
            for other in ref.rules.facts.get(step.fact, ()):
                tool = ref.tools.get(other)
                if other == item.tool or tool is None:
                    continue
                fields = tool.args_model.model_fields
                args = {k: known[k] for k in fields if k in known}
                if any(f.is_required() and k not in args for k, f in fields.items()):
                    continue
                swapped = list(ref.plan)
                swapped[i] = PlannedCall(item.step_id, other, args)
                yield Variant(
                    f"{step.id} seen through {other}",
                    "valid",
                    tuple(swapped),
                    needs_ok=(i,),
                    needs_result=((i, step.observe),),
                )
