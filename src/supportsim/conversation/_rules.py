"""ConversationRules: whose conventions a conversation is held by.

The orchestrator (``_graph.py``) and the unit runner (``batch/_unit.py``) hold every
conversation the same way and ask a ``ConversationRules`` object for what a benchmark may
change: the Agent's system prompt and opening message, the Customer, what the Customer sees,
the text a tool result reaches the Agent as, the bounds that end a conversation, and whether
its tools must run in process. ``SupportsimRules`` are ours (the default); a benchmark
imported from elsewhere brings its own (``supportsim.tau2``: tau2-bench's).

A benchmark's rules are a plug-in: ``register_rules`` names a zero-argument factory by
``"module:attribute"`` and says which scenarios the ``auto`` mode holds by them. The module
is imported only when a conversation uses the rules (``rules_for``), so a run without such a
scenario never imports the benchmark's package. The factory is looked up on every call, so
tests may replace it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from supportsim._imports import import_target
from supportsim.conversation._participants import Agent, Customer
from supportsim.conversation._prompts import agent_system_prompt
from supportsim.conversation._specs import CallerFor, CustomerSpec, build_customer
from supportsim.conversation._transcript import Message, Termination
from supportsim.domains import Domain
from supportsim.environment import ToolResult
from supportsim.scenario import Persona, Scenario

ConversationMode = Literal["auto", "supportsim", "tau2"]
"""``auto``: each scenario by the rules that claim it (``register_rules``; tau2's for
scenarios imported from tau2-bench), ours for every other scenario; ``supportsim`` or a
registered name: those rules for every scenario."""


class ConversationRules(Protocol):
    """What differs between benchmarks in how a conversation is held.

    Bounds: the run's ``Limits`` (max turns, a wall-clock timeout) hold for every rules;
    ``over_bounds`` adds a benchmark's own after each step, and ``ends_on_transfer`` /
    ``bounds_tool_rounds`` say whether ours (a successful transfer ends the conversation;
    ``Limits.max_tool_rounds`` tool rounds in one turn are a loop) apply.
    """

    @property
    def name(self) -> str:
        """The rules' name, as ``--conversation-mode`` spells it (errors name it)."""
        ...

    @property
    def greeting(self) -> str | None:
        """The Agent's fixed opening message (in its own history too), or None: the
        Customer opens."""
        ...

    @property
    def ends_on_transfer(self) -> bool:
        """A successful call of the transfer tool ends the conversation (``agent_transfer``)."""
        ...

    @property
    def bounds_tool_rounds(self) -> bool:
        """``Limits.max_tool_rounds`` tool rounds in one turn end it as an ``error``."""
        ...

    @property
    def needs_inprocess_tools(self) -> bool:
        """Tool texts and step counts are the rules' only when tools run in process (the
        run refuses ``--tools mcp`` and Agents that call their tools over MCP)."""
        ...

    def max_turns(self, scenario: Scenario) -> int:
        """The turn bound when the run sets none (``--max-turns`` binds whatever the rules)."""
        ...

    def agent_prompt(self, domain: Domain, scenario: Scenario) -> str:
        """The Agent's system prompt for ``scenario`` (built once per scenario)."""
        ...

    def build_customer(
        self,
        spec: CustomerSpec,
        scenario: Scenario,
        persona: Persona,
        domain: Domain,
        agent: Agent,
        caller_for: CallerFor,
    ) -> Customer:
        """A fresh Customer for one conversation."""
        ...

    def shows_customer(self, message: Message) -> bool:
        """Whether the Customer sees this Agent message's text (empty text is never shown)."""
        ...

    def tool_text(self, result: ToolResult) -> str:
        """The text a tool call's result reaches the Agent as."""
        ...

    def over_bounds(self, steps: int, errors: int) -> tuple[Termination, str] | None:
        """The end (termination, reason) the rules put after a step, or None: go on.
        ``steps``: messages so far, each batch of tool results one step (the greeting
        excluded); ``errors``: tool results that were errors."""
        ...


@dataclass(frozen=True, slots=True)
class SupportsimRules:
    """supportsim's conventions: the Customer opens; our prompt; the transfer tool ends the
    conversation; a turn of too many tool rounds is a loop; tool results as the Environment
    renders them; the Customer sees every Agent text."""

    name: str = "supportsim"
    greeting: str | None = None
    ends_on_transfer: bool = True
    bounds_tool_rounds: bool = True
    needs_inprocess_tools: bool = False

    def max_turns(self, scenario: Scenario) -> int:
        return scenario.max_turns

    def agent_prompt(self, domain: Domain, scenario: Scenario) -> str:
        return agent_system_prompt(domain, scenario)

    def build_customer(
        self,
        spec: CustomerSpec,
        scenario: Scenario,
        persona: Persona,
        domain: Domain,
        agent: Agent,
        caller_for: CallerFor,
    ) -> Customer:
        return build_customer(spec, scenario, persona, domain, agent, caller_for)

    def shows_customer(self, message: Message) -> bool:
        return bool(message.content)

    def tool_text(self, result: ToolResult) -> str:
        return result.content

    def over_bounds(self, steps: int, errors: int) -> tuple[Termination, str] | None:
        return None


SUPPORTSIM_RULES = SupportsimRules()


@dataclass(frozen=True, slots=True)
class RulesPlugin:
    """A benchmark's registered rules: ``target`` is ``"module:attribute"``, a zero-argument
    factory of its ``ConversationRules``; ``claims``: whether the ``auto`` mode holds a
    scenario by them (it must not need the module: it runs for every scenario)."""

    target: str
    claims: Callable[[Scenario], bool]

    def load(self) -> ConversationRules:
        factory: Callable[[], ConversationRules] = import_target(self.target)
        return factory()


_PLUGINS: dict[str, RulesPlugin] = {}


def register_rules(name: str, target: str, claims: Callable[[Scenario], bool]) -> None:
    """Register a benchmark's rules under ``name`` (a later registration replaces one)."""
    _PLUGINS[name] = RulesPlugin(target, claims)


# The one built-in plug-in: tau2-bench's conventions, for the scenarios it imported.
register_rules("tau2", "supportsim.tau2:conversation_rules", lambda s: s.tau2 is not None)


def rules_name(mode: str, scenario: Scenario) -> str:
    """The name of the rules ``scenario`` is held by under run mode ``mode``."""
    if mode != "auto":
        return mode
    for name, plugin in _PLUGINS.items():
        if plugin.claims(scenario):
            return name
    return SUPPORTSIM_RULES.name


def rules_for(mode: str, scenario: Scenario) -> ConversationRules:
    """The rules ``scenario`` is held by under run mode ``mode`` (a plug-in's module is
    imported here, on first use).

    Raises:
        KeyError: ``mode`` names no registered rules.
    """
    name = rules_name(mode, scenario)
    if name == SUPPORTSIM_RULES.name:
        return SUPPORTSIM_RULES
    return _PLUGINS[name].load()


__all__ = [
    "SUPPORTSIM_RULES",
    "ConversationMode",
    "ConversationRules",
    "RulesPlugin",
    "SupportsimRules",
    "register_rules",
    "rules_for",
    "rules_name",
]
