"""tau2 retail's write tools: the same checks in the same order, the same effects.

Every tool checks everything before it changes anything, then writes through the state's
own copies of the records (copy on write, see ``_state``). Amounts follow tau2's float
arithmetic step for step: the price difference of an exchange is rounded to cents, that of
an item modification is not (its payment entry keeps e.g. ``16.629999999999995``), and a gift
card's balance is rounded after every change. Those floats reach tau2's database hash.

Rollback. tau2 rolls nothing back on a tool error; our Environment restores the state when a
write refuses. That cannot differ: tau2's tools also raise only before they mutate, except two
lookups tau2 makes after its first change (a payment method of the order's own history, in
``cancel_pending_order`` and ``modify_pending_order_payment``), which fail only when an order
names a payment method its user lacks. tau2's data has no such order and no tool can make
one; here those lookups run first, so even such data is refused whole.

Docstrings: tau2's (MIT, Sierra Research), verbatim; they are the Agent's prompt text.
"""

from __future__ import annotations

from supportsim.errors import ToolError
from supportsim.tau2.retail._reads import (
    count_missing,
    order_of,
    payment_method_of,
    user_of,
    variant_of,
)
from supportsim.tau2.retail._state import (
    GiftCard,
    OrderPayment,
    Tau2RetailState,
    UserAddress,
    Variant,
)
from supportsim.tau2.retail._tooling import tau2_tool

CANCEL_REASONS = ("no longer needed", "ordered by mistake")


def _credit(db: Tau2RetailState, user_id: str, method_id: str, amount: float) -> None:
    """Add ``amount`` to a gift card (negative: charge it), rounded to cents as tau2 does."""
    card = db.writable_user(user_id).payment_methods[method_id]
    assert isinstance(card, GiftCard)
    card.balance += amount
    card.balance = round(card.balance, 2)


@tau2_tool("write")
def cancel_pending_order(db: Tau2RetailState, order_id: str, reason: str) -> dict[str, object]:
    """Cancel a pending order. If the order is already processed or delivered,
    it cannot be cancelled. The agent needs to explain the cancellation detail
    and ask for explicit user confirmation (yes/no) to proceed. If the user confirms,
    the order status will be changed to 'cancelled' and the payment will be refunded.
    The refund will be added to the user's gift card balance immediately if the payment
    was made using a gift card, otherwise the refund would take 5-7 business days to process.
    The function returns the order details after the cancellation.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.
        reason: The reason for cancellation, which should be either 'no longer needed' or 'ordered by mistake'.

    Returns:
        Order: The order details after the cancellation.
    """  # noqa: E501
    order = order_of(db, order_id)
    if order.status != "pending":  # "pending (item modified)" cannot be cancelled
        raise ToolError("Non-pending order cannot be cancelled")
    if reason not in CANCEL_REASONS:
        raise ToolError("Invalid reason")
    # Every entry of the history is refunded, earlier refunds included (tau2 does so too).
    methods = [
        payment_method_of(db, order.user_id, p.payment_method_id) for p in order.payment_history
    ]
    order = db.writable_order(order_id)
    refunds = [
        OrderPayment(
            transaction_type="refund", amount=p.amount, payment_method_id=p.payment_method_id
        )
        for p in order.payment_history
    ]
    for payment, method in zip(order.payment_history, methods, strict=True):
        if isinstance(method, GiftCard):
            _credit(db, order.user_id, payment.payment_method_id, payment.amount)
    order.status = "cancelled"
    order.cancel_reason = reason  # type: ignore[assignment]
    order.payment_history.extend(refunds)
    return order.model_dump()


