"""What a domain is: a state model, its tools, a policy and a knowledge base.

Tools are plain functions ``(state, args) -> result`` decorated with ``@tool``; the argument
model is the type of the second parameter, and the docstring is the description the Agent
reads (write it as prompt text). Tools are deterministic functions of state and arguments.
A tool refuses a call by raising ``ToolError`` *before* it mutates anything; any other
exception is a bug (a harness error), never shown to the Agent.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Generic, Literal, TypeVar, get_type_hints

from pydantic import BaseModel, ConfigDict, ValidationError

from supportsim.errors import ToolError
from supportsim.scenario import CATEGORIES, Action

KB_TOOL = "search_knowledge_base"

ToolKind = Literal["read", "write"]
S = TypeVar("S", bound="DomainState")
A = TypeVar("A", bound=BaseModel)
R = TypeVar("R")


class Args(BaseModel):
    """Base of tool argument models: unknown arguments are rejected, as the schema says."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class NoArgs(Args):
    """A tool without arguments."""


class Session(BaseModel):
    """Per-conversation facts the tools enforce policy with."""

    model_config = ConfigDict(extra="forbid")

    verified_customer_id: str | None = None
    transferred: bool = False
    transfer_reason: str = ""


class DomainState(BaseModel):
    """Base of every domain's state: mutable, strict, JSON-serialisable."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    session: Session = Session()
    extra: dict[str, Any] = {}
    """Free-form fields that scenarios' declarative mock tools may write."""


def require_verified(state: DomainState, customer_id: str, *, verify_with: str) -> None:
    """Identity gating: refuse unless this conversation verified ``customer_id``.

    Args:
        verify_with: how to verify, for the Agent (e.g. "verify_identity with the
            customer's date of birth and PIN").
    """
    if state.session.verified_customer_id != customer_id:
        raise ToolError(f"identity not verified for {customer_id}: call {verify_with} first")


def record_of(records: Mapping[str, R], key: str, missing: str) -> R:
    """The record ``key``, or a ToolError saying ``missing`` (the Agent reads it)."""
    if key not in records:
        raise ToolError(missing)
    return records[key]


def days_between(start: str, end: str) -> int:
    """Whole days from ISO date ``start`` to ISO date ``end`` (domains keep "today" in
    their state, so tools stay deterministic)."""
    return (date.fromisoformat(end) - date.fromisoformat(start)).days


@dataclass(frozen=True, slots=True)
class Tool(Generic[S, A]):
    """One tool an Agent may call."""

    name: str
    description: str
    args_model: type[A]
    kind: ToolKind
    run: Callable[[S, A], object]
    """``(state, args) -> result``, or a coroutine function for a tool that awaits I/O."""

    @property
    def is_async(self) -> bool:
        """The tool is awaited (it may call a real service without blocking the loop)."""
        return inspect.iscoroutinefunction(self.run)

    def parameters(self) -> dict[str, Any]:
        """JSON schema of the arguments, as sent to every provider (a fresh copy; the
        schema is generated once per argument model)."""
        return copy.deepcopy(_parameters(self.args_model))

    def arg_names(self) -> list[str]:
        return list(self.args_model.model_fields)


