"""The ``tau2_retail`` domain: tau2-bench's retail tools, database and policy.

Its tools behave as tau2-bench's retail tools (sierra-research/tau2-bench, data and tool
texts at commit a2c0247, MIT licence, Copyright (c) 2025 Sierra Research): the same names,
argument schemas and descriptions, the same results and error texts, the same effects on the
database, so that replaying a task's gold actions here gives tau2's database hash. The code
is ours; the tool docstrings, which are the prompt text the Agent reads, are tau2's verbatim.
tau2's retail tools read no clock (no "now" to fix) and check no identity: its policy asks the
Agent to authenticate with ``find_user_id_by_*`` first, so those are our ``gates`` (for
ordering and templates) but no tool refuses an unverified call.

Differences that stay (by design of the runtime, not of the tools): malformed arguments are
refused by argument validation before a tool runs (tau2 calls the method and reports
Python's TypeError), with our text. In tau2's conversation mode (``supportsim/tau2/_rules.py``)
a refusal reaches the Agent as tau2's ``Error: Order not found`` and a text result (a user
id) as plain text; in our own mode as ``{"error": ...}`` and JSON.

The domain is built from a tau2 data directory (``domain(data_dir)``); it is not a built-in.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from supportsim.domains import Domain, DomainState, Tool
from supportsim.errors import Problem, ScenarioError
from supportsim.scenario import Action
from supportsim.tau2.retail import _reads as r
from supportsim.tau2.retail import _writes as w
from supportsim.tau2.retail._data import base_db, retail_dir, with_overrides
from supportsim.tau2.retail._state import TABLES, Tau2RetailState, hash_of_db, tau2_db

NAME = "tau2_retail"

TOOLS: tuple[Tool, ...] = (
    r.calculate,
    w.cancel_pending_order,
    w.exchange_delivered_order_items,
    r.find_user_id_by_name_zip,
    r.find_user_id_by_email,
    r.get_order_details,
    r.get_product_details,
    r.get_item_details,
    r.get_user_details,
    r.list_all_product_types,
    w.modify_pending_order_address,
    w.modify_pending_order_items,
    w.modify_pending_order_payment,
    w.modify_user_address,
    w.return_delivered_order_items,
    r.transfer_to_human_agents,
)
"""tau2's retail toolkit, in the order its class defines them (the order the Agent sees)."""

GATES = {"find_user_id_by_email": "user_id", "find_user_id_by_name_zip": "user_id"}
"""The identity lookups the policy requires first. Their result is the user id as text
(tau2's), not a mapping: the key names what that text is."""

ACTIONS: dict[str, tuple[Action, ...]] = {
    "cancel_pending_order": ("cancelled", "refunded"),
    "exchange_delivered_order_items": ("changed",),
    "modify_pending_order_address": ("changed",),
    "modify_pending_order_items": ("changed",),
    "modify_pending_order_payment": ("changed",),
    "modify_user_address": ("changed",),
    "return_delivered_order_items": ("refunded",),
    "transfer_to_human_agents": ("escalated",),
}
"""What each tool performs (the action map): a cancellation refunds to the payment
history's methods, a return is refunded to the method given, tau2's transfer tool (a read
in tau2's toolkit: it changes no table) escalates."""


@dataclass(frozen=True)
class Tau2Domain(Domain):
    """A Domain whose base state is tau2's cached database: ``initial_state`` hands each
    conversation a copy-on-write copy instead of deep-merging 2.8 MB of JSON."""

    base: Tau2RetailState | None = field(default=None, repr=False, compare=False)
    """The validated database, shared by every copy (never run a tool on it)."""

    def initial_state(self, overrides: Mapping[str, Any]) -> DomainState:
        """The database with a scenario's ``state`` merged over it, record by record.

        Raises:
            pydantic.ValidationError: a merged record does not fit tau2's models.
        """
        assert self.base is not None
        return with_overrides(self.base, overrides)


def domain(data_dir: str | os.PathLike[str]) -> Tau2Domain:
    """The tau2 retail domain over a tau2 data directory (``data/tau2`` of a tau2-bench
    clone, or its ``domains/retail``): ``db.json`` is the fixture, ``policy.md`` the policy.

    Raises:
        ScenarioError: the directory, ``db.json`` or ``policy.md`` is missing or malformed
            (names the file and the field).
    """
    folder = retail_dir(data_dir)
    base = base_db(folder / "db.json")
    policy_path = folder / "policy.md"
    try:
        policy = policy_path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(
            [Problem(str(policy_path), "", f"cannot read: {exc.strerror}")]
        ) from None
    return Tau2Domain(
        name=NAME,
        state_model=Tau2RetailState,
        fixture=lambda: tau2_db(base),
        tools={t.name: t for t in TOOLS},
        policy=policy,
        gates=GATES,
        actions=ACTIONS,
        facts={
            "user_id": ("find_user_id_by_email", "find_user_id_by_name_zip"),
            "user": ("get_user_details",),
            "order": ("get_order_details",),
            "product": ("get_product_details", "get_item_details"),
            "catalogue": ("list_all_product_types",),
        },
        base=base,
    )


def db_hash(state: DomainState | Mapping[str, Any]) -> str:
    """tau2's database hash of a state, or of a state's JSON dump (a stored final state):
    ``sha256(json.dumps(db, sort_keys=True, default=str))`` over ``products``, ``users`` and
    ``orders`` as tau2's models dump them. Our session and ``extra`` are not tau2's.

    Raises:
        TypeError: ``state`` is another domain's state.
    """
    if isinstance(state, Tau2RetailState):
        return hash_of_db(tau2_db(state))
    if isinstance(state, DomainState):
        raise TypeError(f"not a tau2 retail state: {type(state).__name__}")
    return hash_of_db({table: state[table] for table in TABLES})


__all__ = [
    "ACTIONS",
    "GATES",
    "NAME",
    "TOOLS",
    "Tau2Domain",
    "Tau2RetailState",
    "db_hash",
    "domain",
    "retail_dir",
    "tau2_db",
]