@tau2_tool("write")
def exchange_delivered_order_items(
    db: Tau2RetailState,
    order_id: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> dict[str, object]:
    """Exchange items in a delivered order to new items of the same product type.
    For a delivered order, return or exchange can be only done once by the agent.
    The agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.
        item_ids: The item ids to be exchanged, each such as '1008292230'. There could be duplicate items in the list.
        new_item_ids: The item ids to be exchanged for, each such as '1008292230'.
                     There could be duplicate items in the list. Each new item id should match the item id
                     in the same position and be of the same product.
        payment_method_id: The payment method id to pay or receive refund for the item price difference,
                         such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up
                         from the user or order details.

    Returns:
        Order: The order details after the exchange.

    Raises:
        ValueError: If the order is not delivered.
        ValueError: If the items to be exchanged do not exist.
        ValueError: If the new items do not exist or do not match the old items.
        ValueError: If the number of items to be exchanged does not match.
    """  # noqa: E501
    order = order_of(db, order_id)
    if order.status != "delivered":
        raise ToolError("Non-delivered order cannot be exchanged")
    missing = count_missing(item_ids, [item.item_id for item in order.items])
    if missing is not None:
        raise ToolError(f"Number of {missing} not found.")
    if len(item_ids) != len(new_item_ids):
        raise ToolError("The number of items to be exchanged should match.")
    diff_price: float = 0
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=True):
        item = next(item for item in order.items if item.item_id == item_id)
        variant = variant_of(db, item.product_id, new_item_id)
        if not variant.available:
            raise ToolError(f"New item {new_item_id} not found or available")
        diff_price += variant.price - item.price
    diff_price = round(diff_price, 2)
    method = payment_method_of(db, order.user_id, payment_method_id)
    if isinstance(method, GiftCard) and method.balance < diff_price:
        raise ToolError("Insufficient gift card balance to pay for the price difference")
    order = db.writable_order(order_id)
    order.status = "exchange requested"
    order.exchange_items = sorted(item_ids)
    order.exchange_new_items = sorted(new_item_ids)
    order.exchange_payment_method_id = payment_method_id
    order.exchange_price_difference = diff_price
    return order.model_dump()


@tau2_tool("write")
def modify_pending_order_address(
    db: Tau2RetailState,
    order_id: str,
    address1: str,
    address2: str,
    city: str,
    state: str,
    country: str,
    zip: str,
) -> dict[str, object]:
    """Modify the shipping address of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.
        address1: The first line of the address, such as '123 Main St'.
        address2: The second line of the address, such as 'Apt 1' or ''.
        city: The city, such as 'San Francisco'.
        state: The state, such as 'CA'.
        country: The country, such as 'USA'.
        zip: The zip code, such as '12345'.

    Returns:
        Order: The order details after the modification.

    Raises:
        ValueError: If the order is not pending.
    """  # noqa: E501
    if "pending" not in order_of(db, order_id).status:  # "pending (item modified)" too
        raise ToolError("Non-pending order cannot be modified")
    order = db.writable_order(order_id)
    order.address = UserAddress(
        address1=address1, address2=address2, city=city, state=state, country=country, zip=zip
    )
    return order.model_dump()


@tau2_tool("write")
def modify_pending_order_items(
    db: Tau2RetailState,
    order_id: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> dict[str, object]:
    """Modify items in a pending order to new items of the same product type. For a pending order, this function can only be called once. The agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.
        item_ids: The item ids to be modified, each such as '1008292230'. There could be duplicate items in the list.
        new_item_ids: The item ids to be modified for, each such as '1008292230'. There could be duplicate items in the list. Each new item id should match the item id in the same position and be of the same product.
        payment_method_id: The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details.

    Returns:
        Order: The order details after the modification.

    Raises:
        ValueError: If the order is not pending.
        ValueError: If the items to be modified do not exist.
        ValueError: If the new items do not exist or do not match the old items.
        ValueError: If the number of items to be modified does not match.
    """  # noqa: E501
    order = order_of(db, order_id)
    if order.status != "pending":  # only once: "pending (item modified)" is refused
        raise ToolError("Non-pending order cannot be modified")
    missing = count_missing(item_ids, [item.item_id for item in order.items])
    if missing is not None:
        raise ToolError(f"{missing} not found")
    if len(item_ids) != len(new_item_ids):
        raise ToolError("The number of items to be exchanged should match")
    diff_price: float = 0
    last: Variant | None = None
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=True):
        if item_id == new_item_id:
            raise ToolError("The new item id should be different from the old item id")
        item = next(item for item in order.items if item.item_id == item_id)
        variant = variant_of(db, item.product_id, new_item_id)
        if not variant.available:
            raise ToolError(f"New item {new_item_id} not found or available")
        diff_price += variant.price - item.price  # not rounded: the float is recorded
        last = variant
    method = payment_method_of(db, order.user_id, payment_method_id)
    if isinstance(method, GiftCard) and method.balance < diff_price:
        raise ToolError("Insufficient gift card balance to pay for the new item")
    order = db.writable_order(order_id)
    order.payment_history.append(
        OrderPayment(
            transaction_type="payment" if diff_price > 0 else "refund",
            amount=abs(diff_price),
            payment_method_id=payment_method_id,
        )
    )
    if isinstance(method, GiftCard):
        _credit(db, order.user_id, payment_method_id, -diff_price)
    # Pair by pair, each old id names the first line still carrying it (duplicates in turn).
    # tau2 at a2c0247 gives EVERY modified line the price and options of the LAST pair's new
    # item (its loop reuses the variable of the checking loop; tau2 fixed that later). Its
    # gold hashes are computed with it, so we keep it: see tests/domains/test_tau2_retail.py.
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=True):
        assert last is not None
        item = next(item for item in order.items if item.item_id == item_id)
        item.item_id = new_item_id
        item.price = last.price
        item.options = dict(last.options)
    order.status = "pending (item modified)"
    return order.model_dump()


