"""The run configuration: a YAML file under ``runs/`` that command-line flags override."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_serializer,
    field_validator,
    model_validator,
)

from supportsim._yaml import read_yaml
from supportsim.batch._concurrency import Concurrency
from supportsim.batch._concurrency import check as check_concurrency
from supportsim.batch._gates import thresholds_from
from supportsim.batch._names import MAX_RUN_NAME, segment_problem, slug
from supportsim.conversation import ConversationMode, ToolsMode
from supportsim.errors import Problem, ScenarioError
from supportsim.llm import RateLimit, RetryPolicy
from supportsim.store import MAX_TRIALS

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)?\s*$")
_UNIT_S = {None: 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


AUTO_JUDGE = "auto"
"""``statement_judge`` default: the (first LLM) Customer's model, else rules only."""


def chosen_statement_judge(config: RunConfig) -> str | None:
    """The statement judge ``config`` asks for, ``auto`` resolved: a model spec or
    models-file name, or None (rules only)."""
    if config.statement_judge != AUTO_JUDGE:
        return config.statement_judge
    models = [c for c in config.customer if c != "scripted"]
    return models[0] if models else None


def parse_duration(value: object) -> float:
    """Seconds from a number or a string like ``90``, ``90s``, ``30m``, ``8h``."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    match = _DURATION.match(str(value))
    if match is None:
        raise ValueError(f"expected seconds or a duration like 30m or 8h, got {value!r}")
    return float(match.group(1)) * _UNIT_S[match.group(2)]


class RunConfig(BaseModel):
    """What to run. Every field can be set in the file; flags override the file."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    name: str = "run"
    """Readable name; the default run id is ``<name>-<UTC date and time>``, so it is one
    folder name: letters, digits, ``.``, ``_`` and ``-``, starting with a letter or digit."""
    scenarios: list[str] = ["scenarios"]
    """Scenario files or folders."""
    personas: str = "personas"
    """Folder of persona files."""
    categories: list[str] = []
    """Categories beside the eight defaults (a workspace's are added when the run starts,
    and stored with it, so ``rescore`` and ``judge`` accept the same scenarios)."""
    domains: list[str] = []
    """Domains beside the built-in and the workspace's: folders with ``domain.yaml`` or
    ``python:package.module:attr`` (stored absolute with the run)."""
    tags: list[str] = []
    """Keep scenarios having any of these categories (empty: all)."""
    ids: list[str] = []
    """Keep only these scenario ids (empty: all)."""
    suite: str | None = None
    """A named selection from ``scenarios/suites.yaml``."""
    models_file: str | None = None
    """YAML file of named models (provider, model, base_url, prices, rate limits)."""
    agents: list[str] = ["oracle"]
    """Agents under test: oracle, careless, openai:M, anthropic:M, a models-file name, http:URL,
    python:module:attr, langgraph:module:attr; ``LABEL=SPEC`` names one in the results."""
    customer: list[str] = ["scripted"]
    """The simulated Customer: scripted, or a model spec; a list of them plays every
    (scenario, persona, trial) under each Customer for every Agent, paired, and the
    report shows how much the choice of Customer moves the scores and the ranking. One
    string is one Customer (and is stored as one string, as before lists)."""
    customer_seed: int | None = 0
    """The run's seed setting for the Customer's model: each (scenario, persona, trial)
    gets its own seed derived from it (``customer_seed``), sent with every Customer call
    to a provider that takes one (OpenAI-compatible ``seed``; Anthropic takes none) and
    kept in the unit's record; the same for every Agent and Customer. null: send none
    (a models file's ``params.seed`` then stands)."""
    replay_customer: str | None = None
    """A stored run directory whose Customer replies are reused, unit by unit (same
    scenario, Agent label, Customer and trial), for as long as the new conversation
    follows the stored one; the Customer's model is called from the first divergence
    (``conversation.ReplayCustomer``)."""
    trials: int = Field(default=1, ge=1, le=MAX_TRIALS)
    """Conversations per scenario and agent (each a unit ``scenario|agent|trial``); pass^k
    is reported for k up to this."""
    concurrency: int | str = 8
    """Conversations in flight at once (1 to 4096), or ``auto`` / ``auto:N``: start at 16,
    back off while the event loop's lag p99 is over 10 ms (latencies measured on a lagging
    loop are inflated), grow while it keeps up, never past N (``auto`` alone: 1024). See
    ``Concurrency`` (``batch/_concurrency.py``): the one value every part reads."""
    workers: int | Literal["auto"] = "auto"
    """Processes running conversations: a number (1: in this process), or ``auto``: the
    usable cores, but one process when there are fewer than ``UNITS_PER_WORKER`` units to
    run per extra core (docs: guide/scale.md)."""
    worker_ready_s: float = Field(default=180.0, gt=0)
    """How long a worker (process or Ray actor) may take to start and set up before it is
    killed and replaced (docs: guide/scale.md)."""
    worker_silence_s: float | None = Field(default=None, gt=0)
    """A worker that sends nothing for this long (stopped, hung, its loop blocked) is
    killed and its units run elsewhere; default ``timeout_s`` + 60 s."""
    ray: str | None = None
    """Run the workers as Ray actors: ``local`` (start a local cluster), ``auto`` or a
    ``ray.init`` address such as ``ray://host:10001`` (needs ``supportsim[ray]``)."""
    rate_limits: dict[str, RateLimit] = {}
    """Keyed by provider (``openai``, ``anthropic``: each of its endpoints), by base URL
    (one endpoint) or by model name (that model alone). Customer and Agent calls share an
    endpoint's limits. Unset, an endpoint takes its models-file ``rate_limit``."""
    max_turns: int | None = Field(default=None, ge=1)
    """Override every scenario's max_turns."""
    timeout_s: float = Field(default=600.0, gt=0)
    """Wall-clock bound of one conversation."""
    conversation_mode: ConversationMode = "auto"
    """``auto``: tau2-bench's conversation conventions (prompts, greeting, stop tokens, tool
    texts, 200 steps) for scenarios imported from tau2, ours for the others; ``supportsim``
    or ``tau2``: that mode for every scenario."""
    call_timeout_s: float | None = Field(default=None, gt=0)
    """Bound of one model call (default: each model's timeout_s)."""
    retries: RetryPolicy = RetryPolicy(max_attempts=6, max_delay_s=60.0)
    """Retries of one model call (429, 5xx, connection errors, timeouts)."""
    budget_usd: float | None = Field(default=None, ge=0)
    """Stop starting units when spend would exceed this."""
    deadline_s: float | None = Field(default=None, gt=0)
    """Stop starting units this long after the start (seconds, or 30m, 8h)."""
    out: str = "runs"
    """Parent folder of run directories."""
    fail_under: dict[str, float] = {}
    """Quality gates per agent, e.g. ``{strict: 0.8, partial: 0.9}`` (or the string
    ``strict=0.8,partial=0.9``; ``pass^K`` too): the run exits 1 when an agent is below
    one. ``--fail-under`` replaces the file's gates."""
    tools: ToolsMode = "inprocess"
    """How the built-in Agents reach their tools: ``inprocess``, ``mcp`` (an MCP client
    over streamable HTTP to the conversation's MCP server) or ``mcp-stdio`` (the same
    through ``supportsim mcp-stdio`` spawned over stdio). Scores do not depend on it."""
    assertion_judge: str | None = None
    """Model spec of the judge of imported tau2 tasks' NL_ASSERTION component (tau2 uses
    openai:gpt-4.1), called at temperature 0; unset, those tasks are not fully scored."""
    statement_judge: str | None = AUTO_JUDGE
    """The statement judge of the communication checks (say steps, forbidden disclosures,
    the templates): a model spec or models-file name; ``none``: rules only; ``auto``
    (default): the Customer's model when the Customer is an LLM, else none. The run
    stores the choice made (null: rules only)."""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if (problem := segment_problem(value, MAX_RUN_NAME)) is not None:
            raise ValueError(problem)
        return value

    @field_validator("customer", mode="before")
    @classmethod
    def _customer(cls, value: Any) -> Any:
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list):
            return values  # pydantic says what is wrong
        if not values:
            raise ValueError("at least one Customer: scripted or a model spec")
        seen: set[str] = set()
        for spec in values:
            if not isinstance(spec, str):
                continue
            if not spec.strip():
                raise ValueError("a Customer spec must not be empty")
            if "|" in spec:  # the separator of unit ids (``store.unit_key``)
                raise ValueError(f"{spec!r}: a Customer spec cannot contain '|'")
            if spec in seen:
                raise ValueError(f"{spec!r} is given twice; give each Customer once")
            seen.add(spec)
        return values

    @field_serializer("customer")
    def _one_customer(self, value: list[str]) -> str | list[str]:
        # One Customer is stored as the string it always was: run.json, fingerprints and
        # every reader of older runs see the same value.
        return value[0] if len(value) == 1 else list(value)

    @field_validator("concurrency", mode="before")
    @classmethod
    def _concurrency(cls, value: Any) -> Any:
        return check_concurrency(value)

    @property
    def bounds(self) -> Concurrency:
        """What ``concurrency`` means: start, floor, ceiling, auto or not
        (``Concurrency.of``). A session reads it once (``prepare_run``) and passes the
        value down as ``Session.concurrency``."""
        return Concurrency.of(self.concurrency)

    @field_validator("workers", mode="before")
    @classmethod
    def _workers(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if value != "auto" and (
            isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1024
        ):
            raise ValueError(f"must be a number from 1 to 1024, or auto (got {value!r})")
        return value

    @field_validator("ray")
    @classmethod
    def _ray(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("an address (auto, ray://host:10001) or local")
        return value

    @field_validator("fail_under", mode="before")
    @classmethod
    def _fail_under(cls, value: Any) -> Any:
        return thresholds_from(value)

    @model_validator(mode="after")
    def _gates_fit_trials(self) -> RunConfig:
        for name in self.fail_under:
            if name.startswith("pass^") and int(name[5:]) > self.trials:
                raise ValueError(
                    f"fail_under: {name} needs at least {name[5:]} trials (trials is {self.trials})"
                )
        return self

    @field_validator("statement_judge", mode="before")
    @classmethod
    def _statement_judge(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            if not value:
                raise ValueError("a model spec, a models-file name, auto or none")
            if value.lower() == "none":
                return None
        return value

    @field_validator("deadline_s", mode="before")
    @classmethod
    def _deadline(cls, value: Any) -> Any:
        return None if value is None else parse_duration(value)

    @field_validator("customer_seed", mode="before")
    @classmethod
    def _customer_seed(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if text.lower() == "none":
                return None
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"a whole number or none (got {value!r})") from None
        return value


class RunFlags(BaseModel):
    """``supportsim run``'s flags that set a :class:`RunConfig` field, as the command line
    gives them (None: not given, the config's value stands). Each field is the RunConfig
    field of the same name (``tests/batch/test_run_flags.py`` holds the names and that the
    CLI's options reach it), so a flag
    is one typed field from argv to the runner: typer -> ``RunFlags`` -> ``RunRequest`` ->
    ``with_overrides`` -> ``RunConfig``, validated there with the config's own rules."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    scenarios: list[str] | None = None
    tags: list[str] | None = None
    ids: list[str] | None = None
    suite: str | None = None
    agents: list[str] | None = None
    customer: list[str] | None = None
    """``--customer``, once or more."""
    customer_seed: str | None = None
    """A number, or ``none``: ``RunConfig.customer_seed`` reads it."""
    replay_customer: str | None = None
    trials: int | None = None
    concurrency: str | None = None
    """A number, ``auto`` or ``auto:N``: ``RunConfig.concurrency`` reads it."""
    workers: str | None = None
    ray: str | None = None
    budget_usd: float | None = None
    deadline_s: str | None = None
    """Seconds, or ``30m``, ``8h``: ``RunConfig.deadline_s`` reads it."""
    max_turns: int | None = None
    timeout_s: float | None = None
    conversation_mode: str | None = None
    models_file: str | None = None
    personas: str | None = None
    out: str | None = None
    fail_under: dict[str, float] | None = None
    tools: str | None = None
    assertion_judge: str | None = None
    statement_judge: str | None = None

    def given(self) -> dict[str, Any]:
        """The flags given, by RunConfig field name."""
        return {k: v for k, v in self.model_dump().items() if v is not None}


def with_overrides(
    config: RunConfig, overrides: RunFlags | Mapping[str, Any] | None = None
) -> RunConfig:
    """``config`` with every non-None override applied and validated (flags win).

    Raises:
        InputError: An override is invalid; the message names the flag's field.
    """
    if isinstance(overrides, RunFlags):
        given = overrides.given()
    else:
        given = {k: v for k, v in (overrides or {}).items() if v is not None}
    try:  # unset fields stay unset: the workspace fills them (batch/_prepare.py)
        return RunConfig.model_validate({**config.model_dump(exclude_unset=True), **given})
    except ValidationError as exc:
        raise ScenarioError(
            [
                Problem("command line", ".".join(str(p) for p in e["loc"]), e["msg"])
                for e in exc.errors(include_url=False)
            ]
        ) from None


def load_run_config(path: Path) -> RunConfig:
    """Parse a run config file.

    Raises:
        ScenarioError: Every problem, each naming the file, line and field: unreadable or
            invalid YAML, the reader's limits, a key given twice (never "the last one
            wins"), unknown fields, bad values (an InputError: exit code 2).
    """
    doc, problems = read_yaml(path)
    if doc is None:
        raise ScenarioError(problems)
    data = {} if doc.data is None else doc.data
    if not isinstance(data, dict):
        raise ScenarioError([*problems, doc.problem((), "a run config is a mapping of fields")])
    # The file's name is the default run name: made into one folder name (a file may be
    # called anything; a ``name:`` the user wrote is checked, not rewritten).
    data.setdefault("name", slug(path.stem)[:MAX_RUN_NAME])
    try:
        config = RunConfig.model_validate(data)
    except ValidationError as exc:
        problems += doc.validation_problems(exc)
    if problems:
        raise ScenarioError(problems)
    return config
