"""Variations of a scenario's reference conversation, valid and invalid (``validate --perturb``).

A Variant is a changed plan for the oracle to replay. Valid variants are what another
competent Agent might do: other wordings (the lexicons' terms), other number, time and date
formats, typography and case, merged and split messages, reads moved before verification,
equivalent lookups from the domain's fact map, harmless extra messages and lookups. Invalid
variants each break one rule and name the check that must catch it: a write dropped or given
a wrong key argument or moved before its gate, a statement dropped or given a wrong value,
a forbidden call made, a forbidden disclosure, the failed identity detail named, another
customer's data read out, an escalation added or dropped, the evidence for a write never
looked at. Generators work from the reference run (its calls and results), so every variant
is concrete; one that cannot be realised is discarded by the runner, never counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from supportsim.conversation import Transcript
from supportsim.domains import TRANSFER_TOOL, Domain, Tool
from supportsim.scenario import PlanItem, PlannedCall, PlannedSay, SayItem, Scenario, Step
from supportsim.scenario._plan import concrete
from supportsim.scoring._facts import Fact, renderings
from supportsim.scoring._lexicon import concept_terms
from supportsim.scoring._say import Speech, as_fact, find_item
from supportsim.scoring._templates import applicable, private_of_others, verified_owners
from supportsim.scoring._text import fold
from supportsim.scoring._workflow import Rules, args_match, is_gate, is_write, ordering

Expect = Literal["valid", "invalid"]
PREAMBLE = "Let me look into that for you."


@dataclass(frozen=True, slots=True)
class Variant:
    """A changed plan. ``target``: the check an invalid variant must fail. ``moved``: plan
    indices of calls that must succeed for the variant to be what it claims."""

    name: str
    expect: Expect
    plan: tuple[PlanItem, ...]
    target: str | None = None
    needs_ok: tuple[int, ...] = ()
    needs_result: tuple[tuple[int, Any], ...] = ()
    """(plan index, value): the call's result must show the value (equivalent lookups)."""


@dataclass(slots=True)
class Reference:
    """The oracle's plan and what its replay produced, per plan index."""

    scenario: Scenario
    domain: Domain
    tools: Mapping[str, Tool]
    rules: Rules
    speech: Speech
    plan: list[PlanItem]
    transcript: Transcript
    results: dict[int, Any] = field(default_factory=dict)

    def steps(self) -> dict[str, Step]:
        return {s.id: s for s in self.scenario.workflow}

    def indices(self, step_id: str) -> list[int]:
        return [i for i, item in enumerate(self.plan) if item.step_id == step_id]

    def say_index(self, step_id: str) -> int | None:
        found = [i for i in self.indices(step_id) if isinstance(self.plan[i], PlannedSay)]
        return found[0] if found else None


def _without(plan: Sequence[PlanItem], drop: Sequence[int]) -> tuple[PlanItem, ...]:
    gone = set(drop)
    return tuple(item for i, item in enumerate(plan) if i not in gone)


def _map_says(plan: Sequence[PlanItem], fn: Callable[[str], str]) -> tuple[PlanItem, ...]:
    return tuple(replace(i, text=fn(i.text)) if isinstance(i, PlannedSay) else i for i in plan)


def _replace_text(plan: Sequence[PlanItem], index: int, text: str) -> tuple[PlanItem, ...]:
    out = list(plan)
    item = out[index]
    assert isinstance(item, PlannedSay)
    out[index] = replace(item, text=text)
    return tuple(out)


def _insert(plan: Sequence[PlanItem], index: int, item: PlanItem) -> tuple[PlanItem, ...]:
    return (*plan[:index], item, *plan[index:])


def _before_closing(plan: Sequence[PlanItem]) -> int:
    """Where an extra action goes: before the last statement, or at the end."""
    says = [i for i, item in enumerate(plan) if isinstance(item, PlannedSay)]
    return says[-1] if says else len(plan)


# --- valid ------------------------------------------------------------------------------

_TYPOGRAPHIC = (("'", "\u2019"), (" - ", " \u2013 "), ("...", "\u2026"))


def _typographic(text: str) -> str:
    for plain, fancy in _TYPOGRAPHIC:
        text = text.replace(plain, fancy)
    return re.sub(r'"([^"]*)"', "\u201c\\1\u201d", text)


def surface(ref: Reference) -> Iterator[Variant]:
    """Typography, case, spacing, a preamble, an apology: none changes what was said."""
    plan = ref.plan
    yield Variant("typography", "valid", _map_says(plan, _typographic))
    yield Variant("upper case", "valid", _map_says(plan, str.upper))
    yield Variant("lower case", "valid", _map_says(plan, str.lower))
    yield Variant("spacing", "valid", _map_says(plan, lambda t: t.replace(" ", "  ") + "\n"))
    yield Variant("preamble message", "valid", _insert(plan, 0, PlannedSay("", PREAMBLE)))
    first = next((i for i, it in enumerate(plan) if isinstance(it, PlannedSay)), None)
    if first is not None:
        opening = plan[first]
        assert isinstance(opening, PlannedSay)
        sorry = replace(opening, text="Sorry for the wait! " + opening.text)
        yield Variant("apology", "valid", (*plan[:first], sorry, *plan[first + 1 :]))


