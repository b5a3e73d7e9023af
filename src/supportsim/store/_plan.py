"""A run's plan: which units exist. One definition for every writer and reader.

A unit is one (scenario, Agent, trial), and in a run of several Customers one (scenario,
Agent, trial, Customer); its id is ``scenario|label|trial`` (``scenario|label|trial|
customer`` when the run has several Customers: a run of one Customer keeps the ids it
always had, so older runs resume and read as before) where the label
is what the Agent is called in the run (``--agent LABEL=SPEC``, a plug-in's ``name``, a
graph's ``name``, or the spec itself), never the spec when the two differ. ``run``
plans its units from the plan, ``--resume`` runs the planned units without a final record,
and every reader of a stored run (report, gates, JUnit, export, trend, compare, rescore,
judge) counts the planned units, so a label can never make a run's records vanish.

run.json stores the plan's Agents as ``agents: {label: spec}``. Runs written before that
field existed are read with the labels their specs name (``LABEL=SPEC`` gives ``LABEL``,
any other spec is its own label); a plug-in that named itself cannot be recovered from
such a run.json, and its records are reported as outside the plan with that reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

MAX_TRIALS = 100_000
"""The most trials a run may ask for (``RunConfig.trials``). Readers size the plan and
pass^k (k = 1..trials) by a run's trials, so a larger count read from a run.json or a
record (hand-edited, damaged) is bad input, never a plan of a billion units."""


class _Keyed(Protocol):
    @property
    def unit_id(self) -> str: ...

    @property
    def scenario_id(self) -> str: ...

    @property
    def agent(self) -> str: ...

    @property
    def trial(self) -> int: ...

    @property
    def customer(self) -> str: ...


R = TypeVar("R", bound=_Keyed)


def unit_key(scenario_id: str, agent: str, trial: int, customer: str | None = None) -> str:
    """A unit's id, the key of conversations.jsonl: stable across runs and resumes.
    ``customer``: the unit's Customer in a run of several (None: the run has one, and
    the id does not name it)."""
    base = f"{scenario_id}|{agent}|{trial}"
    return base if customer is None else f"{base}|{customer}"


def customers_of(value: object) -> tuple[str, ...]:
    """A run config's ``customer`` (one spec, or a list of them) as a tuple of labels;
    ``("scripted",)`` when absent (the default)."""
    if value is None:
        return ("scripted",)
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple):
        return tuple(str(v) for v in value) or ("scripted",)
    return (str(value),)


_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A given label (``batch.keyed_by_label`` refuses any other: no run could have one)."""


def _label_of(spec: str) -> str:
    """The label an old run.json's agent spec implies (``LABEL=SPEC`` -> ``LABEL``), by the
    rule of ``conversation.split_label`` (store cannot import it) and the label rule."""
    head, sep, rest = spec.partition("=")
    given = sep and rest and ":" not in head and _LABEL.fullmatch(head)
    return head if given else spec


