"""The tau2 conversation rules: tau2-bench's prompts, greeting, stop tokens and tool texts.

So that a supportsim run of tau2's tasks holds the conversation the tau2 leaderboard held
(tau2-bench, sierra-research, MIT; behaviour read from its ``llm_agent.py``,
``user_simulator.py``, ``orchestrator.py`` and ``environment.py``; the code is ours, the
prompt text is tau2's, in ``prompts/`` with its licence):

- the Agent's system prompt is tau2's ``<instructions>`` + ``<policy>`` wrapper around the
  domain policy, and the Agent opens with tau2's fixed greeting (in its own history too);
- the simulated Customer is tau2's user simulator: its guidelines plus the task's user
  scenario rendered as tau2's ``str(UserScenario)``; it sees only the Agent's text messages
  (an Agent message that also calls tools goes to the tools only, as in tau2), and it ends the
  conversation by writing ``###STOP###``, ``###TRANSFER###`` or ``###OUT-OF-SCOPE###``
  (the message ends the conversation; the Agent never sees it). No nudge, no fault guard:
  tau2 has none;
- tool results reach the Agent as tau2's ``Environment.to_json_str`` makes them (text as is,
  a record as ``json.dumps(model_dump(), default=str)``), errors as ``"Error: <message>"``;
- bounds are tau2's: 200 steps (a step is one message, or one batch of tool results) and 10
  tool errors; ``transfer_to_human_agents`` is an ordinary tool (the Customer's
  ``###TRANSFER###`` ends the conversation). See ``Tau2Rules`` for the mapping of tau2's
  termination reasons onto ours.
"""

from __future__ import annotations

import functools
import json
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from supportsim.conversation import (
    Agent,
    CallerFor,
    Customer,
    CustomerSpec,
    CustomerStep,
    CustomerTurn,
    EndReason,
    Message,
    ModelCaller,
    Termination,
    Visible,
    build_customer,
    llm_call,
    rules_name,
)
from supportsim.domains import Domain
from supportsim.environment import CallRecord, ToolResult
from supportsim.errors import SimulatorFault
from supportsim.llm import LLMMessage, LLMRequest
from supportsim.scenario import Persona, Scenario, Tau2Task

STOP = "###STOP###"
TRANSFER = "###TRANSFER###"
OUT_OF_SCOPE = "###OUT-OF-SCOPE###"
STOP_TOKENS: tuple[tuple[str, EndReason], ...] = (
    (OUT_OF_SCOPE, "tau2_out_of_scope"),
    (STOP, "tau2_stop"),
    (TRANSFER, "tau2_transfer"),
)
"""tau2's user stop tokens, in the order tau2 classifies them (the first found wins), with
the end reason recorded. Any of them ends the conversation as the user's stop
(``customer_done``), as tau2 1.0.1's ``UserSimulator.is_stop`` does."""

TAB = "\t"
MAX_STEPS = 200
"""tau2's default ``max_steps`` (``tau2 run``; config ``DEFAULT_MAX_STEPS``)."""
MAX_ERRORS = 10
"""tau2's default ``max_errors``: tool results that are errors before the run is stopped."""


@dataclass(frozen=True, slots=True)
class Tau2Rules:
    """How the orchestrator holds a conversation in the tau2 mode (a ``ConversationRules``).

    Termination, tau2 -> ours: USER_STOP -> ``customer_done`` (end reason ``tau2_stop``,
    ``tau2_transfer`` or ``tau2_out_of_scope``); MAX_STEPS -> ``max_turns``;
    TOO_MANY_ERRORS -> ``error`` (status ``completed``: an Agent failure, scored 0);
    TIMEOUT -> ``timeout``; provider failures -> ``infra_error`` (excluded, as tau2 excludes
    INFRASTRUCTURE_ERROR). tau2's LLM Agent never stops a conversation (AGENT_STOP is
    solo mode only), so every Agent-side ending here is one of the failures above.
    """

    greeting: str
    max_steps: int = MAX_STEPS
    max_errors: int = MAX_ERRORS
    name: str = "tau2"
    ends_on_transfer: bool = False  # ``transfer_to_human_agents`` is an ordinary tool
    bounds_tool_rounds: bool = False  # tau2's steps bound a turn, not a round count
    needs_inprocess_tools: bool = True  # tool texts and step counts are ours to make

    def max_turns(self, scenario: Scenario) -> int:
        """tau2 bounds steps, not turns (a turn takes a step at least)."""
        return self.max_steps

    def agent_prompt(self, domain: Domain, scenario: Scenario) -> str:
        return tau2_agent_system_prompt(domain.policy, scenario.context)

    def build_customer(
        self,
        spec: CustomerSpec,
        scenario: Scenario,
        persona: Persona,
        domain: Domain,
        agent: Agent,
        caller_for: CallerFor,
    ) -> Customer:
        return build_tau2_customer(spec, scenario, persona, domain, agent, caller_for)

    def shows_customer(self, message: Message) -> bool:
        # tau2 sends a message that calls tools to the tools only
        return bool(message.content) and not message.tool_calls

    def tool_text(self, result: ToolResult) -> str:
        return tool_content(result.record)

    def over_bounds(self, steps: int, errors: int) -> tuple[Termination, str] | None:
        """MAX_STEPS, then TOO_MANY_ERRORS (the later one wins, as in tau2's
        ``_check_termination``, even over a stop in the same step)."""
        out: tuple[Termination, str] | None = None
        if steps >= self.max_steps:
            out = ("max_turns", f"tau2 max_steps: {steps} steps")
        if errors >= self.max_errors:
            out = ("error", f"tau2 too many errors: {errors} tool errors")
        return out


