"""The perturbation tester's data: a Variant (a changed plan for the oracle to replay), the
Reference it is made from, and the plan edits the generators share
(``_variants_valid``, ``_variants_invalid``, ``_variants_corpus``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from supportsim.conversation import Transcript
from supportsim.domains import Domain, Tool
from supportsim.scenario import PlanItem, PlannedCall, PlannedSay, SayItem, Scenario, Step
from supportsim.scoring.parts import Rules, Speech, find_item
from supportsim.validate._corpus import Statement

Expect = Literal["valid", "invalid"]
PREAMBLES = {
    "en": ("Let me look into that for you.", "Sorry for the wait! "),
    "de": ("Ich sehe mir das gerne für Sie an.", "Entschuldigen Sie die Wartezeit! "),
    "es": ("Permítame revisarlo para usted.", "¡Disculpe la espera! "),
    "fr": ("Je regarde cela pour vous.", "Désolé pour l'attente ! "),
}
"""A harmless extra message and an apology, in the scenario's language (valid variants)."""


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
    corpus: Sequence[Statement] = ()
    """The blind statements reworded and invalid statements are drawn from (``tune``)."""
    check_ids: frozenset[str] = frozenset()
    """The ids of the checks the reference conversation is scored on."""
    secrets: frozenset[str] = frozenset()
    """Other customers' private values the Agent must never say."""

    def steps(self) -> dict[str, Step]:
        return {s.id: s for s in self.scenario.workflow}

    def indices(self, step_id: str) -> list[int]:
        return [i for i, item in enumerate(self.plan) if item.step_id == step_id]

    def say_index(self, step_id: str) -> int | None:
        found = [i for i in self.indices(step_id) if isinstance(self.plan[i], PlannedSay)]
        return found[0] if found else None

    def writes_before(self, index: int) -> list[str]:
        """The write tools the plan calls before ``index`` (the transfer included)."""
        return [
            item.tool
            for item in self.plan[:index]
            if isinstance(item, PlannedCall)
            and (tool := self.tools.get(item.tool)) is not None
            and tool.kind == "write"
        ]


def without(plan: Sequence[PlanItem], drop: Sequence[int]) -> tuple[PlanItem, ...]:
    gone = set(drop)
    return tuple(item for i, item in enumerate(plan) if i not in gone)


def map_says(plan: Sequence[PlanItem], fn: Callable[[str], str]) -> tuple[PlanItem, ...]:
    return tuple(replace(i, text=fn(i.text)) if isinstance(i, PlannedSay) else i for i in plan)


def replace_text(plan: Sequence[PlanItem], index: int, text: str) -> tuple[PlanItem, ...]:
    out = list(plan)
    item = out[index]
    assert isinstance(item, PlannedSay)
    out[index] = replace(item, text=text)
    return tuple(out)


def insert(plan: Sequence[PlanItem], index: int, item: PlanItem) -> tuple[PlanItem, ...]:
    return (*plan[:index], item, *plan[index:])


def before_closing(plan: Sequence[PlanItem]) -> int:
    """Where an extra action goes: before the last statement, or at the end."""
    says = [i for i, item in enumerate(plan) if isinstance(item, PlannedSay)]
    return says[-1] if says else len(plan)


def swap(text: str, item: SayItem, new: str, speech: Speech, *, every: bool = False) -> str | None:
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
