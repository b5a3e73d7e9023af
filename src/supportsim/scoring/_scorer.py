"""The Scorer: one kind of check, (scenario, transcript, reference) -> checks.

Every check kind goes through this one protocol: the built-in kinds (workflow steps,
forbidden actions, the library-wide templates, the outcome, the final state) are Scorers,
and so is a team's own kind, attached to a domain (``Domain.scorers``) or named in a scenario
(``scorers: [python:package.module:attr]``). Adding a check kind needs no fork.

A plug-in Scorer is any callable (a function, or an object with ``__call__``) taking
``(scenario, transcript, reference)`` and returning an iterable of :class:`Check`. It must be
deterministic and fast: ``rescore`` and the perturbation proof call it many times, off the
timed path. Its checks count toward strict and partial like the built-in ones; a check's
``kind`` names the scorer's kind in reports (``check_kinds``). A Scorer that raises or
returns something that is not a Check is a harness fault of that unit, never the Agent's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from supportsim.conversation import Transcript, load_object
from supportsim.domains import Domain, Tool
from supportsim.environment import scenario_tools
from supportsim.errors import InputError, Problem, ScenarioError
from supportsim.scenario import Scenario
from supportsim.scoring._checks import Check, Judged

KIND = re.compile(r"[a-z][a-z0-9_]{0,39}")


@dataclass(frozen=True)
class Reference:
    """What a conversation is judged against, beside the scenario itself."""

    domain: Domain
    state: Mapping[str, Any]
    """The final state the scenario's reference workflow produces."""
    initial: Mapping[str, Any]
    """The scenario's initial state dump."""
    tools: Mapping[str, Tool]
    """The tools the scenario permits (domain tools and mock tools)."""
    verdicts: Mapping[str, Judged] | None = None
    """The statement judge's verdicts by prompt hash (None: rules only). A communication
    check decides by its question's verdict (``judged_check``)."""


@runtime_checkable
class Scorer(Protocol):
    """A check kind. Deterministic; returns the checks it scored (possibly none)."""

    def __call__(
        self, scenario: Scenario, transcript: Transcript, reference: Reference, /
    ) -> Iterable[Check]: ...


def load_scorer(spec: str) -> Scorer:
    """The Scorer a ``python:package.module:attr`` spec names (a class is instantiated).

    Raises:
        InputError: the spec is malformed, does not import, or is not a Scorer.
    """
    kind, _, target = spec.partition(":")
    if kind != "python" or not target:
        raise InputError(f"{spec!r}: a scorer is python:package.module:attr")
    value = load_object(target)
    if isinstance(value, type):
        try:
            value = value()
        except Exception as exc:
            raise InputError(f"{spec!r}: {value.__name__}() failed: {exc}") from exc
    if not callable(value):
        raise InputError(f"{spec!r}: not callable as scorer(scenario, transcript, reference)")
    return value


def check_scorers(scenarios: Sequence[Scenario], domains: Mapping[str, Domain]) -> None:
    """Load every scenario's named scorers before the first unit (bad ones: exit 2).

    Raises:
        ScenarioError: each scorer that cannot be loaded, naming the scenario's file and
            the ``scorers`` field.
    """
    problems = []
    for scenario in scenarios:
        for i, spec in enumerate(scenario.scorers):
            try:
                load_scorer(spec)
            except InputError as exc:
                problems.append(Problem(scenario.source, f"scorers.{i}", str(exc)))
    if problems:
        raise ScenarioError(problems)


def plugin_scorers(scenario: Scenario, domain: Domain) -> list[Scorer]:
    """The domain's scorers, then the scenario's, in the order they were given."""
    return [*domain.scorers, *(load_scorer(spec) for spec in scenario.scorers)]


def run_scorer(
    scorer: Scorer, scenario: Scenario, transcript: Transcript, reference: Reference
) -> list[Check]:
    """The scorer's checks, each verified to be a Check (a plug-in's mistake is named)."""
    checks = list(scorer(scenario, transcript, reference))
    name = getattr(scorer, "__qualname__", type(scorer).__qualname__)
    for check in checks:
        if not isinstance(check, Check):
            raise TypeError(f"scorer {name} returned {type(check).__name__}, not a Check")
        if not KIND.fullmatch(check.kind):
            raise ValueError(
                f"scorer {name} returned a check of kind {check.kind!r}: a kind is a lowercase "
                "name (letters, digits, _)"
            )
    return checks


def make_reference(
    scenario: Scenario,
    domain: Domain,
    state: Mapping[str, Any],
    initial: Mapping[str, Any] | None = None,
    verdicts: Mapping[str, Judged] | None = None,
) -> Reference:
    """The Reference of one scenario (the initial dump computed when not given)."""
    if initial is None:
        initial = domain.initial_state(scenario.state).model_dump(mode="json")
    return Reference(domain, state, initial, scenario_tools(domain, scenario), verdicts)
