"""The ``tau2:`` block of an imported tau2-bench scenario: the task as tau2 scores it.

``supportsim import tau2`` writes it; the tau2 scoring mode reads it (one check per
``reward_basis`` component) and the tau2 conversation mode gives the simulated Customer
``instructions`` verbatim. Field names follow tau2's task format (``data_model/tasks.py`` of
sierra-research/tau2-bench, MIT), so a reader who knows tau2 recognises them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

RewardComponent = Literal["DB", "COMMUNICATE", "NL_ASSERTION", "ACTION"]
"""The reward components supportsim scores as tau2 does. tau2's ``ENV_ASSERTION`` is not
supported (no retail task uses it); the importer rejects a task that needs it."""
REWARD_COMPONENTS: tuple[RewardComponent, ...] = RewardComponent.__args__  # type: ignore[attr-defined]


class _Tau2Schema(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Tau2Instructions(_Tau2Schema):
    """tau2's structured user instructions, verbatim: the simulated Customer's whole brief."""

    domain: str
    """tau2's domain name (``retail``)."""
    reason_for_call: str
    """Why the user contacts support."""
    known_info: str | None = None
    """What the user knows and can give (name, zip code, order ids)."""
    unknown_info: str | None = None
    """What the user does not know."""
    task_instructions: str
    """How the user behaves and what they accept."""


class Tau2Action(_Tau2Schema):
    """One call of tau2's reference path (``evaluation_criteria.actions``)."""

    action_id: str
    name: str
    """Tool name."""
    arguments: dict[str, Any] = {}
    requestor: Literal["assistant", "user"] = "assistant"
    """Who makes the call in tau2 (retail: always the agent)."""
    compare_args: list[str] | None = None
    """For the ACTION component: the arguments compared (``None``: all of them)."""
    info: str | None = None


class Tau2IgnoredAction(_Tau2Schema):
    """A gold action that raises on the tools: tau2 logs and ignores it, so it is neither
    replayed into the DB target nor a step the Agent must make."""

    action_id: str
    name: str
    reason: str
    """The tool's error text when the action was replayed at import."""


class Tau2Source(_Tau2Schema):
    """Where the task was imported from."""

    path: str
    """The ``tasks.json`` read (as given on the command line, resolved)."""
    tasks_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    """sha256 of that file's bytes."""
    split: str | None = None
    """The split selected (``train``, ``test``, ``base``); ``None`` for every task."""


class Tau2Task(_Tau2Schema):
    """A tau2-bench task as supportsim runs and scores it. Strict = tau2's reward: the
    product of the ``reward_basis`` components."""

    task_id: str
    """tau2's task id (the scenario id is ``tau2_retail_<task_id>``)."""
    instructions: Tau2Instructions | str
    """The user simulator's instructions, verbatim (structured, or tau2's plain text form)."""
    persona: str | None = None
    """tau2's ``user_scenario.persona``, verbatim."""
    purpose: str | None = None
    """tau2's ``description.purpose`` (for people; never shown to the Agent or Customer)."""
    reward_basis: list[RewardComponent] = Field(min_length=1)
    """The components whose product is the reward."""
    actions: list[Tau2Action] = []
    """The reference path, in order, including ignored actions (the oracle replays them all,
    as tau2's gold replay does)."""
    ignored_actions: list[Tau2IgnoredAction] = []
    """Actions of ``actions`` that raise on the tools (not required; listed with why)."""
    communicate_info: list[str] = []
    """For COMMUNICATE: strings some Agent message must contain (case-folded, commas
    removed)."""
    nl_assertions: list[str] = []
    """For NL_ASSERTION: statements an LLM judge checks over the transcript."""
    db_criteria: bool = True
    """The task gives gold ``actions`` or env assertions. tau2 counts DB as met when it
    gives neither (both null): there is then no database to compare with."""
    gold_db_sha256: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    """tau2's database hash after replaying ``actions`` at import (informational: the DB
    check replays them again on a fresh copy)."""
    source: Tau2Source