@dataclass(frozen=True, slots=True)
class Tau2Prompts:
    agent_instruction: str
    agent_system: str
    greeting: str
    user_guidelines: str
    user_system: str


@functools.cache
def tau2_prompts() -> Tau2Prompts:
    """tau2's prompt texts from ``prompts/`` (package data, read once, on first use).

    The guidelines are used as the file is; the other files lose their one final newline
    (see ``prompts/README.md``).
    """
    folder = resources.files("supportsim.tau2").joinpath("prompts")

    def read(name: str, *, verbatim: bool = False) -> str:
        text = folder.joinpath(name).read_text(encoding="utf-8")
        return text if verbatim else text.removesuffix("\n")

    return Tau2Prompts(
        agent_instruction=read("agent_instruction.md"),
        agent_system=read("agent_system.md"),
        greeting=read("greeting.md"),
        user_guidelines=read("user_guidelines.md", verbatim=True),
        user_system=read("user_system.md"),
    )


def uses_tau2(mode: str, scenario: Scenario) -> bool:
    """Whether ``scenario`` is held in the tau2 mode under run mode ``mode``."""
    return rules_name(mode, scenario) == "tau2"


def tau2_rules() -> Tau2Rules:
    return Tau2Rules(greeting=tau2_prompts().greeting)


def tau2_agent_system_prompt(policy: str, context: Mapping[str, Any] | None = None) -> str:
    """tau2's LLM Agent system prompt around ``policy``, byte for byte.

    ``context`` (a supportsim scenario's own context, e.g. today's date) is appended after
    the policy block when there is any, so a rule our scenario scores is still one the Agent
    was told; a scenario imported from tau2 has none, and gets tau2's prompt unchanged.
    """
    p = tau2_prompts()
    prompt = p.agent_system.format(agent_instruction=p.agent_instruction, domain_policy=policy)
    if context:
        prompt += "\n<context>\n" + "\n".join(f"- {k}: {v}" for k, v in context.items())
        prompt += "\n</context>"
    return prompt


def tau2_user_system_prompt(instructions: str) -> str:
    """tau2's user simulator system prompt for a task whose ``str(user_scenario)`` is
    ``instructions`` (retail gives the user no tools: the tool-free guidelines)."""
    p = tau2_prompts()
    return p.user_system.format(
        global_user_sim_guidelines=p.user_guidelines, instructions=instructions
    )


def user_scenario_text(instructions: str | Mapping[str, Any], persona: str | None = None) -> str:
    """tau2's ``str(UserScenario)``: the persona (if any) and the instructions, structured
    (``domain``, ``reason_for_call``, ``known_info``, ``unknown_info``,
    ``task_instructions``) or free text, each block tab-indented as tau2 indents it."""
    lines = []
    if persona is not None:
        lines += ["Persona:", textwrap.indent(persona, "\t")]
    text = instructions if isinstance(instructions, str) else _structured(instructions)
    lines += ["Instructions:", textwrap.indent(text, "\t")]
    return "\n".join(lines)


def _structured(i: Mapping[str, Any]) -> str:
    lines = [
        f"Domain: {i['domain']}",
        f"Reason for call:\n{textwrap.indent(i['reason_for_call'], TAB)}",
    ]
    if i.get("known_info") is not None:
        lines.append(f"Known info:\n{textwrap.indent(i['known_info'], TAB)}")
    if i.get("unknown_info") is not None:
        lines.append(f"Unknown info:\n{textwrap.indent(i['unknown_info'], TAB)}")
    lines.append(f"Task instructions:\n{textwrap.indent(i['task_instructions'], TAB)}")
    return "\n".join(lines)


