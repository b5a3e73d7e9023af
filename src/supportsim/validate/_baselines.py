"""Baseline Agents: agents that do nothing useful, which no scenario may reward.

``supportsim validate --baselines`` runs each on every scenario (scripted Customer, tools
in process, no model call) and fails when one passes a scenario strictly anywhere or
earns a mean partial above ``MAX_MEAN_PARTIAL``: a scenario a baseline passes is a scenario
defect (a refusal step a blanket "I can't help" satisfies, a state check nothing changes),
and partial credit a baseline earns is noise in every comparison of real agents.

- ``baseline:do-nothing`` answers every turn with a neutral line.
- ``baseline:refuse`` answers every turn with "I'm sorry, I can't help with that."
- ``baseline:transfer`` transfers to a human at once (the tool the domain's action map
  says escalates; ``transfer_to_human`` in the built-in domains).
- ``baseline:claim-done`` says "All done: I've verified you and processed your request"
  without any tool call.

Each speaks the scenario's language (English, German, Spanish, French), so a non-English
scenario is probed on its checks, not merely failed on ``reply_language``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import orjson

from supportsim.conversation import Agent, AgentContext, AgentStep, Message
from supportsim.domains import TRANSFER_TOOL, Domain
from supportsim.llm import ToolCall
from supportsim.scenario import Scenario
from supportsim.scoring import Score, reference_state
from supportsim.scoring.parts import function_word_counts, scripted_run

MAX_MEAN_PARTIAL = 0.15
"""The most mean partial a baseline may earn over a scenario set (the issue's bound)."""

LINES: Mapping[str, Mapping[str, str]] = {
    "do-nothing": {
        "en": "Thank you for your message.",
        "de": "Vielen Dank für Ihre Nachricht.",
        "es": "Gracias por su mensaje.",
        "fr": "Merci pour votre message.",
    },
    "refuse": {
        "en": "I'm sorry, I can't help with that.",
        "de": "Es tut mir leid, dabei kann ich Ihnen nicht helfen.",
        "es": "Lo siento, no puedo ayudarle con eso.",
        "fr": "Je suis désolé, je ne peux pas vous aider avec cela.",
    },
    "claim-done": {
        "en": "All done: I've verified you and processed your request.",
        "de": "Erledigt: Ich habe Sie verifiziert und Ihre Anfrage bearbeitet.",
        "es": "Listo: le he verificado y he tramitado su solicitud.",
        "fr": "C'est fait : je vous ai vérifié et j'ai traité votre demande.",
    },
    "transfer": {
        "en": "I'm transferring you to a colleague.",
        "de": "Ich verbinde Sie mit einem Kollegen.",
        "es": "Le paso con un compañero.",
        "fr": "Je vous transfère à un collègue.",
    },
}
"""What each baseline says, by language (English when the scenario's is not listed)."""


class SayingAgent:
    """Says one line every turn and never calls a tool."""

    def __init__(self, name: str, line: str) -> None:
        self.name = name
        self._line = line

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep(content=self._line)


class TransferAgent:
    """Calls the transfer tool on its first step, with the line as every string argument
    the tool requires; then only says the line (a transfer ends the conversation)."""

    def __init__(self, name: str, line: str, tool: str) -> None:
        self.name = name
        self._line = line
        self._tool = tool
        self._called = False

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        schema = next((t for t in context.tools if t.name == self._tool), None)
        if self._called or schema is None:
            return AgentStep(content=self._line)
        self._called = True
        required = schema.parameters.get("required", [])
        args = {name: self._line for name in required}
        call = ToolCall("baseline-1", self._tool, orjson.dumps(args).decode())
        return AgentStep(content=self._line, tool_calls=(call,))


class ClaimDoneAgent:
    """The sloppy Agent of ``validate --customer --sloppy``: says it has done everything
    ("All done: I've verified you and processed your request") without any tool call, in
    the language the Customer's first message is written in. Made with no argument, so a
    run loads it as ``python:supportsim.validate:ClaimDoneAgent``. A Customer that ends
    satisfied with it did not push back."""

    name = "claim-done"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        first = next((m.content for m in history if m.role == "customer" and m.content), "")
        counts = {lang: function_word_counts([first], lang) for lang in ("de", "es", "fr")}
        lang = max(counts, key=lambda x: counts[x][1] - counts[x][0])
        english, own = counts[lang]
        lang = lang if own > english else "en"
        return AgentStep(content=LINES["claim-done"][lang])


BaselineFactory = Callable[[Scenario, Domain], Agent]


def _line(kind: str, scenario: Scenario) -> str:
    return LINES[kind].get(scenario.language, LINES[kind]["en"])


def transfer_tool(domain: Domain) -> str:
    """The tool a transfer-at-once agent calls: ``transfer_to_human`` when the domain has
    it, else the first tool the domain's action map says escalates."""
    if TRANSFER_TOOL in domain.tools:
        return TRANSFER_TOOL
    escalating = [name for name, acts in domain.actions.items() if "escalated" in acts]
    return escalating[0] if escalating else TRANSFER_TOOL


def baselines() -> dict[str, BaselineFactory]:
    """Every built-in baseline by name (``baseline:NAME``), each a factory of a fresh
    Agent for one scenario."""

    def saying(kind: str) -> BaselineFactory:
        return lambda scenario, _domain: SayingAgent(f"baseline:{kind}", _line(kind, scenario))

    def transfer(scenario: Scenario, domain: Domain) -> Agent:
        line = _line("transfer", scenario)
        return TransferAgent("baseline:transfer", line, transfer_tool(domain))

    return {
        "baseline:do-nothing": saying("do-nothing"),
        "baseline:refuse": saying("refuse"),
        "baseline:transfer": transfer,
        "baseline:claim-done": saying("claim-done"),
    }


@dataclass(frozen=True, slots=True)
class BaselineRun:
    """One baseline's conversation on one scenario, scored."""

    scenario: Scenario
    score: Score
    termination: str


@dataclass(slots=True)
class BaselineResult:
    """One baseline over a scenario set."""

    name: str
    runs: list[BaselineRun] = field(default_factory=list)

    @property
    def passed(self) -> list[str]:
        """Ids of the scenarios this baseline passed strictly (each one a scenario defect)."""
        return [r.scenario.id for r in self.runs if r.score.strict]

    @property
    def mean_partial(self) -> float:
        return sum(r.score.partial for r in self.runs) / len(self.runs) if self.runs else 0.0

    @property
    def ok(self) -> bool:
        """Strict 0 everywhere and mean partial at most ``MAX_MEAN_PARTIAL``."""
        return not self.passed and self.mean_partial <= MAX_MEAN_PARTIAL

    def problems(self) -> list[str]:
        out = [f"{self.name} passes {sid} strictly (a scenario defect)" for sid in self.passed]
        if self.mean_partial > MAX_MEAN_PARTIAL:
            out.append(
                f"{self.name} earns a mean partial of {self.mean_partial:.1%} "
                f"(at most {MAX_MEAN_PARTIAL:.0%})"
            )
        return out


async def run_baselines(
    domains: Mapping[str, Domain],
    scenarios: Sequence[Scenario],
    names: Sequence[str] | None = None,
) -> list[BaselineResult]:
    """Every baseline (or those ``names``) on every scenario, in order. Deterministic and
    offline: no model is called, so it runs in CI and before every run (the floor)."""
    factories = baselines()
    chosen = list(names) if names is not None else list(factories)
    results = [BaselineResult(name) for name in chosen]
    for scenario in scenarios:
        domain = domains[scenario.domain]
        reference = await reference_state(domain, scenario)
        for result in results:
            agent = factories[result.name](scenario, domain)
            transcript, scored = await scripted_run(domain, scenario, agent, reference=reference)
            result.runs.append(BaselineRun(scenario, scored, transcript.termination))
    return results


FLOOR_AGENT = "baseline:do-nothing"


@dataclass(frozen=True, slots=True)
class Floor:
    """What a do-nothing Agent scores on a scenario set: the floor every real Agent's
    figures are read against (a report's "do-nothing floor" line)."""

    agent: str
    scenarios: int
    strict_passes: int
    partial_mean: float


async def do_nothing_floor(domains: Mapping[str, Domain], scenarios: Sequence[Scenario]) -> Floor:
    """The do-nothing baseline over ``scenarios`` (offline, no model call)."""
    (result,) = await run_baselines(domains, scenarios, [FLOOR_AGENT])
    return Floor(FLOOR_AGENT, len(result.runs), len(result.passed), result.mean_partial)
