"""Participant specs: the one parser for ``--agent`` and ``--customer`` values.

Agents: ``oracle``; ``openai:MODEL``; ``anthropic:MODEL``; a name from the models file;
``http:URL[#MODEL]`` (a deployed agent service speaking OpenAI Chat Completions);
``python:package.module:attr``; ``langgraph:package.module:attr``.
Customers: ``scripted``; or any model spec (the LLM Customer).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from supportsim.conversation._adapters import langgraph_agent, load_object, python_agent
from supportsim.conversation._llm_agent import LLMAgent, ModelCaller
from supportsim.conversation._llm_customer import LLMCustomer
from supportsim.conversation._oracle import OracleAgent
from supportsim.conversation._participants import Agent, Customer
from supportsim.conversation._prompts import customer_system_prompt
from supportsim.conversation._scripted import ScriptedCustomer
from supportsim.domains import Domain
from supportsim.errors import InputError
from supportsim.llm import ModelConfig, parse_model_spec, scrub_url_credentials
from supportsim.scenario import Persona, PlannedCall, Scenario, reference_plan

AgentKind = Literal["oracle", "llm", "python", "langgraph"]
CallerFor = Callable[[ModelConfig, str], ModelCaller]
"""Builds the model caller (rate limits, retries) for a model and a role label."""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    label: str
    kind: AgentKind
    model: ModelConfig | None = None
    target: str = ""


@dataclass(frozen=True, slots=True)
class CustomerSpec:
    label: str
    model: ModelConfig | None = None  # None: scripted


def parse_agent_spec(spec: str, models: Mapping[str, ModelConfig]) -> AgentSpec:
    """Parse one ``--agent`` value; python/langgraph targets are imported now to check them.

    Raises:
        InputError: Unknown form, a bad ``http:`` URL, or a target that does not import.
    """
    if spec == "oracle":
        return AgentSpec(spec, "oracle")
    for prefix in ("python", "langgraph"):
        if spec.startswith(prefix + ":"):
            target = spec[len(prefix) + 1 :]
            load_object(target)  # a typo fails here, before any unit runs (InputError)
            return AgentSpec(spec, prefix, target=target)  # type: ignore[arg-type]
    if spec.startswith("http:"):
        url, _, model = spec[5:].partition("#")
        if not url.startswith(("http://", "https://")):
            raise InputError(f"--agent {spec!r}: expected http:http(s)://host/v1[#model]")
        if scrub_url_credentials(url) != url:  # the spec is the label in every record
            raise InputError(
                f"--agent {scrub_url_credentials(spec)!r}: no credentials in an agent spec (it "
                "is the agent's label, stored in every record); name the endpoint in the "
                "models file instead (base_url; api_key_env for a key)"
            )
        config = ModelConfig(
            name=spec, provider="openai", model=model or "agent", base_url=url, api_key_env=None
        )
        return AgentSpec(spec, "llm", model=config)
    return AgentSpec(spec, "llm", model=parse_model_spec(spec, models))


def parse_customer_spec(spec: str, models: Mapping[str, ModelConfig]) -> CustomerSpec:
    if spec == "scripted":
        return CustomerSpec(spec)
    return CustomerSpec(spec, parse_model_spec(spec, models))


def build_agent(spec: AgentSpec, scenario: Scenario, caller_for: CallerFor) -> Agent:
    """A fresh Agent for one conversation."""
    if spec.kind == "oracle":
        return OracleAgent(scenario)
    if spec.kind == "python":
        return python_agent(spec.target, spec.label)
    if spec.kind == "langgraph":
        return langgraph_agent(spec.target, spec.label)
    assert spec.model is not None
    return LLMAgent(spec.label, caller_for(spec.model, "agent"))


def build_customer(
    spec: CustomerSpec,
    scenario: Scenario,
    persona: Persona,
    domain: Domain,
    agent: Agent,
    caller_for: CallerFor,
) -> Customer:
    """A fresh Customer for one conversation (scripted lines run on while an oracle works)."""
    if spec.model is None:
        keep_going = (lambda: not agent.finished) if isinstance(agent, OracleAgent) else None
        return ScriptedCustomer.for_scenario(scenario, keep_going=keep_going)
    needs_action = (
        any(
            isinstance(item, PlannedCall)
            and (tool := domain.tools.get(item.tool)) is not None
            and tool.kind == "write"
            and item.tool != "transfer_to_human"
            for item in reference_plan(scenario)
        )
        and scenario.outcome == "resolved"
    )
    return LLMCustomer(
        caller_for(spec.model, "customer"),
        customer_system_prompt(persona, scenario),
        opening=scenario.customer.opening,
        needs_action=needs_action,
        model=spec.label,
    )
