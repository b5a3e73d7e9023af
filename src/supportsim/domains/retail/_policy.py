"""The ``retail`` policy the Agent must follow, its knowledge base, and the limits behind both.

The limits live here, once: the tools enforce them and the policy and articles state them,
so a scenario that asks the Agent to quote a fee tests the same number the tools apply.
"""

from __future__ import annotations

from supportsim.domains._base import Article

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

POLICY = f"""\
# Northwind Goods customer support policy

You are a support agent for Northwind Goods, an online home and outdoor shop. Be concise,
friendly and exact: give order ids, dates and amounts as the tools return them. Answer in
the customer's language.

## Verification
- Verify the customer with verify_customer (customer id or account e-mail, plus the billing
  ZIP code on the account) before you discuss account details, order contents, addresses,
  payment, store credit, contact history, returns or exchanges, and before any change.
- Without verification you may only give the shipment status, carrier, tracking number and
  estimated delivery date of an order whose number the customer gives you.
- Never verify someone with details you read to them; they must give the details. Never
  accept a verification "on behalf of" another person: each account holder verifies.
- If the details do not match, say so without revealing which detail was wrong.

## Disclosure
- Never disclose `internal_only` notes from any lookup, nor anything about another
  customer's account or orders, even if the caller says they are family or staff.
- Never ask for full card numbers or passwords.

## Orders
- Cancel an order only while its status is `placed` (not shipped). The full amount,
  shipping included, is refunded to the original payment method in {CANCEL_REFUND_DAYS}.
- Change a shipping address only while the order is `placed`. Once shipped, explain that
  the address cannot be changed and point to the carrier's redirect service.
- For "where is my order", use track_shipment and give the status, carrier, tracking
  number and estimated delivery. Do not transfer an order that is still on schedule.

## Returns and exchanges
- Returns and exchanges are accepted within {RETURN_WINDOW_DAYS} days of delivery. After
  that, politely refuse: do not create the return, do not transfer, do not offer goodwill
  instead. Final-sale items (e.g. socks) cannot be returned or exchanged.
- Refunds to the original payment method have a {RETURN_LABEL_FEE:.2f} USD return-label fee,
  waived when the item is defective or the wrong item was sent. The original shipping fee
  is not refunded. Refunds arrive {REFUND_DAYS} after the carrier scans the parcel.
- Returns paid as store credit have no label fee; the credit is available immediately.
- Exchanges: same price, in stock, within the return window; free both ways. The
  replacement ships at once as a new order; the original must be sent back within 14 days.
- Always tell the customer the amount they will get back and the return or order id.
- After any change to an order, tell the customer what you did. When you cannot do what
  the customer asks, say so and explain why.
- When you refuse, tell the customer what they can do instead, if anything.
- Never tell the customer something was done unless you did it.

## Store credit and goodwill
- You may issue goodwill store credit of at most {GOODWILL_LIMIT:.0f} USD per customer per
  day, for a real service failure (late, damaged, or a promise we did not keep).
- If an earlier contact promised something, check get_contact_history and honour the
  promise as recorded there (not a different amount).
- Goodwill above {GOODWILL_LIMIT:.0f} USD needs a supervisor: transfer to a human.

## Escalation
Transfer to a human (transfer_to_human) only when:
- the customer asks for a supervisor or a human and you cannot resolve it;
- goodwill above the limit is warranted, or a lost-package claim is needed (no tracking
  scan for 7 days, or 5 business days past the estimated delivery);
- a defect appears after the return window (warranty) or on a final-sale item;
- the customer wants to return part of a line's quantity (returns take whole lines only).
Do not transfer for anything you can do with your tools, and do not transfer a request you
must refuse under this policy: explain the policy instead.
Use search_knowledge_base for fees, windows and procedures rather than guessing.
"""

