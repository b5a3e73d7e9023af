"""Write tools of the ``retail`` domain: cancel, re-address, return, exchange, goodwill credit.

Each tool checks identity, existence and every policy limit first and raises ``ToolError``
before it touches the state, so a refused call leaves the world exactly as it was (the
scorer compares final states, and a half-applied write would be a phantom change).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from supportsim.domains._base import Args, days_between, tool
from supportsim.domains.retail._state import (
    Address,
    CreditEntry,
    LineItem,
    Order,
    RetailState,
    ReturnRecord,
)
from supportsim.domains.retail._tools import (
    CANCEL_REFUND_DAYS,
    FEE_FREE_REASONS,
    GOODWILL_LIMIT,
    READ_TOOLS,
    REFUND_DAYS,
    RETURN_LABEL_FEE,
    RETURN_WINDOW_DAYS,
    OrderArgs,
    customer_of,
    money,
    next_id,
    order_of,
    order_subtotal,
    require_customer,
)
from supportsim.errors import ToolError

# --- argument models ------------------------------------------------------------------------


class AddressArgs(Args):
    order_id: str = Field(min_length=1)
    """The order whose shipping address changes, e.g. ORD-50387."""
    line1: str = Field(min_length=1)
    """Street address as the customer gives it, e.g. '1420 N 45th St'."""
    line2: str = ""
    """Apartment, suite or unit; empty if none."""
    city: str = Field(min_length=1)
    """City, e.g. 'Seattle'."""
    state: str = Field(pattern=r"^[A-Za-z]{2}$")
    """Two-letter US state code, e.g. 'WA'."""
    zip_code: str = Field(pattern=r"^\d{5}$")
    """Five-digit ZIP code, e.g. '98103'."""


class ReturnArgs(Args):
    order_id: str = Field(min_length=1)
    """The delivered order the items come from."""
    skus: list[str] = Field(min_length=1)
    """SKUs of the order lines to return (each line is returned in full)."""
    method: Literal["refund", "store_credit"]
    """'refund' to the original payment method (label fee unless faulty) or 'store_credit'."""
    reason: Literal["defective", "wrong_item", "no_longer_needed", "other"]
    """Why the customer returns the items; 'defective' and 'wrong_item' waive the fee."""


class ExchangeArgs(Args):
    order_id: str = Field(min_length=1)
    """The delivered order holding the item to exchange."""
    sku: str = Field(min_length=1)
    """SKU of the order line the customer sends back."""
    new_sku: str = Field(min_length=1)
    """SKU of the replacement: same price, in stock (find it with search_products)."""


class CreditArgs(Args):
    customer_id: str = Field(min_length=1)
    """The verified customer who receives the credit."""
    amount: float = Field(gt=0)
    """Goodwill amount in USD (at most 25 per customer per day)."""
    reason: str = Field(min_length=1)
    """The service failure it compensates, e.g. 'credit promised in CH-778'."""


# --- helpers --------------------------------------------------------------------------------


def _owned_order(state: RetailState, order_id: str) -> Order:
    """The order, if this conversation verified its owner."""
    order = order_of(state, order_id)
    require_customer(state, order.customer_id)
    return order


def _within_window(state: RetailState, order: Order) -> None:
    """Refuse unless ``order`` was delivered no more than the return window ago."""
    if order.status != "delivered" or order.delivered_on is None:
        raise ToolError(f"{order.id} is {order.status}; only delivered orders can be returned")
    age = days_between(order.delivered_on, state.today)
    if age > RETURN_WINDOW_DAYS:
        raise ToolError(
            f"{order.id} was delivered on {order.delivered_on} ({age} days ago); returns and "
            f"exchanges are accepted within {RETURN_WINDOW_DAYS} days of delivery"
        )


def _returnable_line(state: RetailState, order: Order, sku: str) -> LineItem:
    line = order.items.get(sku.strip())
    if line is None:
        raise ToolError(f"{order.id} has no item {sku}; its SKUs: {', '.join(order.items)}")
    if line.status != "ok":
        raise ToolError(f"{line.sku} on {order.id} was already {line.status}")
    product = state.products.get(line.sku)
    if product is not None and product.final_sale:
        raise ToolError(f"{line.sku} ({line.name}) is final sale: no returns or exchanges")
    return line


# --- tools ----------------------------------------------------------------------------------


@tool("write")
def cancel_order(state: RetailState, args: OrderArgs) -> dict[str, Any]:
    """Cancel a whole order that has not shipped yet (status 'placed'), for its verified
    owner. The full amount including shipping is refunded to the original payment method."""
    order = _owned_order(state, args.order_id)
    if order.status != "placed":
        raise ToolError(
            f"{order.id} is {order.status}; only orders not yet shipped can be cancelled"
        )
    refund = money(order_subtotal(order) + order.shipping_fee)
    for line in order.items.values():
        if line.sku in state.products:
            state.products[line.sku].stock += line.qty
    order.status = "cancelled"
    return {
        "cancelled": True,
        "order_id": order.id,
        "refund_amount": refund,
        "refund_to": order.payment_method,
        "refund_timing": CANCEL_REFUND_DAYS,
    }


@tool("write")
def change_shipping_address(state: RetailState, args: AddressArgs) -> dict[str, Any]:
    """Change the shipping address of an order that has not shipped yet (status 'placed'),
    for its verified owner. Give the new address exactly as the customer states it."""
    order = _owned_order(state, args.order_id)
    if order.status != "placed":
        raise ToolError(
            f"{order.id} is {order.status}; the address can only change before shipping "
            "(the customer may use the carrier's redirect service)"
        )
    address = Address(
        line1=args.line1.strip(),
        line2=args.line2.strip(),
        city=args.city.strip(),
        state=args.state.strip().upper(),
        zip_code=args.zip_code,
    )
    order.shipping_address = address
    return {"updated": True, "order_id": order.id, "shipping_address": address.model_dump()}


@tool("write")
def create_return(state: RetailState, args: ReturnArgs) -> dict[str, Any]:
    """Create a return for lines of a delivered order, within 30 days of delivery, for its
    verified owner. 'refund' goes to the original payment method minus a 5.99 USD label fee
    (waived if defective or wrong item); 'store_credit' has no fee and is credited at once.
    Final-sale items cannot be returned. Tell the customer the amount and the return id."""
    order = _owned_order(state, args.order_id)
    _within_window(state, order)
    skus = [s.strip() for s in args.skus]
    if len(set(skus)) != len(skus):
        raise ToolError("each SKU may be listed once (a line is returned in full)")
    lines = [_returnable_line(state, order, sku) for sku in skus]
    subtotal = money(sum(line.qty * line.price for line in lines))
    fee = (
        0.0
        if args.method == "store_credit" or args.reason in FEE_FREE_REASONS
        else RETURN_LABEL_FEE
    )
    amount = money(max(subtotal - fee, 0.0))
    customer = customer_of(state, order.customer_id)

    return_id = next_id("R-", 7001, set(state.returns))
    state.returns[return_id] = ReturnRecord(
        id=return_id,
        order_id=order.id,
        customer_id=customer.id,
        skus=[line.sku for line in lines],
        method=args.method,
        reason=args.reason,
        created_on=state.today,
        subtotal=subtotal,
        label_fee=fee,
        amount=amount,
    )
    for line in lines:
        line.status = "returned"
    if all(line.status == "returned" for line in order.items.values()):
        order.status = "returned"
    result: dict[str, Any] = {
        "return_id": return_id,
        "order_id": order.id,
        "skus": [line.sku for line in lines],
        "method": args.method,
        "subtotal": subtotal,
        "label_fee": fee,
        "amount": amount,
        "label": f"prepaid return label e-mailed to {customer.email}",
    }
    if args.method == "store_credit":
        credit_id = next_id("SC-", 3001, set(state.credits))
        state.credits[credit_id] = CreditEntry(
            id=credit_id,
            customer_id=customer.id,
            amount=amount,
            kind="return",
            reason=f"return {return_id}",
            issued_on=state.today,
        )
        customer.store_credit_balance = money(customer.store_credit_balance + amount)
        result["store_credit_balance"] = customer.store_credit_balance
    else:
        result["refund_to"] = order.payment_method
        result["refund_timing"] = f"{REFUND_DAYS} after the carrier scans the parcel"
    return result


@tool("write")
def exchange_item(state: RetailState, args: ExchangeArgs) -> dict[str, Any]:
    """Exchange one line of a delivered order for another item of the same price that is
    in stock (e.g. another size), within 30 days of delivery, for its verified owner. The
    replacement ships at once as a new order; the original goes back with a free label."""
    order = _owned_order(state, args.order_id)
    _within_window(state, order)
    line = _returnable_line(state, order, args.sku)
    new = state.products.get(args.new_sku.strip())
    if new is None:
        raise ToolError(f"no product {args.new_sku}; find one with search_products")
    if new.sku == line.sku:
        raise ToolError("the replacement must be a different SKU")
    if money(new.price) != money(line.price):
        raise ToolError(
            f"{new.sku} costs {new.price:.2f} USD but {line.sku} was {line.price:.2f} USD; "
            "exchanges must be the same price (use a return and a new order instead)"
        )
    if new.stock < line.qty:
        raise ToolError(f"{new.sku} is out of stock ({new.stock} left)")

    replacement_id = next_id(f"{order.id}-X", 1, set(state.orders))
    return_id = next_id("R-", 7001, set(state.returns))
    state.orders[replacement_id] = Order(
        id=replacement_id,
        customer_id=order.customer_id,
        items={new.sku: LineItem(sku=new.sku, name=new.name, qty=line.qty, price=line.price)},
        status="placed",
        placed_on=state.today,
        shipping_address=order.shipping_address.model_copy(),
        payment_method=f"exchange for {order.id} (no charge)",
        internal_notes=f"Exchange {return_id}: replaces {line.sku} of {order.id}.",
    )
    state.returns[return_id] = ReturnRecord(
        id=return_id,
        order_id=order.id,
        customer_id=order.customer_id,
        skus=[line.sku],
        method="exchange",
        reason="exchange",
        created_on=state.today,
        subtotal=money(line.qty * line.price),
        amount=0.0,
        exchange_sku=new.sku,
        replacement_order_id=replacement_id,
    )
    new.stock -= line.qty
    line.status = "exchanged"
    return {
        "exchange_id": return_id,
        "order_id": order.id,
        "returned_sku": line.sku,
        "new_sku": new.sku,
        "replacement_order_id": replacement_id,
        "charge": 0.0,
        "note": "replacement ships within 1 business day; send the original back within 14 days",
    }


@tool("write")
def issue_store_credit(state: RetailState, args: CreditArgs) -> dict[str, Any]:
    """Add goodwill store credit to a verified customer's account for a service failure or a
    promise recorded in the contact history. At most 25 USD per customer per day; larger
    amounts need a supervisor (transfer to a human)."""
    customer = customer_of(state, args.customer_id)
    require_customer(state, customer.id)
    amount = money(args.amount)
    if amount <= 0:
        raise ToolError("the amount must be at least 0.01 USD")
    today = sum(
        c.amount
        for c in state.credits.values()
        if c.customer_id == customer.id and c.kind == "goodwill" and c.issued_on == state.today
    )
    if money(today + amount) > GOODWILL_LIMIT:
        raise ToolError(
            f"goodwill is limited to {GOODWILL_LIMIT:.2f} USD per customer per day "
            f"({today:.2f} USD already issued today); a larger amount needs a supervisor"
        )
    credit_id = next_id("SC-", 3001, set(state.credits))
    state.credits[credit_id] = CreditEntry(
        id=credit_id,
        customer_id=customer.id,
        amount=amount,
        kind="goodwill",
        reason=args.reason.strip(),
        issued_on=state.today,
    )
    customer.store_credit_balance = money(customer.store_credit_balance + amount)
    return {
        "credit_id": credit_id,
        "customer_id": customer.id,
        "amount": amount,
        "store_credit_balance": customer.store_credit_balance,
    }


WRITE_TOOLS = (
    cancel_order,
    change_shipping_address,
    create_return,
    exchange_item,
    issue_store_credit,
)

TOOLS = (*READ_TOOLS, *WRITE_TOOLS)
"""Every retail tool in the order the Agent sees them (``domain.yaml`` names this module)."""