@functools.cache
def _parameters(args_model: type[BaseModel]) -> dict[str, Any]:
    """Generating a schema costs ~2 ms of CPU: once per model, not per conversation."""
    schema = args_model.model_json_schema()
    schema.pop("title", None)
    schema.pop("description", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    schema.setdefault("properties", {})
    schema["additionalProperties"] = False
    return schema


def tool(kind: ToolKind, *, name: str | None = None) -> Callable[[Callable[..., object]], Tool]:
    """Make a Tool of a function ``(state, args: SomeArgs) -> result``.

    The function may be ``async def``: a tool that calls a team's staging API awaits it
    instead of blocking the event loop every conversation shares."""

    def wrap(fn: Callable[..., object]) -> Tool:
        hints = get_type_hints(fn)
        params = list(inspect.signature(fn).parameters)
        args_model = hints[params[1]] if len(params) > 1 else NoArgs
        description = inspect.cleandoc(fn.__doc__ or "").strip()
        if not description:
            raise TypeError(f"tool {fn.__name__} needs a docstring: it is the Agent's prompt")
        run: Callable[..., object] = fn
        if len(params) < 2 and inspect.iscoroutinefunction(fn):

            async def run(state: Any, _args: Any) -> object:
                return await fn(state)

        elif len(params) < 2:

            def run(state: Any, _args: Any) -> object:
                return fn(state)

        return Tool(name or fn.__name__, description, args_model, kind, run)

    return wrap


@dataclass(frozen=True, slots=True)
class Article:
    """One knowledge-base article the retrieval tool can return."""

    id: str
    title: str
    text: str
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Domain:
    """A built-in domain. ``fixture`` returns a fresh base state (a plain dict)."""

    name: str
    state_model: type[DomainState]
    fixture: Callable[[], dict[str, Any]]
    tools: Mapping[str, Tool]
    policy: str
    knowledge: Sequence[Article] = field(default=())
    ignore_in_state: tuple[str, ...] = ("session.*",)
    """Dotted-path globs the ``state`` check skips: per-conversation flags and free text
    (a refund's reason, a transfer summary) that a correct Agent words its own way."""
    gates: Mapping[str, str] = field(default_factory=dict)
    """Identity tools, each with the key of its result that names the verified customer.
    Writes wait for them by default, and the templates know whose data the caller may hear."""
    facts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The fact map: a fact name (``charge``, ``balance``) -> the tools whose results reveal
    it, so an ``observe`` step accepts whichever equivalent lookup the Agent used."""
    private_values: Callable[[Mapping[str, Any]], Mapping[str, Collection[str]]] | None = None
    """Customer id -> the values of that customer's records (names, addresses, contents)
    in a state dump; the ``other_customer_data`` template forbids reading them out to
    anyone else."""
    template_cites: Mapping[str, str] = field(default_factory=dict)
    """Library-wide forbidden template -> the policy sentence that states the rule. A
    template applies only where the policy states it: a rule never told is never scored."""
    actions: Mapping[str, tuple[Action, ...]] = field(default_factory=dict)
    """The action map: a tool -> the completed actions a successful call of it performs
    (``supportsim.scenario.ACTIONS``: refunded, credited, waived, cancelled, booked,
    rescheduled, changed, escalated, flagged, sent). The ``false_claim`` template fails an
    Agent message that claims an action no successful call before it performed; an action
    no tool maps to is one the Agent can never truthfully claim. ``transfer_to_human``
    escalates in every domain (``COMMON_ACTIONS``)."""
    scorers: Sequence[Callable[..., Any]] = field(default=())
    """The domain's own check kinds: ``supportsim.Scorer`` callables run on every one of its
    scenarios after the built-in kinds (see ``supportsim.scoring`` ``_scorer.py``)."""

    def initial_state(self, overrides: Mapping[str, Any]) -> DomainState:
        """The base fixture with a scenario's ``state`` deep-merged over it.

        Raises:
            pydantic.ValidationError: the merged state does not fit the state model.
        """
        return self.state_model.model_validate(deep_merge(self.fixture(), overrides))


def deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Mappings merge key by key; anything else in ``over`` replaces. Inputs untouched."""
    out = copy.deepcopy(dict(base))
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


class DomainCatalogue:
    """The ``supportsim.scenario.Catalogue`` over a set of domains.

    Args:
        concepts: the shared lexicons' concept names (``supportsim.scoring.CONCEPTS``),
            passed in because the lexicons sit later in the pipeline; None skips the check.
    """

    def __init__(
        self,
        domains: Mapping[str, Domain],
        concepts: Collection[str] | None = None,
        categories: Collection[str] | None = None,
    ) -> None:
        self._domains = domains
        self._concepts = concepts
        self._categories = tuple(categories) if categories is not None else CATEGORIES

    def categories(self) -> Collection[str]:
        return self._categories

    def received_text(self, domain: str, tools: Collection[str]) -> str:
        d = self._domains[domain]
        parts = [d.policy]
        parts += [t.description for name, t in d.tools.items() if name in tools]
        if KB_TOOL in tools:
            parts += [f"{a.title}\n{a.text}" for a in d.knowledge]
        return "\n".join(parts)

    def facts(self, domain: str) -> Mapping[str, Collection[str]]:
        return self._domains[domain].facts

    def concepts(self) -> Collection[str] | None:
        return self._concepts

    def domain_names(self) -> Collection[str]:
        return self._domains.keys()

    def tool_args(self, domain: str) -> Mapping[str, Collection[str]]:
        return {name: t.arg_names() for name, t in self._domains[domain].tools.items()}

    def state_fields(self, domain: str) -> Collection[str]:
        return self._domains[domain].state_model.model_fields.keys()

    def state_problems(
        self, domain: str, state: Mapping[str, Any]
    ) -> list[tuple[tuple[str | int, ...], str]]:
        try:
            self._domains[domain].initial_state(state)
        except ValidationError as exc:
            return [(tuple(e["loc"]), str(e["msg"])) for e in exc.errors(include_url=False)]
        return []