def scenario_user_text(scenario: Scenario, persona: Persona) -> str:
    """The user scenario the tau2 user simulator is given for ``scenario``.

    An imported tau2 task: its own user scenario, verbatim. One of our scenarios held in
    the tau2 mode: its hidden goal in tau2's structured shape (reason, known and unknown
    facts, what the customer accepts and when they give up) and the persona's manner.
    """
    if scenario.tau2 is not None:
        return tau2_task_user_text(scenario.tau2)
    goal = scenario.customer
    known = "\n".join(f"{k}: {v}" for k, v in goal.known_facts.items()) or None
    unknown = "\n".join(goal.unknown_facts) or None
    task_lines = [
        goal.will_accept or "You want a clear resolution of your request.",
        goal.gives_up_when,
    ]
    if scenario.language != "en":
        task_lines.append(f"You write in the language whose code is '{scenario.language}'.")
    manner = f"{persona.name}. Tone: {persona.tone}. Message length: {persona.verbosity}."
    if persona.style.strip():
        manner += "\n" + persona.style.strip()
    return user_scenario_text(
        {
            "domain": scenario.domain,
            "reason_for_call": goal.reason.strip(),
            "known_info": known,
            "unknown_info": unknown,
            "task_instructions": "\n".join(t for t in task_lines if t),
        },
        persona=manner,
    )


def tau2_task_user_text(task: Tau2Task) -> str:
    """``str(user_scenario)`` of an imported task (``Scenario.tau2``), from its verbatim
    instructions (structured or free text) and persona."""
    i = task.instructions
    return user_scenario_text(i if isinstance(i, str) else i.model_dump(), task.persona)


def tool_content(record: CallRecord) -> str:
    """A tool call's outcome as tau2's environment hands it to the Agent.

    Errors: ``"Error: " + message`` (tau2 formats the exception raised by the tool).
    Results: text as is; ``None`` as ``null``; a number or boolean as the JSON string of its
    ``str`` (tau2's ``to_json_str`` stringifies scalars); a record (a model dump) or a list
    as ``json.dumps(value, default=str)``: Python's separators and ASCII escapes, as tau2's.
    """
    if not record.ok:
        return f"Error: {record.error}"
    value = record.result
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float):
        return json.dumps(str(value))
    return json.dumps(value, default=str)


class Tau2Customer:
    """tau2's user simulator: one model call per message, ended by a stop token.

    It is given tau2's system prompt and the conversation with roles flipped (the Agent's
    messages as ``user``, its own as ``assistant``), starting with the Agent's greeting.
    A reply with no text is a simulator fault (tau2 rejects an empty message too).
    """

    def __init__(self, caller: ModelCaller, system_prompt: str, *, model: str) -> None:
        self.name = model
        self._caller = caller
        self._system = system_prompt
        self.faults: list[str] = []

    async def step(self, turn: CustomerTurn) -> CustomerStep:
        response = await self._caller(LLMRequest(self._system, _flipped(turn.view)))
        calls = (llm_call("customer", response),)
        content = response.content.strip()
        if not content:
            raise SimulatorFault("empty", "the user simulator sent an empty message")
        return CustomerStep(content=content, end=stop_reason(content), llm=calls)


def build_tau2_customer(
    spec: CustomerSpec,
    scenario: Scenario,
    persona: Persona,
    domain: Domain,
    agent: Agent,
    caller_for: CallerFor,
) -> Customer:
    """A fresh Customer for a conversation in the tau2 mode: tau2's user simulator played by
    the customer model (a ``scripted`` Customer stays scripted: it has no prompt)."""
    if spec.model is None:
        return build_customer(spec, scenario, persona, domain, agent, caller_for)
    prompt = tau2_user_system_prompt(scenario_user_text(scenario, persona))
    return Tau2Customer(caller_for(spec.model, "customer"), prompt, model=spec.label)


def stop_reason(content: str) -> EndReason | None:
    """The end reason of a user message carrying one of tau2's stop tokens, else None."""
    for token, reason in STOP_TOKENS:
        if token in content:
            return reason
    return None


def _flipped(view: tuple[Visible, ...]) -> tuple[LLMMessage, ...]:
    return tuple(
        LLMMessage("assistant" if m.role == "customer" else "user", m.content) for m in view
    )


__all__ = [
    "MAX_ERRORS",
    "MAX_STEPS",
    "OUT_OF_SCOPE",
    "STOP",
    "STOP_TOKENS",
    "TRANSFER",
    "Tau2Customer",
    "Tau2Prompts",
    "Tau2Rules",
    "build_tau2_customer",
    "scenario_user_text",
    "stop_reason",
    "tau2_agent_system_prompt",
    "tau2_prompts",
    "tau2_rules",
    "tau2_task_user_text",
    "tau2_user_system_prompt",
    "tool_content",
    "user_scenario_text",
    "uses_tau2",
]