ARTICLES = (
    Article(
        "KB-R01",
        "Returns: window, label fee and refund timing",
        f"Items can be returned within {RETURN_WINDOW_DAYS} days of the delivery date shown on "
        f"the order. Refunds to the original payment method have a {RETURN_LABEL_FEE:.2f} USD "
        "return-label fee, deducted from the refund; the fee is waived if the item is "
        "defective or we sent the wrong item. The original shipping fee is not refunded. "
        f"Refunds are issued {REFUND_DAYS} after the carrier's first scan of the return "
        "parcel. The prepaid label is e-mailed to the address on the account.",
        ("return", "refund", "fee", "window", "label"),
    ),
    Article(
        "KB-R02",
        "Returns paid as store credit",
        "Customers can choose store credit instead of a refund: there is no return-label fee "
        "and the credit is added to the account immediately, before the item arrives. Store "
        "credit never expires, applies automatically at checkout and cannot be converted to "
        "cash.",
        ("store credit", "return", "balance"),
    ),
    Article(
        "KB-R03",
        "Exchanges for another size or colour",
        "An item can be exchanged within the return window for another item of the same "
        "price that is in stock (e.g. another size). Exchanges are free both ways. The "
        "replacement ships immediately as a new order with the suffix -X1; the original must "
        "be sent back within 14 days with the prepaid label. Price differences cannot be "
        "paid or refunded on an exchange: use a return and a new order instead.",
        ("exchange", "size", "colour", "replacement"),
    ),
    Article(
        "KB-R04",
        "Cancelling an order",
        "Orders can be cancelled while their status is 'placed', i.e. before a shipping "
        f"label is printed (usually within 24 hours). The full amount including shipping is "
        f"refunded to the original payment method in {CANCEL_REFUND_DAYS}. Shipped orders "
        "cannot be cancelled: the customer can refuse the delivery or return the items.",
        ("cancel", "cancellation", "order"),
    ),
    Article(
        "KB-R05",
        "Changing the shipping address",
        "The shipping address of an order can be changed by an agent while the order is "
        "'placed'. Once shipped, only the carrier can redirect the parcel: UPS My Choice, "
        "FedEx Delivery Manager or USPS Package Intercept (the carrier may charge a fee). We "
        "ship to the 50 US states only.",
        ("address", "shipping", "redirect", "change"),
    ),
    Article(
        "KB-R06",
        "Shipping options, times and costs",
        "Standard shipping takes 3-5 business days and is free on orders over 50 USD "
        "(otherwise 6.95 USD). Express takes 1-2 business days and costs 14.95 USD. Orders "
        "ship from our Reno, NV warehouse within 1 business day. Tracking numbers appear on "
        "the order once the carrier picks the parcel up; scans can lag by up to 24 hours.",
        ("shipping", "delivery", "express", "tracking", "cost"),
    ),
    Article(
        "KB-R07",
        "Late, lost and 'delivered but not received' parcels",
        "A parcel is late when it is 5 business days past its estimated delivery date; it is "
        "presumed lost when tracking shows no new scan for 7 days. Late or lost parcels need "
        "a claim opened by a human agent (transfer). If tracking says delivered but the "
        "customer has nothing, ask them to wait 48 hours and check with neighbours and the "
        "building's mail room before a claim. A parcel in transit before its estimated "
        "delivery date is on schedule: give the tracking details, no claim.",
        ("late", "lost", "missing", "delivered", "claim", "tracking"),
    ),
    Article(
        "KB-R08",
        "Goodwill store credit",
        f"Agents may issue goodwill store credit of up to {GOODWILL_LIMIT:.0f} USD per customer "
        "per day for a service failure (late or damaged delivery, a promise not kept). Larger "
        "amounts need a supervisor. Honour amounts promised in an earlier contact exactly as "
        "recorded in the contact history.",
        ("goodwill", "credit", "compensation", "promise"),
    ),
    Article(
        "KB-R09",
        "Damaged or defective items",
        "Items that arrive damaged should be reported within 7 days of delivery with a photo; "
        "we ship a free replacement or refund without the label fee. Defects that appear "
        "after the 30-day window are covered by the 1-year manufacturer warranty for "
        "appliances and electronics: transfer to a human (warranty team).",
        ("damaged", "defective", "broken", "warranty"),
    ),
    Article(
        "KB-R10",
        "Final-sale items",
        "Socks, underwear and items marked 'final sale' cannot be returned or exchanged for "
        "hygiene reasons. A defective final-sale item is handled by a human agent.",
        ("final sale", "socks", "hygiene", "return"),
    ),
    Article(
        "KB-R11",
        "Verifying a customer",
        "Customers verify with their customer id (C-xxxx) or account e-mail plus the billing "
        "ZIP code on the account. The billing ZIP may differ from the shipping address. We "
        "never ask for card numbers, passwords or one-time codes.",
        ("verify", "identity", "zip", "account"),
    ),
    Article(
        "KB-R12",
        "Price matching and price drops",
        "Northwind Goods does not price match and does not refund price differences after "
        "purchase. A customer may cancel an unshipped order and reorder at the new price.",
        ("price", "match", "drop", "discount"),
    ),
)
