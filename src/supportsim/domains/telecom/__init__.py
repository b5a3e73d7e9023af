"""The ``telecom`` domain: a mobile and broadband carrier (Northwind Mobile).

Customers with mobile and broadband accounts, invoices and charges, a plan catalogue, SIM
cards and password resets. It tests billing disputes (duplicates, wrong fees, a refund limit
that forces escalation), identity verification before SIM swaps, plan changes with a 30-day
rule, knowledge-base retrieval (roaming fees) and contact-history memory.
"""

from __future__ import annotations

from supportsim.domains._base import Domain
from supportsim.domains._common import Owned, common_tools, private_values_of
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
        gates={"verify_identity": "customer_id"},
        facts={
            "customer": ("get_customer", "verify_identity"),
            "account": ("get_customer", "get_account"),
            "balance": ("get_account",),
            "plan": ("get_account", "list_plans"),
            "invoice": ("list_invoices", "get_invoice"),
            "charge": ("list_charges", "get_invoice"),
            "history": ("get_contact_history",),
            "policy": ("search_knowledge_base",),
        },
        private_values=private_values_of(
            Owned("customers", "id", ("name", "phone", "email", "date_of_birth", "pin")),
            Owned("accounts", "customer_id", ("phone",)),
            public=("plans",),  # SIM cards carry their line's phone number: not public
        ),
        template_cites={
            "identity_detail": "never confirm which of the details they gave was wrong",
            "other_customer_data": "Never disclose another customer's data.",
            "reply_language": "answer in the customer's language",
        },
    )


__all__ = ["domain"]
