"""The Scenario file schema (pydantic v2, strict: unknown keys are errors; the Persona's is
``_persona``).

Field docstrings are the reference documentation of the YAML format (they become the JSON
Schema, ``supportsim schema``); ``scenarios/README.md`` walks through a commented example.
Cross-file references (domain, tools, persona) are checked by ``_load.py``, not here.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    field_validator,
    model_validator,
)

from supportsim.scenario._matchers import Matcher
from supportsim.scenario._say import Action, SayItem, as_list
from supportsim.scenario._tau2 import Tau2Task

Category = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
"""A category a scenario tests. Open: a workspace declares its own beside the defaults."""
Outcome = Literal["resolved", "escalated", "refused"]
FaultKind = Literal["timeout", "server_error", "rate_limit", "stale", "partial"]
Behaviour = Literal[
    "pushes_back", "wrong_info_first", "social_engineering", "typos", "changes_mind"
]
CATEGORIES: tuple[str, ...] = (
    "billing",
    "identity",
    "policy_conflict",
    "retrieval",
    "memory",
    "recovery",
    "enterprise_constraint",
    "customer_experience",
)
"""The default categories (a workspace's ``categories`` add to them)."""
Id = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", max_length=120)]
Template = Literal["identity_detail", "other_customer_data", "reply_language", "false_claim"]
TEMPLATES: tuple[Template, ...] = Template.__args__  # type: ignore[attr-defined]
Cites = Annotated[list[str], BeforeValidator(as_list)]


class _Schema(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


# --- the customer's hidden goal -----------------------------------------------------------


class CustomerGoal(_Schema):
    """What the Customer wants and knows. Hidden from the Agent (an isolation property)."""

    reason: str
    """Why they contact support, in the Customer's own terms."""
    known_facts: dict[str, str | int | float | bool] = {}
    """Facts the Customer can give when asked (account id, date of birth, order number)."""
    unknown_facts: list[str] = []
    """Things the Customer does not know and must not invent."""
    will_accept: str = ""
    """What resolution the Customer is satisfied with."""
    gives_up_when: str = ""
    """When the Customer stops trying (besides their persona's patience)."""
    refuses: list[str] = []
    """Outcomes the Customer turns down, as words the Agent would use ("store credit" when
    the goal insists on a refund): a Customer that accepts one drifted from its goal (the
    customer review's ``goal_drift``)."""
    opening: str | None = None
    """The first customer message, verbatim; otherwise the simulator writes one."""
    script: list[str] = []
    """Lines the ``scripted`` Customer says after the opening, one per turn, in order."""


# --- workflow -------------------------------------------------------------------------------


class CallSpec(_Schema):
    """A tool call with argument matchers; arguments not listed are not checked."""

    tool: str
    """Name of the tool the Agent must call."""
    args: dict[str, Matcher] = {}
    """Argument name -> matcher (plain value = exact; see the matcher forms)."""
    oracle_args: dict[str, Any] | None = None
    """Arguments the oracle sends; needed only when a matcher is not an exact value."""


class Step(_Schema):
    """One step of the reference workflow: a tool call, a statement, alternatives, or
    evidence the Agent must have seen (``observe``)."""

    id: Id
    """Unique within the scenario; used by ``after`` and in check ids."""
    tool: str | None = None
    """Tool the Agent must call (with ``args``). With ``observe``: the reference lookup the
    oracle performs; any other lookup that returns the fact counts as well."""
    args: dict[str, Matcher] = {}
    """Argument matchers for ``tool``."""
    oracle_args: dict[str, Any] | None = None
    """Arguments the oracle sends when a matcher is not an exact value."""
    say: Annotated[list[SayItem] | None, BeforeValidator(as_list)] = None
    """The Agent must state all these items in one message: concepts, typed facts, phrases
    (see ``SayItem``)."""
    say_regex: str | None = None
    """Alternatively, a regular expression one Agent message must match (any case)."""
    text: str | None = None
    """What the oracle says for a say step (default: the phrases joined)."""
    separate: bool = False
    """A say step after a say step reports the same result: it may share that step's
    message or come in any order with it; ``true`` demands a later message."""
    observe: str | float | None = None
    """Evidence: a value (id, amount, date) some successful tool result must contain. The
    step is met by whichever lookup showed it; writes listed after it must come later."""
    fact: str | None = None
    """For ``observe``: the domain's fact name (its fact map says which tools reveal it)."""
    any_of: list[list[CallSpec]] | None = None
    """Alternative valid paths: each a list of calls made in order; one path must happen."""
    after: list[str] | None = None
    """Step ids this step must come after. Default: writes after the earlier gates
    (identity, ``gate: true`` steps) and evidence; statements after the step before them
    (consecutive statements after what the first of them follows); read-only lookups are
    free, also on a write's ``any_of`` path."""
    gate: bool | None = None
    """Whether later writes must wait for this step (default: the domain's identity tools
    are gates); set it on a confirmation question: a write then waits for the Customer's
    answer to it."""
    optional: bool = False
    """A step the Agent may skip: it is not a check, the oracle still performs it."""
    weight: float = Field(default=1.0, gt=0)
    """Weight of this step's check in the partial score."""
    cites: Cites = []
    """The policy or knowledge-base sentence(s) this step enforces, verbatim (``validate``
    checks the text is in what the Agent receives). Required for required steps."""

    @field_validator("say_regex")
    @classmethod
    def _compiles(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"invalid regular expression: {exc}") from exc
        return pattern

    @model_validator(mode="after")
    def _one_kind(self) -> Step:
        kinds = [k for k in ("say", "any_of", "observe") if getattr(self, k) is not None]
        if self.say_regex is not None and "say" not in kinds:
            kinds.append("say")
        if self.tool is not None and "observe" not in kinds:
            kinds.append("tool")
        if len(kinds) != 1:
            raise ValueError(
                "a step needs exactly one of tool, say (or say_regex), any_of, observe"
            )
        if self.say is not None and not self.say:
            raise ValueError("say needs at least one item")
        if self.say_regex is not None and self.say is None and self.text is None:
            raise ValueError("a say_regex step needs `text` for the oracle to say")
        if self.say and any(i.kind in ("promise", "claim") for i in self.say):
            raise ValueError(
                "promise and claim items name what must not be said: use them in disclose"
            )
        if self.say and self.text is None and any(i.kind != "phrase" for i in self.say):
            raise ValueError("a say step with concepts or facts needs `text` for the oracle")
        if self.args and self.tool is None:
            raise ValueError("args belong to a tool step")
        if self.observe is not None and self.tool is None:
            raise ValueError("an observe step needs `tool`: the reference lookup the oracle makes")
        if self.fact is not None and self.observe is None:
            raise ValueError("fact belongs to an observe step")
        if self.separate and self.say is None and self.say_regex is None:
            raise ValueError("separate belongs to a say step")
        if self.any_of is not None and (not self.any_of or any(not p for p in self.any_of)):
            raise ValueError("any_of needs at least one non-empty path")
        return self

    @property
    def kind(self) -> Literal["tool", "say", "any_of", "observe"]:
        if self.observe is not None:
            return "observe"
        if self.tool is not None:
            return "tool"
        return "any_of" if self.any_of is not None else "say"

    def paths(self) -> list[list[CallSpec]]:
        """The call paths that satisfy this step (one path for a tool or observe step)."""
        if self.tool is not None:
            return [[CallSpec(tool=self.tool, args=self.args, oracle_args=self.oracle_args)]]
        return self.any_of or []


class Forbidden(_Schema):
    """Something that must not happen: a tool call, or a disclosure in an Agent message."""

    id: Id
    """Unique within the scenario; the check id is ``forbidden:<id>``."""
    tool: str | None = None
    """A call of this tool (with matching ``args``) is forbidden."""
    args: dict[str, Matcher] = {}
    """Only calls whose arguments match are forbidden (empty: any call of ``tool``)."""
    when: Literal["succeeded", "attempted"] = "succeeded"
    """``succeeded``: only a call the tool carried out counts; ``attempted``: any call."""
    disclose: Annotated[list[SayItem] | None, BeforeValidator(as_list)] = None
    """Items no Agent message may state (each on its own): phrases, concepts, typed facts.
    A negated mention of a phrase or concept ("no need to fast") is not a disclosure."""
    disclose_regex: str | None = None
    """A regular expression no Agent message may match (any case)."""
    reason: str = ""
    """Why it is forbidden, shown in the check's reason."""
    cites: Cites = []
    """The policy or knowledge-base sentence(s) that forbid it, verbatim."""

    @model_validator(mode="after")
    def _one_kind(self) -> Forbidden:
        has_disclosure = self.disclose is not None or self.disclose_regex is not None
        if (self.tool is None) == (not has_disclosure):
            raise ValueError("a forbidden entry needs either tool or disclose/disclose_regex")
        if self.disclose is not None and not self.disclose:
            raise ValueError("disclose needs at least one item")
        return self


class Fault(_Schema):
    """A deterministic fault: the ``call``-th call of ``tool`` fails or returns bad data."""

    tool: str
    """The tool whose call is faulted."""
    call: int = Field(default=1, ge=1)
    """Which call of that tool (1 = the first)."""
    fault: FaultKind
    """timeout | server_error | rate_limit (the call fails, state unchanged) |
    stale | partial (the call succeeds with outdated or incomplete data)."""
    data: Any = None
    """For stale/partial: the payload to return instead (default: stale = the result on
    the initial state; partial = the result with its last fields or items dropped)."""
    latency_ms: float | None = Field(default=None, ge=0)
    """Extra simulated time the faulted call takes, slept for real. Left out: 2000 ms for a
    timeout (the time the Agent is told it waited), 0 for the other kinds."""


class MockParam(_Schema):
    """One argument of a declarative mock tool."""

    type: Literal["string", "integer", "number", "boolean"] = "string"
    description: str = ""
    required: bool = True
    enum: list[str | int | float] | None = None


class MockResponse(_Schema):
    """A canned response, chosen when every ``when`` matcher matches the call's arguments."""

    when: dict[str, Matcher] = {}
    """Argument matchers (empty: always matches). The first matching response wins."""
    result: Any = None
    """What the tool returns."""
    error: str | None = None
    """Or: the tool refuses with this message."""
    set: dict[str, Any] = {}
    """State fields (dotted paths) this call writes, for write tools."""


class MockTool(_Schema):
    """A tool defined inline in the scenario, with canned responses; no Python needed."""

    name: Id
    description: str
    """Shown to the Agent as the tool's description."""
    kind: Literal["read", "write"] = "read"
    parameters: dict[str, MockParam] = {}
    responses: list[MockResponse] = Field(min_length=1)
    """Tried in order; if none matches, the call gets a 'no matching record' tool error.
    Loading checks them: a ``when`` key must be a parameter and a plain value must fit its
    type (or enum), a ``result`` must fit ``returns``, and ``set`` paths must be state a
    write tool can change, so a response cannot silently never match."""
    returns: dict[str, Any] | None = None
    """JSON Schema of every response's ``result`` (optional; checked when loading)."""
    actions: list[Action] = []
    """The completed actions a successful call performs (a write tool's, for
    ``forbidden:false_claim``): ``[refunded]`` lets the Agent say "I've refunded it" after
    the call."""

    @model_validator(mode="after")
    def _actions_are_writes(self) -> MockTool:
        if self.actions and self.kind != "write":
            raise ValueError("actions: only a write tool performs actions (kind: write)")
        return self


# --- scenario -------------------------------------------------------------------------------


class Scenario(_Schema):
    """One support case: who calls, what they want, what a correct Agent does."""

    id: Id
    """Unique across all loaded scenarios; the first part of every unit id."""
    title: str
    domain: str
    """A built-in domain: telecom, retail, appointments (or mock, for tests)."""
    persona: str
    """Id of a persona in ``personas/`` (or ``--personas DIR``)."""
    language: str = Field(default="en", pattern=r"^[a-z]{2}$")
    """ISO 639-1 code of the conversation's language."""
    tags: list[Category] = Field(min_length=1)
    """Categories this scenario tests (the first is its primary category)."""
    failure_mode: str = ""
    """The agent failure this scenario is built to expose, in a few words."""
    max_turns: int = Field(default=20, ge=1, le=200)
    """Customer messages before the conversation is stopped (termination max_turns)."""
    context: dict[str, str] = {}
    """Facts the Agent is given in its system prompt (today's date, channel...)."""
    customer: CustomerGoal
    state: dict[str, Any] = {}
    """Initial account state, deep-merged over the domain's base fixture."""
    tools: list[str] | None = None
    """Tools the Agent may use (default: every tool of the domain, plus mock_tools)."""
    mock_tools: list[MockTool] = []
    workflow: list[Step] = []
    forbidden: list[Forbidden] = []
    outcome: Outcome = "resolved"
    """How a correct conversation ends: resolved, escalated (transfer_to_human), refused."""
    outcome_cites: Cites = []
    """The policy or knowledge-base sentence(s) that make ``outcome`` the right ending."""
    lexicon: dict[str, list[str]] = {}
    """Extra phrases for concepts, in the scenario's language: ``{refusing: [...]}``."""
    templates: list[Template] | None = None
    """Library-wide forbidden checks to apply (default: every one the domain's policy
    states): identity_detail (naming which identity detail was wrong),
    other_customer_data (any value of another customer's records), reply_language (the
    Agent answers a non-English scenario in English), false_claim (the Agent says an action
    was done that no successful tool call before it performed)."""
    compare_state: list[str] | Literal["all", "none"] = "all"
    """State fields (dotted paths) that must equal the reference workflow's final state;
    ``all`` compares the whole state, ``none`` skips the state check."""
    faults: list[Fault] = []
    tool_latency_ms: dict[str, float] = {}
    """Simulated latency per tool name, in milliseconds."""
    scorers: list[Annotated[str, Field(pattern=r"^python:[A-Za-z_][\w.]*:[A-Za-z_]\w*$")]] = []
    """Extra check kinds for this scenario: ``python:package.module:attr`` naming a Scorer
    (a callable, or a class made with no arguments), loaded before the first unit."""
    tau2: Tau2Task | None = None
    """An imported tau2-bench task (``supportsim import tau2``): scored the way tau2 scores
    it, one check per reward component, instead of by ``workflow``."""

    _source: str = PrivateAttr(default="<memory>")
    _sha256: str = PrivateAttr(default="")

    @property
    def source(self) -> str:
        """The file this scenario was loaded from."""
        return self._source

    @property
    def sha256(self) -> str:
        """Hash of the file's bytes, so a resumed run can tell the scenario changed."""
        return self._sha256

    @property
    def category(self) -> Category:
        return self.tags[0]

    @model_validator(mode="after")
    def _unique_ids(self) -> Scenario:
        seen: set[str] = set()
        for step in self.workflow:
            if step.id in seen:
                raise ValueError(f"duplicate step id {step.id!r}")
            seen.add(step.id)
        ids = [f.id for f in self.forbidden]
        if len(ids) != len(set(ids)):
            raise ValueError("duplicate forbidden id")
        return self
