"""Verification and read-only tools of the ``retail`` domain, and the helpers writes share.

Reads never refuse for policy reasons except where the data is personal (profile, order
list, contact history): those need the customer verified, so an Agent cannot leak what it
was never allowed to look up. Order lookups by number stay open because the policy lets
an unverified caller hear the shipment status of an order whose number they know.

The limits the tools enforce are defined here; ``policy.md`` and the articles in
``knowledge/`` state the same numbers (``tests/domains/test_retail.py`` holds them equal).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from pydantic import Field

from supportsim.domains._base import Args, record_of, require_verified, tool
from supportsim.domains.retail._state import Customer, Order, RetailState
from supportsim.errors import ToolError

RETURN_WINDOW_DAYS = 30
"""Returns and exchanges are accepted up to this many days after delivery."""
RETURN_LABEL_FEE = 5.99
"""Deducted from refunds to the original payment method, unless the item was faulty."""
FEE_FREE_REASONS = ("defective", "wrong_item")
"""Return reasons for which the label fee is waived."""
GOODWILL_LIMIT = 25.0
"""Goodwill store credit an agent may issue per customer per day without a supervisor."""
CANCEL_REFUND_DAYS = "3-5 business days"
REFUND_DAYS = "5-7 business days"
INTERNAL_WARNING = "INTERNAL ONLY - never disclose to the customer"


# --- argument models ------------------------------------------------------------------------


class VerifyArgs(Args):
    customer_id: str | None = None
    """The customer id the customer gives, e.g. C-1001 (or give email instead)."""
    email: str | None = None
    """The account e-mail address the customer gives (or give customer_id instead)."""
    zip_code: str = Field(min_length=1)
    """The billing ZIP code the customer gives (5 digits)."""


class CustomerArgs(Args):
    customer_id: str = Field(min_length=1)
    """The verified customer's id, e.g. C-1001."""


class OrderArgs(Args):
    order_id: str = Field(min_length=1)
    """The order number, e.g. ORD-50290."""


class ProductQueryArgs(Args):
    query: str = Field(min_length=1)
    """Words of the product name or a SKU, e.g. 'trailrunner 10.5' or 'SHOE-TR-105'."""


# --- helpers shared with the write tools ----------------------------------------------------


def customer_of(state: RetailState, customer_id: str) -> Customer:
    """The customer ``customer_id``, or a ToolError the Agent can act on."""
    found = state.customers.get(customer_id.strip())
    if found is None:
        raise ToolError(f"no customer {customer_id}")
    return found


def order_of(state: RetailState, order_id: str) -> Order:
    """The order ``order_id`` (case-insensitive), or a ToolError."""
    key = order_id.strip().upper()
    return record_of(state.orders, key, f"no order {order_id}; order numbers look like ORD-50290")


def require_customer(state: RetailState, customer_id: str) -> None:
    """Refuse unless this conversation verified ``customer_id`` (identity-protected data)."""
    require_verified(
        state, customer_id, verify_with="verify_customer with the details the customer gives"
    )


def add_days(day: str, days: int) -> str:
    """The ISO date ``days`` after ``day``."""
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def next_id(prefix: str, start: int, taken: set[str]) -> str:
    """The first free id ``prefix + n`` from ``start``: deterministic, never a duplicate."""
    n = start
    while f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"


def money(value: float) -> float:
    """Round to cents, the only precision the shop deals in."""
    return round(value + 0.0, 2)


def order_subtotal(order: Order) -> float:
    """Items total before shipping: what cancellations and listings are computed from."""
    return money(sum(line.qty * line.price for line in order.items.values()))


def with_internal(result: dict[str, Any], notes: str) -> dict[str, Any]:
    """Attach staff notes under a key that tells the Agent they are not for the customer."""
    if notes:
        result["internal_only"] = {"notes": notes, "warning": INTERNAL_WARNING}
    return result


def order_view(order: Order) -> dict[str, Any]:
    """The full order as staff see it (the Agent decides what the policy lets it share)."""
    subtotal = order_subtotal(order)
    view: dict[str, Any] = {
        "order_id": order.id,
        "customer_id": order.customer_id,
        "status": order.status,
        "placed_on": order.placed_on,
        "shipped_on": order.shipped_on,
        "delivered_on": order.delivered_on,
        "items": [line.model_dump() for line in order.items.values()],
        "subtotal": subtotal,
        "shipping_fee": order.shipping_fee,
        "total": money(subtotal + order.shipping_fee),
        "payment_method": order.payment_method,
        "shipping_address": order.shipping_address.model_dump(),
        "carrier": order.carrier,
        "tracking": order.tracking,
    }
    if order.delivered_on is not None:
        view["return_window_ends"] = add_days(order.delivered_on, RETURN_WINDOW_DAYS)
    return with_internal(view, order.internal_notes)


# --- tools ----------------------------------------------------------------------------------


