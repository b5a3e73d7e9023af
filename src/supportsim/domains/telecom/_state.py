"""State models of the ``telecom`` domain: a mobile and broadband carrier's records.

Every collection is a ``dict`` keyed by record id, so a scenario can override one field of
one record by deep merge (``accounts: {A-2001: {status: suspended}}``). Records are strict
(``extra="forbid"``) so a typo in a scenario is a load error, not a silently ignored key.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from supportsim.domains._base import DomainState

AccountKind = Literal["mobile", "broadband"]


class Record(BaseModel):
    """Base of every telecom record: unknown fields are errors, assignments are validated."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Customer(Record):
    """An account holder. ``date_of_birth`` and ``pin`` are verification secrets."""

    id: str
    name: str
    date_of_birth: str
    """ISO date; checked by verify_identity, never returned by a lookup."""
    pin: str = Field(pattern=r"^\d{4}$")
    """The 4-digit security PIN; checked by verify_identity, never returned by a lookup."""
    phone: str
    """Contact phone number."""
    email: str
    account_ids: list[str] = []
    internal_notes: str = ""
    """Staff-only notes (fraud flags, retention offers): must never be told to a customer."""


class Account(Record):
    """One service contract (a mobile line or a broadband connection) on one plan."""

    id: str
    customer_id: str
    kind: AccountKind
    plan_id: str
    status: Literal["active", "suspended", "closed"] = "active"
    balance: float = 0.0
    """Amount owed in USD; refunds are credited here (it can go negative = credit)."""
    phone: str | None = None
    """The mobile number of a mobile account (None for broadband)."""
    paperless_billing: bool = True
    """Paperless accounts must never pay the paper bill fee."""
    plan_changed_on: str | None = None
    """ISO date of the last plan change: one change per 30 days."""
    internal_notes: str = ""


class InvoiceLine(Record):
    """One line of an invoice; ``charge_id`` links it to the charge record."""

    charge_id: str
    description: str
    amount: float


class Invoice(Record):
    """A monthly bill of one account."""

    id: str
    account_id: str
    period: str
    """Billing month, ``YYYY-MM``."""
    issued_on: str
    due_on: str
    total: float
    status: Literal["open", "paid"] = "open"
    lines: list[InvoiceLine] = []


class Charge(Record):
    """One billed amount; refunds are per charge and at most once."""

    id: str
    account_id: str
    invoice_id: str
    amount: float
    description: str
    date: str
    refunded: bool = False
    refunded_amount: float = 0.0
    internal_notes: str = ""


class Plan(Record):
    """A tariff in the catalogue. ``data_gb`` None means unlimited data."""

    id: str
    name: str
    kind: AccountKind
    monthly_price: float
    data_gb: int | None = None
    roaming_included: list[str] = []
    """Roaming zones whose Travel Pass is included at no daily charge."""


class Refund(Record):
    """One refund made, for the audit log."""

    id: str
    account_id: str
    charge_id: str
    amount: float
    reason: str
    date: str


class SimCard(Record):
    """A SIM card. Spare cards are in customers' hands but not yet on a line."""

    iccid: str
    phone: str | None = None
    status: Literal["active", "spare", "deactivated"] = "spare"


class PasswordReset(Record):
    """The last online-account password reset link sent to a customer."""

    customer_id: str
    sent_to: str
    date: str


class Contact(Record):
    """An earlier contact with support, for continuity across conversations."""

    id: str
    customer_id: str
    date: str
    channel: Literal["phone", "chat", "email", "store"]
    summary: str


class TelecomState(DomainState):
    """The whole carrier world one conversation runs against."""

    today: str
    """ISO date the tools treat as today (no clock: runs are deterministic)."""
    customers: dict[str, Customer] = {}
    accounts: dict[str, Account] = {}
    invoices: dict[str, Invoice] = {}
    charges: dict[str, Charge] = {}
    plans: dict[str, Plan] = {}
    refunds: dict[str, Refund] = {}
    sims: dict[str, SimCard] = {}
    """SIM cards by ICCID."""
    password_resets: dict[str, PasswordReset] = {}
    """The last reset link sent, by customer id."""
    contact_history: dict[str, Contact] = {}
