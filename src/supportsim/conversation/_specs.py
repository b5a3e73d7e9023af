"""Participant specs: the one parser for ``--agent`` and ``--customer`` values.

Agents: ``oracle``; ``careless`` (the reference workflow without its identity checks,
``_careless.py``); ``openai:MODEL``; ``anthropic:MODEL``; a name from the models file;
``http:URL[#MODEL]`` (a deployed agent service speaking OpenAI Chat Completions);
``python:package.module:attr``; ``langgraph:package.module:attr``. A models-file entry
with ``owned: true`` is an agent-owned service (``_owned.py``).
Customers: ``scripted``; or any model spec (the LLM Customer).

An Agent's label (its name in records, tables and unit ids) is ``LABEL`` of
``--agent LABEL=SPEC``, else a plug-in's own ``name`` (a python object's ``name``
attribute, a compiled graph's ``name`` unless it is LangGraph's default), else the spec.
``label_from`` says which, so the batch can hold given and derived labels to its naming
rule (a spec is not a name: ``openai:gpt-4.1`` stays as it always was).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from supportsim.conversation._adapters import (
    agent_name,
    factory_params,
    graph_name,
    langgraph_agent,
    new_graph,
    new_python_agent,
    python_agent,
)
from supportsim.conversation._careless import CARELESS, CarelessAgent
from supportsim.conversation._llm_agent import LLMAgent, ModelCaller
from supportsim.conversation._llm_customer import LLMCustomer
from supportsim.conversation._oracle import OracleAgent
from supportsim.conversation._owned import OwnedAgent, asks_for_mcp
from supportsim.conversation._participants import Agent, AgentContext, Customer
from supportsim.conversation._prompts import customer_system_prompt
from supportsim.conversation._scripted import ScriptedCustomer
from supportsim.domains import Domain
from supportsim.errors import InputError
from supportsim.llm import ModelConfig, parse_model_spec, scrub_url_credentials
from supportsim.scenario import Persona, PlannedCall, Scenario, reference_plan

AgentKind = Literal["oracle", "careless", "llm", "python", "langgraph", "owned"]
LabelFrom = Literal["spec", "name", "given"]
T = TypeVar("T")
CallerFor = Callable[[ModelConfig, str], ModelCaller]
"""Builds the model caller (rate limits, retries) for a model and a role label."""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    label: str
    kind: AgentKind
    model: ModelConfig | None = None
    target: str = ""
    spec: str = ""
    """The spec as given, without its label (empty: the label is the spec)."""
    label_from: LabelFrom = "spec"
    mcp: bool = False
    """The Agent reaches its tools over MCP itself: the conversation opens an MCP session
    for it whatever ``--tools`` says and passes its URL as ``AgentContext.mcp_url``, with
    no tool schemas (an owned service, a python Agent with ``tools = "mcp"``, a langgraph
    factory taking ``mcp_url``)."""


def split_label(value: str) -> tuple[str | None, str]:
    """``(LABEL, SPEC)`` of ``LABEL=SPEC``; ``(None, value)`` when no label is given (an
    ``=`` after the first ``:`` belongs to the spec, e.g. a URL's query)."""
    head, sep, rest = value.partition("=")
    if sep and head and rest and ":" not in head:
        return head, rest
    return None, value


@dataclass(frozen=True, slots=True)
class CustomerSpec:
    label: str
    model: ModelConfig | None = None  # None: scripted


def parse_agent_spec(value: str, models: Mapping[str, ModelConfig]) -> AgentSpec:
    """Parse one ``--agent [LABEL=]SPEC`` value. Plug-ins are checked now, before any unit
    runs: a python factory is called once and its object must have an async
    ``step(context, history)``; a langgraph factory is called once and must return a
    compiled graph (a factory taking ``tools`` or ``mcp_url`` is checked by its signature
    only: both belong to a conversation).

    Raises:
        InputError: Unknown form, a bad ``http:`` URL, a target that does not import, or a
            plug-in of the wrong shape; the message names the spec and the problem.
    """
    given, spec = split_label(value)
    parsed = _parse_spec(spec, models)
    if given is not None:
        return replace(parsed, label=given, spec=spec, label_from="given")
    return parsed


def _parse_spec(spec: str, models: Mapping[str, ModelConfig]) -> AgentSpec:
    if spec == "oracle":
        return AgentSpec(spec, "oracle")
    if spec == CARELESS:
        return AgentSpec(spec, "careless")
    if spec.startswith("python:"):
        target = spec[len("python:") :]
        agent = _checked(spec, lambda: new_python_agent(target))
        return replace(_plugin(spec, "python", target, agent_name(agent)), mcp=asks_for_mcp(agent))
    if spec.startswith("langgraph:"):
        target = spec[len("langgraph:") :]
        if params := _checked(spec, lambda: factory_params(target)):
            return replace(_plugin(spec, "langgraph", target, None), mcp="mcp_url" in params)
        name = graph_name(_checked(spec, lambda: new_graph(target)))
        return _plugin(spec, "langgraph", target, name)
    if spec.startswith("http:"):
        url, _, model_id = spec[5:].partition("#")
        if not url.startswith(("http://", "https://")):
            raise InputError(f"--agent {spec!r}: expected http:http(s)://host/v1[#model]")
        if scrub_url_credentials(url) != url:  # the spec is the label in every record
            raise InputError(
                f"--agent {scrub_url_credentials(spec)!r}: no credentials in an agent spec (it "
                "is the agent's label, stored in every record); name the endpoint in the "
                "models file instead (base_url; api_key_env for a key)"
            )
        config = ModelConfig(
            name=spec, provider="openai", model=model_id or "agent", base_url=url, api_key_env=None
        )
        return AgentSpec(spec, "llm", model=config)
    model = parse_model_spec(spec, models)
    if model.owned:
        return AgentSpec(spec, "owned", model=model, mcp=True)
    return AgentSpec(spec, "llm", model=model)


def _checked(spec: str, check: Callable[[], T]) -> T:
    """``check()``, its InputError said once as ``--agent SPEC: problem``."""
    try:
        return check()
    except InputError as exc:
        target = spec.partition(":")[2]
        message = str(exc)
        for prefix in (f"{target!r}: ", f"{target}: ", f"{target} "):
            message = message.removeprefix(prefix)
        raise InputError(f"--agent {spec}: {message}") from exc.__cause__


def _plugin(spec: str, kind: AgentKind, target: str, name: str | None) -> AgentSpec:
    if name is None:
        return AgentSpec(spec, kind, target=target, spec=spec)
    return AgentSpec(name, kind, target=target, spec=spec, label_from="name")


def parse_customer_spec(spec: str, models: Mapping[str, ModelConfig]) -> CustomerSpec:
    """Parse ``--customer``. Raises InputError for an unknown spec, or an owned agent
    service (it answers as an agent, with its own prompt: it cannot play a Customer)."""
    if spec == "scripted":
        return CustomerSpec(spec)
    model = parse_model_spec(spec, models)
    if model.owned:
        raise InputError(
            f"--customer {spec}: an owned agent service (owned: true) cannot play the Customer"
        )
    return CustomerSpec(spec, model)


def build_agent(
    spec: AgentSpec, scenario: Scenario, caller_for: CallerFor, *, domain: Domain | None = None
) -> Agent:
    """A fresh Agent for one conversation of ``scenario`` (in ``domain``, which the
    careless Agent needs: it leaves out the domain's gate tools)."""
    if spec.kind == "oracle":
        return OracleAgent(scenario)
    if spec.kind == "careless":
        if domain is None:
            raise ValueError("the careless Agent is built with the scenario's domain")
        return CarelessAgent(scenario, domain.gates)
    if spec.kind == "python":
        return python_agent(spec.target, spec.label)
    if spec.kind == "langgraph":
        return langgraph_agent(spec.target, spec.label)
    assert spec.model is not None
    if spec.kind == "owned":
        return OwnedAgent(spec.label, caller_for(spec.model, "agent"))
    return LLMAgent(spec.label, caller_for(spec.model, "agent"))


def agent_context_for(spec: AgentSpec, context: AgentContext) -> AgentContext:
    """What ``spec``'s Agent is configured with in one conversation. An Agent that reaches
    its tools over MCP itself is shown no tool schemas (the MCP session lists them; the
    conversation sets ``mcp_url``), and an owned service no system prompt either: it
    brings its own. A langgraph factory keeps them: it is handed our tools only if it
    also takes ``tools``."""
    if not spec.mcp or spec.kind == "langgraph":
        return context
    return AgentContext("" if spec.kind == "owned" else context.system_prompt, ())


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