@tau2_tool("write")
def modify_pending_order_payment(
    db: Tau2RetailState, order_id: str, payment_method_id: str
) -> dict[str, object]:
    """Modify the payment method of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.
        payment_method_id: The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details.

    Returns:
        Order: The order details after the modification.

    Raises:
        ValueError: If the order is not pending.
        ValueError: If the payment method does not exist.
        ValueError: If the payment history has more than one payment.
        ValueError: If the new payment method is the same as the current one.
    """  # noqa: E501
    order = order_of(db, order_id)
    if "pending" not in order.status:
        raise ToolError("Non-pending order cannot be modified")
    method = payment_method_of(db, order.user_id, payment_method_id)
    history = order.payment_history
    if len(history) != 1 or history[0].transaction_type != "payment":
        raise ToolError("There should be exactly one payment for a pending order")
    old_id = history[0].payment_method_id
    if old_id == payment_method_id:
        raise ToolError("The new payment method should be different from the current one")
    amount = history[0].amount
    if isinstance(method, GiftCard) and method.balance < amount:
        raise ToolError("Insufficient gift card balance to pay for the order")
    old_method = payment_method_of(db, order.user_id, old_id)
    order = db.writable_order(order_id)
    order.payment_history.extend(
        [
            OrderPayment(
                transaction_type="payment", amount=amount, payment_method_id=payment_method_id
            ),
            OrderPayment(transaction_type="refund", amount=amount, payment_method_id=old_id),
        ]
    )
    if isinstance(method, GiftCard):
        _credit(db, order.user_id, payment_method_id, -amount)
    if isinstance(old_method, GiftCard):
        _credit(db, order.user_id, old_id, amount)
    return order.model_dump()


@tau2_tool("write")
def modify_user_address(
    db: Tau2RetailState,
    user_id: str,
    address1: str,
    address2: str,
    city: str,
    state: str,
    country: str,
    zip: str,
) -> dict[str, object]:
    """Modify the default address of a user. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.

    Args:
        user_id: The user id, such as 'sara_doe_496'.
        address1: The first line of the address, such as '123 Main St'.
        address2: The second line of the address, such as 'Apt 1' or ''.
        city: The city, such as 'San Francisco'.
        state: The state, such as 'CA'.
        country: The country, such as 'USA'.
        zip: The zip code, such as '12345'.

    Returns:
        User: The user details after the modification.

    Raises:
        ValueError: If the user is not found.
    """  # noqa: E501
    user_of(db, user_id)
    user = db.writable_user(user_id)
    user.address = UserAddress(
        address1=address1, address2=address2, city=city, state=state, country=country, zip=zip
    )
    return user.model_dump()


@tau2_tool("write")
def return_delivered_order_items(
    db: Tau2RetailState, order_id: str, item_ids: list[str], payment_method_id: str
) -> dict[str, object]:
    """Return some items of a delivered order.
    The order status will be changed to 'return requested'.
    The agent needs to explain the return detail and ask for explicit user confirmation (yes/no) to proceed.
    The user will receive follow-up email for how and where to return the item.

    Args:
        order_id: The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.
        item_ids: The item ids to be returned, each such as '1008292230'. There could be duplicate items in the list.
        payment_method_id: The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'.
                         These can be looked up from the user or order details.

    Returns:
        Order: The order details after requesting the return.

    Raises:
        ValueError: If the order is not delivered.
        ValueError: If the payment method is not the original payment method or a gift card.
        ValueError: If the items to be returned do not exist.
    """  # noqa: E501
    order = order_of(db, order_id)
    if order.status != "delivered":
        raise ToolError("Non-delivered order cannot be returned")
    method = payment_method_of(db, order.user_id, payment_method_id)
    if not isinstance(method, GiftCard) and (
        not order.payment_history or payment_method_id != order.payment_history[0].payment_method_id
    ):
        raise ToolError("Payment method should be the original payment method")
    if count_missing(item_ids, [item.item_id for item in order.items]) is not None:
        raise ToolError("Some item not found")
    order = db.writable_order(order_id)
    order.status = "return requested"
    order.return_items = sorted(item_ids)
    order.return_payment_method_id = payment_method_id
    return order.model_dump()