@dataclass(frozen=True, slots=True)
class RunPlan:
    """The units a run plans: every scenario x Agent label x trial.

    Attributes:
        scenario_ids: The selected scenarios, in selection order.
        agents: The Agents' labels, in ``--agent`` order.
        trials: Trials per (scenario, Agent), at least 1.
        labels_stored: False for a run.json written before labels were stored: the
            labels are then inferred from the specs (see the module docstring).
        customers: The Customers' labels (their specs), in ``--customer`` order; empty
            or one: the run has one Customer and unit ids do not name it.
    """

    scenario_ids: tuple[str, ...]
    agents: tuple[str, ...]
    trials: int
    labels_stored: bool = True
    customers: tuple[str, ...] = ()
    _ids: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_ids", frozenset(self.unit_ids()))

    @property
    def several_customers(self) -> bool:
        """The run plays each unit under more than one Customer (unit ids name it)."""
        return len(self.customers) > 1

    def _keyed(self) -> tuple[str | None, ...]:
        return self.customers if self.several_customers else (None,)

    def units(self) -> Iterator[tuple[str, str, int, str | None]]:
        """(scenario, agent, trial, customer), trial-major: an interrupted run has every
        scenario at trial 1 before any at trial 2; within a scenario every Customer plays
        it for every Agent (paired by scenario and trial). ``customer`` is None in a run
        of one Customer (``unit_key``)."""
        for trial in range(1, self.trials + 1):
            for scenario in self.scenario_ids:
                for customer in self._keyed():
                    for agent in self.agents:
                        yield scenario, agent, trial, customer

    def unit_ids(self) -> list[str]:
        return [unit_key(s, a, t, c) for s, a, t, c in self.units()]

    def __len__(self) -> int:
        return len(self.scenario_ids) * len(self.agents) * self.trials * len(self._keyed())

    def planned(self, record: _Keyed) -> bool:
        """The record is of a unit this plan has (by its id, as resume and readers key)."""
        return record.unit_id in self._ids

    def why_foreign(self, record: _Keyed) -> str:
        """Why a record is outside the plan, in words a user can act on."""
        if record.agent not in self.agents:
            known = ", ".join(self.agents) or "none"
            old = "" if self.labels_stored else " (run.json predates stored labels)"
            return f"agent {record.agent!r} is not one of the run's agents ({known}){old}"
        if record.scenario_id not in self.scenario_ids:
            return f"scenario {record.scenario_id!r} is not selected by the run"
        if not 1 <= record.trial <= self.trials:
            return f"trial {record.trial} is beyond the run's {self.trials} trial(s)"
        if self.customers and record.customer not in self.customers:
            known = ", ".join(self.customers)
            return f"customer {record.customer!r} is not one of the run's Customers ({known})"
        shape = (
            "scenario|agent|trial|customer" if self.several_customers else "scenario|agent|trial"
        )
        return f"unit id {record.unit_id!r} is not {shape} of the plan"

    @classmethod
    def of_manifest(cls, manifest: Mapping[str, Any] | None) -> RunPlan | None:
        """The plan run.json holds; None when it cannot tell (no manifest, or one without
        a config, scenarios or agents)."""
        if not isinstance(manifest, Mapping):
            return None
        config, scenarios = manifest.get("config"), manifest.get("scenarios")
        if not isinstance(config, Mapping) or not isinstance(scenarios, Mapping):
            return None
        trials = config.get("trials", 1)
        if not isinstance(trials, int) or isinstance(trials, bool) or not 1 <= trials <= MAX_TRIALS:
            return None
        customers = customers_of(config.get("customer"))
        labels = manifest.get("agents")
        if isinstance(labels, Mapping) and labels:
            agents = tuple(str(a) for a in labels)
            return cls(tuple(scenarios), agents, trials, customers=customers)
        specs = config.get("agents")
        if not isinstance(specs, list):
            return None
        agents = tuple(_label_of(str(s)) for s in specs)
        return cls(tuple(scenarios), agents, trials, False, customers=customers)


@dataclass(frozen=True, slots=True)
class Foreign:
    """Records outside a run's plan: never counted, always reported (how many, why)."""

    why: Mapping[str, str] = field(default_factory=dict)
    """Unit id -> why it is outside the plan."""

    def __len__(self) -> int:
        return len(self.why)

    @property
    def unit_ids(self) -> list[str]:
        return sorted(self.why)

    @property
    def reasons(self) -> list[tuple[str, int]]:
        """Each distinct reason with its number of units, commonest first."""
        counts: dict[str, int] = {}
        for why in self.why.values():
            counts[why] = counts.get(why, 0) + 1
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    def describe(self, show: int = 5) -> str:
        """``3 unit(s) recorded outside the run's plan, not counted: agent 'x' is not ...
        (3): a|x|1, ...``: how many, each reason with its count, the first ``show`` ids."""
        why = "; ".join(f"{reason} ({n})" for reason, n in self.reasons)
        ids = self.unit_ids
        listed = ", ".join(ids[:show]) + (
            f", and {len(ids) - show} more" if len(ids) > show else ""
        )
        return f"{len(self)} unit(s) recorded outside the run's plan, not counted: {why}: {listed}"


class ForeignTally:
    """Counts the records outside a plan while a reader streams a run."""

    def __init__(self, plan: RunPlan | None) -> None:
        self.plan = plan
        self._why: dict[str, str] = {}

    def keep(self, record: _Keyed) -> bool:
        """True for a planned record (or any, without a plan); a foreign one is counted."""
        if self.plan is None or self.plan.planned(record):
            return True
        self._why.setdefault(record.unit_id, self.plan.why_foreign(record))
        return False

    def result(self) -> Foreign:
        return Foreign(dict(self._why))


def split_planned(records: Iterable[R], plan: RunPlan | None) -> tuple[list[R], Foreign]:
    """(records of planned units in file order, the units outside the plan with why). A
    foreign record (left by a forced resume that dropped a scenario, or copied in) is
    never counted. Without a plan every record counts."""
    tally = ForeignTally(plan)
    return [r for r in records if tally.keep(r)], tally.result()
