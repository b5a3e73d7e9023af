"""The ``retail`` domain: Northwind Goods, an online home and outdoor shop.

Orders move placed -> shipped -> delivered (or cancelled / returned); the Agent verifies a
customer by id or e-mail plus billing ZIP, then cancels, re-addresses, returns, exchanges
and issues goodwill credit within the limits the tools enforce and the policy states.
"""

from __future__ import annotations

from supportsim.domains._base import Domain
from supportsim.domains._common import Owned, common_tools, private_values_of
from supportsim.domains.retail._actions import WRITE_TOOLS
from supportsim.domains.retail._fixture import fixture
from supportsim.domains.retail._policy import ARTICLES, POLICY
from supportsim.domains.retail._state import RetailState
from supportsim.domains.retail._tools import READ_TOOLS


def domain() -> Domain:
    """The retail domain with its own tools plus transfer_to_human and the knowledge base."""
    tools = {t.name: t for t in (*READ_TOOLS, *WRITE_TOOLS)}
    return Domain(
        name="retail",
        state_model=RetailState,
        fixture=fixture,
        tools={**tools, **common_tools(ARTICLES)},
        policy=POLICY,
        knowledge=ARTICLES,
        # Free-text reasons are the agent's own words; the argument matchers check them.
        ignore_in_state=("session.*", "returns.*.reason", "credits.*.reason"),
        gates={"verify_customer": "customer_id"},
        facts={
            "customer": ("get_customer", "verify_customer"),
            "order": ("list_orders", "get_order"),
            "shipment": ("get_order", "track_shipment"),
            "product": ("get_order", "search_products"),
            "history": ("get_contact_history",),
            "policy": ("search_knowledge_base",),
        },
        private_values=private_values_of(
            Owned("customers", "id", ("name", "email", "phone", "zip_code")),
            Owned(
                "orders",
                "customer_id",
                ("shipping_address.*", "items.*.name", "payment_method"),
            ),
        ),
        # What each write performs, for forbidden:false_claim. A return refunds (or credits
        # store credit), e-mails the label and waives the label fee of a faulty item.
        actions={
            "cancel_order": ("cancelled", "refunded"),
            "change_shipping_address": ("changed",),
            "create_return": ("refunded", "credited", "waived", "sent"),
            "exchange_item": ("changed", "sent"),
            "issue_store_credit": ("credited",),
        },
        template_cites={
            "identity_detail": "say so without revealing which detail was wrong",
            "other_customer_data": "nor anything about another customer's account or orders",
            "reply_language": "Answer in the customer's language.",
            "false_claim": "Never tell the customer something was done unless you did it.",
        },
    )


__all__ = ["domain"]