def _swap(text: str, item: SayItem, new: str, speech: Speech, *, every: bool = False) -> str | None:
    """``text`` with the first (``every``: each) statement of ``item`` replaced by ``new``."""
    span = find_item(item, text, speech)
    if span is None:
        return None
    out = text[: span.start] + new
    rest = text[span.end :]
    while every and (span := find_item(item, rest, speech)) is not None:
        out += rest[: span.start] + new
        rest = rest[span.end :]
    return out + rest


def rewordings(ref: Reference, per_item: int = 3) -> Iterator[Variant]:
    """Each concept said with the lexicon's other terms, each fact in other formats."""
    for step in ref.scenario.workflow:
        index = ref.say_index(step.id)
        if step.kind != "say" or index is None:
            continue
        text = ref.plan[index].text  # type: ignore[union-attr]
        for n, item in enumerate(step.say or []):
            if item.kind == "concept":
                options = concept_terms(item.concept or "", ref.speech.lang)
                label = "reworded"
            elif (fact := as_fact(item)) is not None:
                options = renderings(fact, ref.speech.lang)
                label = "format"
            else:
                continue
            made = 0
            for option in options:
                new = _swap(text, item, option, ref.speech)
                if new is None or new == text or made >= per_item:
                    continue
                made += 1
                yield Variant(
                    f"{label} {step.id}[{n}] as {option!r}",
                    "valid",
                    _replace_text(ref.plan, index, new),
                )


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
        yield Variant("extra knowledge-base search", "valid", _insert(plan, 0, extra))
    for i in _read_calls(ref):
        step = steps.get(plan[i].step_id)
        if step is not None and step.optional:
            yield Variant(f"skipped optional {step.id}", "valid", _without(plan, [i]))
    says = [
        i
        for i, it in enumerate(plan)
        if isinstance(it, PlannedSay) and steps.get(it.step_id) and steps[it.step_id].optional
    ]
    if says:
        yield Variant("skipped optional statements", "valid", _without(plan, says))


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
        yield Variant(f"dropped write {step.id}", "invalid", _without(ref.plan, at), target)
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
            moved = _without(ref.plan, at)
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
            _replace_text(ref.plan, index, "Okay."),
            target,
        )
        text = ref.plan[index].text  # type: ignore[union-attr]
        for n, item in enumerate(step.say or []):
            fact = as_fact(item)
            if fact is None or fact.kind == "id":
                continue
            wrong = _wrong_fact(fact)
            rendered = renderings(wrong, ref.speech.lang)[0]
            new = _swap(text, item, rendered, ref.speech, every=True)
            if new is not None:
                yield Variant(
                    f"wrong {fact.kind} in {step.id}[{n}]",
                    "invalid",
                    _replace_text(ref.plan, index, new),
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
                _without(ref.plan, showing),
                f"observed:{step.id}",
            )


def forbidden(ref: Reference) -> Iterator[Variant]:
    """Each forbidden call made and each forbidden disclosure said."""
    at = _before_closing(ref.plan)
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
                _insert(ref.plan, at, call),
                target,
                needs_ok=needs,
            )
        for item in rule.disclose or []:
            text = _say_item(item, ref.speech.lang)
            if text:
                leak = PlannedSay("", f"Just so you know: {text}.")
                yield Variant(
                    f"disclosed {rule.id}", "invalid", _insert(ref.plan, at, leak), target
                )
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
    """The failed identity detail named; another customer's data read out."""
    at = _before_closing(ref.plan)
    which = applicable(ref.scenario, ref.domain, ref.tools)
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
                _insert(ref.plan, unverified, leak),
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
                _insert(ref.plan, at, leak),
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
            yield Variant("dropped the transfer", "invalid", _without(ref.plan, drop), "outcome")
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


VALID: tuple[Callable[[Reference], Iterator[Variant]], ...] = (
    surface,
    rewordings,
    messages,
    lookups,
)
INVALID: tuple[Callable[[Reference], Iterator[Variant]], ...] = (
    writes,
    statements,
    evidence,
    forbidden,
    templates,
    escalation,
)


def variants(ref: Reference) -> list[Variant]:
    """Every variant of the reference, valid first, names unique."""
    out: list[Variant] = []
    seen: set[str] = set()
    for generator in (*VALID, *INVALID):
        for variant in generator(ref):
            if variant.name not in seen:
                seen.add(variant.name)
                out.append(variant)
    return out
