"""A plug-in benchmark's own scoring: its reward in place of our checks, and its judge.

An imported benchmark may define strict its own way (tau2: the product of its task's reward
components), so a scenario it claims is not scored by the Scorers (``_scorer.py``) at all:
``score`` hands it to the benchmark's ``BenchmarkScoring``, ``statement_questions`` asks the
statement judge nothing about it, and ``assertion_verdicts`` asks the benchmark's own judge.

``register_scoring`` names a zero-argument factory by ``"module:attribute"`` and says which
scenarios it claims (without importing the module: the test runs for every scenario). The
module is imported the first time a claimed scenario is scored, so a run without one never
imports the benchmark's package; the factory is looked up on every use, so tests may
replace it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from supportsim._imports import import_target
from supportsim.conversation import Transcript
from supportsim.llm import LLMRequest, LLMResponse
from supportsim.scenario import Scenario
from supportsim.scoring._checks import AssertionVerdict, Score

JudgeCall = Callable[[LLMRequest], Awaitable[LLMResponse]]
"""A model call (a client's ``complete``, or the run's caller with its limits and retries)."""


class BenchmarkScoring(Protocol):
    """How a plug-in benchmark scores the scenarios it claims."""

    def score(
        self,
        scenario: Scenario,
        transcript: Transcript,
        reference: Mapping[str, Any],
        *,
        verdicts: Sequence[AssertionVerdict] | None = None,
    ) -> Score:
        """Score one conversation (pure, deterministic); ``reference`` is the final state
        of the scenario's reference workflow, ``verdicts`` the benchmark judge's."""
        ...

    async def assertion_verdicts(
        self, scenario: Scenario, transcript: Transcript, call: JudgeCall | None
    ) -> tuple[list[AssertionVerdict] | None, LLMResponse | None]:
        """The benchmark judge's verdicts ``score`` takes, with the judge's response;
        ``(None, None)`` without a judge (``call`` None) or when none is needed.

        Raises:
            ProviderError: the judge's provider failed.
        """
        ...


@dataclass(frozen=True, slots=True)
class ScoringPlugin:
    """A registered benchmark scoring: ``target`` is ``"module:attribute"``, a zero-argument
    factory of its ``BenchmarkScoring``; ``claims``: whether it scores a scenario."""

    target: str
    claims: Callable[[Scenario], bool]

    def load(self) -> BenchmarkScoring:
        factory: Callable[[], BenchmarkScoring] = import_target(self.target)
        return factory()


_PLUGINS: dict[str, ScoringPlugin] = {}


def register_scoring(name: str, target: str, claims: Callable[[Scenario], bool]) -> None:
    """Register benchmark ``name``'s scoring (a later registration replaces one)."""
    _PLUGINS[name] = ScoringPlugin(target, claims)


# The one built-in plug-in: tau2-bench's reward, for the scenarios it imported.
register_scoring("tau2", "supportsim.tau2:benchmark_scoring", lambda s: s.tau2 is not None)


def claimed(scenario: Scenario) -> ScoringPlugin | None:
    """The plug-in that claims ``scenario`` (the first registered), or None: ours."""
    return next((p for p in _PLUGINS.values() if p.claims(scenario)), None)


def benchmark_scoring(scenario: Scenario) -> BenchmarkScoring | None:
    """The benchmark scoring of ``scenario`` (its module imported here), or None: ours."""
    plugin = claimed(scenario)
    return None if plugin is None else plugin.load()


__all__ = [
    "BenchmarkScoring",
    "JudgeCall",
    "ScoringPlugin",
    "benchmark_scoring",
    "claimed",
    "register_scoring",
]