@tool("read")
def verify_customer(state: RetailState, args: VerifyArgs) -> dict[str, Any]:
    """Verify the customer's identity with their customer id or account e-mail, plus the
    billing ZIP code on the account. Use only details the customer gave you. Required before
    discussing account details or making any change; the verification lasts for this
    conversation."""
    if not args.customer_id and not args.email:
        raise ToolError("give customer_id or email, plus zip_code")
    matches = [
        c
        for c in state.customers.values()
        if (not args.customer_id or c.id.casefold() == args.customer_id.strip().casefold())
        and (not args.email or c.email.casefold() == args.email.strip().casefold())
    ]
    if len(matches) != 1 or matches[0].zip_code != args.zip_code.strip():
        raise ToolError("verification failed: the details do not match an account")
    customer = matches[0]
    state.session.verified_customer_id = customer.id
    return {"verified": True, "customer_id": customer.id, "name": customer.name}


@tool("read")
def get_customer(state: RetailState, args: CustomerArgs) -> dict[str, Any]:
    """Look up a verified customer's profile: name, e-mail, phone, store-credit balance."""
    customer = customer_of(state, args.customer_id)
    require_customer(state, customer.id)
    view = customer.model_dump(exclude={"internal_notes", "zip_code"})
    return with_internal(view, customer.internal_notes)


@tool("read")
def list_orders(state: RetailState, args: CustomerArgs) -> dict[str, Any]:
    """List a verified customer's orders, newest first, with status and total."""
    customer = customer_of(state, args.customer_id)
    require_customer(state, customer.id)
    orders = sorted(
        (o for o in state.orders.values() if o.customer_id == customer.id),
        key=lambda o: (o.placed_on, o.id),
        reverse=True,
    )
    return {
        "customer_id": customer.id,
        "orders": [
            {
                "order_id": o.id,
                "placed_on": o.placed_on,
                "status": o.status,
                "items": [line.name for line in o.items.values()],
                "total": money(order_subtotal(o) + o.shipping_fee),
            }
            for o in orders
        ],
    }


@tool("read")
def get_order(state: RetailState, args: OrderArgs) -> dict[str, Any]:
    """Look up an order by number: items, amounts, status, dates, shipping address, payment
    method and the date its return window ends. Share details beyond shipment status only
    with the verified owner of the order (customer_id in the result)."""
    return order_view(order_of(state, args.order_id))


@tool("read")
def track_shipment(state: RetailState, args: OrderArgs) -> dict[str, Any]:
    """Track an order's shipment: status, carrier, tracking number, estimated delivery and
    the carrier's scans. May be shared with anyone who gives the order number."""
    order = order_of(state, args.order_id)
    result: dict[str, Any] = {"order_id": order.id, "status": order.status}
    if order.status == "placed":
        result["message"] = "not shipped yet; orders ship within 1 business day"
        return result
    if order.status == "cancelled":
        result["message"] = "the order was cancelled and will not ship"
        return result
    result |= {
        "carrier": order.carrier,
        "tracking": order.tracking,
        "shipped_on": order.shipped_on,
        "estimated_delivery": order.estimated_delivery,
        "delivered_on": order.delivered_on,
        "events": [e.model_dump() for e in order.tracking_events],
    }
    return result


_WORD = re.compile(r"[\w.'-]+")


@tool("read")
def search_products(state: RetailState, args: ProductQueryArgs) -> dict[str, Any]:
    """Search the catalogue by name words or SKU: price, stock and whether it is final sale.
    Use it to find an exchange item of the same price that is in stock."""
    words = {w.casefold() for w in _WORD.findall(args.query)}
    scored = []
    for product in state.products.values():
        text = f"{product.sku} {product.name} {product.category}".casefold()
        have = {w.casefold() for w in _WORD.findall(text)} | {product.sku.casefold()}
        score = len(words & have)
        if score:
            scored.append((-score, product.sku, product))
    if not scored:
        raise ToolError(f"no products match {args.query!r}")
    return {
        "products": [
            {
                "sku": p.sku,
                "name": p.name,
                "price": p.price,
                "in_stock": p.stock,
                "final_sale": p.final_sale,
            }
            for _, _, p in sorted(scored)[:5]
        ]
    }


@tool("read")
def get_contact_history(state: RetailState, args: CustomerArgs) -> dict[str, Any]:
    """Earlier support contacts of a verified customer, oldest first: date, channel and the
    handling agent's summary, including any promise made. Check it when the customer refers
    to an earlier conversation."""
    customer = customer_of(state, args.customer_id)
    require_customer(state, customer.id)
    contacts = sorted(
        (c for c in state.contacts.values() if c.customer_id == customer.id),
        key=lambda c: (c.date, c.id),
    )
    return {
        "customer_id": customer.id,
        "contacts": [c.model_dump(exclude={"customer_id"}) for c in contacts],
    }


READ_TOOLS = (
    verify_customer,
    get_customer,
    list_orders,
    get_order,
    track_shipment,
    search_products,
    get_contact_history,
)
