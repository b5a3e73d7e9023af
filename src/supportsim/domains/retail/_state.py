"""State models of the ``retail`` domain: an online shop's customers, orders and ledgers.

Every collection is a ``dict`` keyed by record id so that a scenario can override one field
of one record by deep merge (``orders: {ORD-50290: {status: delivered}}``). Dates are ISO
strings, never calendar objects: the state must stay JSON-serialisable and "today" comes
from the state itself so that tools stay deterministic.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from supportsim.domains._base import DomainState

IsoDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]
"""A calendar date as ``YYYY-MM-DD`` text."""

OrderStatus = Literal["placed", "shipped", "delivered", "cancelled", "returned"]
LineStatus = Literal["ok", "returned", "exchanged"]
ReturnMethod = Literal["refund", "store_credit", "exchange"]
Channel = Literal["phone", "email", "chat"]


class _Record(BaseModel):
    """Base of every record: unknown fields are errors, so scenario typos surface early."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Address(_Record):
    """A US shipping address, split into fields so scenarios can match each one."""

    line1: str
    line2: str = ""
    city: str
    state: str = Field(pattern=r"^[A-Z]{2}$")
    zip_code: str = Field(pattern=r"^\d{5}$")


class Product(_Record):
    """A catalogue item. ``final_sale`` items cannot be returned or exchanged."""

    sku: str
    name: str
    price: float = Field(ge=0)
    stock: int = Field(ge=0)
    category: str = ""
    final_sale: bool = False


class LineItem(_Record):
    """One line of an order, keyed by SKU. ``price`` is the unit price actually paid."""

    sku: str
    name: str
    qty: int = Field(ge=1)
    price: float = Field(ge=0)
    status: LineStatus = "ok"


class TrackingEvent(_Record):
    """One carrier scan, as the carrier reports it."""

    date: IsoDate
    location: str
    description: str


class Order(_Record):
    """An order and its fulfilment. ``internal_notes`` are for staff only."""

    id: str
    customer_id: str
    items: dict[str, LineItem]
    status: OrderStatus
    placed_on: IsoDate
    shipped_on: IsoDate | None = None
    delivered_on: IsoDate | None = None
    estimated_delivery: IsoDate | None = None
    shipping_address: Address
    shipping_fee: float = Field(default=0.0, ge=0)
    payment_method: str = ""
    carrier: str | None = None
    tracking: str | None = None
    tracking_events: list[TrackingEvent] = []
    internal_notes: str = ""


class Customer(_Record):
    """A shopper's account. ``zip_code`` is the billing ZIP used for verification."""

    id: str
    name: str
    email: str
    zip_code: str = Field(pattern=r"^\d{5}$")
    phone: str = ""
    member_since: IsoDate | None = None
    store_credit_balance: float = Field(default=0.0, ge=0)
    internal_notes: str = ""


class ReturnRecord(_Record):
    """A return or exchange authorisation (RMA) for some lines of one order."""

    id: str
    order_id: str
    customer_id: str
    skus: list[str]
    method: ReturnMethod
    reason: str
    created_on: IsoDate
    subtotal: float = Field(ge=0)
    label_fee: float = Field(default=0.0, ge=0)
    amount: float = Field(ge=0)
    """What the customer gets back (refund or store credit); 0 for exchanges."""
    status: Literal["awaiting_item", "received", "completed"] = "awaiting_item"
    exchange_sku: str | None = None
    replacement_order_id: str | None = None


class CreditEntry(_Record):
    """One store-credit movement: goodwill from an agent, or a return paid as credit."""

    id: str
    customer_id: str
    amount: float = Field(gt=0)
    kind: Literal["goodwill", "return"]
    reason: str
    issued_on: IsoDate


class Contact(_Record):
    """An earlier support contact, as the agent who handled it summarised it."""

    id: str
    customer_id: str
    date: IsoDate
    channel: Channel
    summary: str


class RetailState(DomainState):
    """The whole shop as the tools see it during one conversation."""

    today: IsoDate = "2026-03-16"
    """The current date: return windows and ledgers are computed from it, never the clock."""
    customers: dict[str, Customer] = {}
    products: dict[str, Product] = {}
    orders: dict[str, Order] = {}
    returns: dict[str, ReturnRecord] = {}
    credits: dict[str, CreditEntry] = {}
    contacts: dict[str, Contact] = {}
