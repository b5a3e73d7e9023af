"""The tau2 retail database as a supportsim state, and tau2's database hash.

The record models have tau2's fields in tau2's order, so ``model_dump()`` is tau2's dump: every
field present, unset optional ones ``None``. Like tau2's models they do not validate on
assignment, so a value a tool assigns reaches the dump (and the hash) exactly as tau2's would,
while a value a tool builds a record from is coerced as tau2's constructor coerces it. Unlike
tau2's models they reject unknown fields: a ``db.json`` with a field tau2's model would drop
fails loudly instead of hashing differently.

Copy on write: a conversation's state shares every record with the base database until a
tool writes it. ``copy.deepcopy`` / ``model_copy(deep=True)`` copies the three tables' dicts
(about 1,500 keys), not 2.8 MB of records; a write tool takes its record through
``writable_order``/``writable_user``, which gives that state its own copy first.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr

from supportsim.domains import DomainState

TABLES = ("products", "users", "orders")
"""tau2's ``RetailDB`` fields, in its order."""


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Variant(_Record):
    item_id: str
    options: dict[str, str]
    available: bool
    price: float


class Product(_Record):
    name: str
    product_id: str
    variants: dict[str, Variant]


class UserName(_Record):
    first_name: str
    last_name: str


class UserAddress(_Record):
    address1: str
    address2: str
    city: str
    country: str
    state: str
    zip: str


class CreditCard(_Record):
    source: Literal["credit_card"]
    id: str
    brand: str
    last_four: str


class GiftCard(_Record):
    source: Literal["gift_card"]
    id: str
    balance: float


class Paypal(_Record):
    source: Literal["paypal"]
    id: str


PaymentMethod = CreditCard | GiftCard | Paypal


class User(_Record):
    user_id: str
    name: UserName
    address: UserAddress
    email: str
    payment_methods: dict[str, PaymentMethod]
    orders: list[str]


class OrderFulfillment(_Record):
    tracking_id: list[str]
    item_ids: list[str]


class OrderItem(_Record):
    name: str
    product_id: str
    item_id: str
    price: float
    options: dict[str, str]


class OrderPayment(_Record):
    transaction_type: Literal["payment", "refund"]
    amount: float
    payment_method_id: str


OrderStatus = Literal[
    "processed",
    "pending",
    "pending (item modified)",
    "delivered",
    "cancelled",
    "exchange requested",
    "return requested",
]


class Order(_Record):
    order_id: str
    user_id: str
    address: UserAddress
    items: list[OrderItem]
    status: OrderStatus
    fulfillments: list[OrderFulfillment]
    payment_history: list[OrderPayment]
    cancel_reason: Literal["no longer needed", "ordered by mistake"] | None = None
    exchange_items: list[str] | None = None
    exchange_new_items: list[str] | None = None
    exchange_payment_method_id: str | None = None
    exchange_price_difference: float | None = None
    return_items: list[str] | None = None
    return_payment_method_id: str | None = None


class Tau2RetailState(DomainState):
    """tau2's retail database (``products``, ``users``, ``orders``) plus our session.

    Tools must not mutate a record they did not take through ``writable_order`` /
    ``writable_user``: records are shared with other copies of the state until then.
    """

    products: dict[str, Product] = {}
    users: dict[str, User] = {}
    orders: dict[str, Order] = {}
    _owned: set[tuple[str, str]] = PrivateAttr(default_factory=set)

    def writable_order(self, order_id: str) -> Order:
        """The order ``order_id`` (which must exist), this state's own copy."""
        return self._own("orders", order_id)

    def writable_user(self, user_id: str) -> User:
        """The user ``user_id`` (which must exist), this state's own copy."""
        return self._own("users", user_id)

    def put(self, table: str, key: str, record: Any) -> None:
        """Store ``record`` (this state's own) under ``key`` in ``table``."""
        self.__dict__[table][key] = record
        self._owned.add((table, key))

    def _own(self, table: str, key: str) -> Any:
        records = self.__dict__[table]
        if (table, key) not in self._owned:
            records[key] = records[key].model_copy(deep=True)
            self._owned.add((table, key))
        return records[key]

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Tau2RetailState:
        clone = self.__copy__()
        for table in TABLES:
            clone.__dict__[table] = dict(self.__dict__[table])
        clone.__dict__["session"] = copy.deepcopy(self.session, memo)
        clone.__dict__["extra"] = copy.deepcopy(self.extra, memo)
        clone.__pydantic_private__ = {"_owned": set()}
        # Both now share every record: neither may write one in place any more.
        self._owned.clear()
        return clone


def tau2_db(state: Tau2RetailState) -> dict[str, Any]:
    """The database as tau2's ``RetailDB.model_dump()`` gives it (no session, no extra)."""
    return {
        table: {key: record.model_dump() for key, record in getattr(state, table).items()}
        for table in TABLES
    }


def hash_of_db(db: Mapping[str, Any]) -> str:
    """tau2's database hash: ``sha256(json.dumps(db, sort_keys=True, default=str))`` of
    the dump, with json's default separators and ``ensure_ascii`` (what tau2's reward
    compares between the gold replay and the Agent's run)."""
    text = json.dumps(db, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
