"""The ``telecom`` domain: a mobile and broadband carrier (Northwind Mobile).

Customers with mobile and broadband accounts, invoices and charges, a plan catalogue, SIM
cards and password resets. It tests billing disputes (duplicates, wrong fees, a refund limit
that forces escalation), identity verification before SIM swaps, plan changes with a 30-day
rule, knowledge-base retrieval (roaming fees) and contact-history memory.
"""

from __future__ import annotations

from supportsim.domains._base import Domain
from supportsim.domains._common import common_tools
from supportsim.domains.telecom._fixture import fixture
from supportsim.domains.telecom._policy import ARTICLES, POLICY
from supportsim.domains.telecom._state import TelecomState
from supportsim.domains.telecom._tools import TOOLS


def domain() -> Domain:
    """The telecom domain: its tools, plus transfer_to_human and search_knowledge_base."""
    tools = {t.name: t for t in TOOLS}
    return Domain(
        name="telecom",
        state_model=TelecomState,
        fixture=fixture,
        tools={**tools, **common_tools(ARTICLES)},
        policy=POLICY,
        knowledge=ARTICLES,
        # Free-text reasons are the agent's own words; the argument matchers check them.
        ignore_in_state=("session.*", "refunds.*.reason"),
    )


__all__ = ["domain"]
