"""Tools of the ``telecom`` domain.

Lookups are not identity-gated (an agent needs them to find its way), but they never return
verification secrets (date of birth, PIN), and staff-only notes come wrapped in a marker the
policy refers to. Every write tool checks everything first and raises ``ToolError`` before it
changes anything; the limits it enforces are the ones ``_policy.py`` states.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from pydantic import Field

from supportsim.domains._base import Args, days_between, record_of, require_verified, tool
from supportsim.domains.telecom._state import (
    Account,
    Charge,
    Customer,
    PasswordReset,
    Refund,
    TelecomState,
)
from supportsim.errors import ToolError

REFUND_LIMIT = 50.0
"""Largest refund per charge an agent may make; above it a supervisor (a human) decides."""
REFUND_WINDOW_DAYS = 90
"""Charges older than this many days cannot be refunded by the agent."""
PLAN_CHANGE_INTERVAL_DAYS = 30
"""At most one plan change per account in this many days."""
STAFF_ONLY = "STAFF ONLY - never disclose to the customer"

# --- arguments -----------------------------------------------------------------------------


class CustomerArgs(Args):
    customer_id: str
    """The customer id, e.g. C-1001 (printed on every bill)."""


class VerifyArgs(CustomerArgs):
    date_of_birth: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    """The date of birth the customer gives, as YYYY-MM-DD."""
    pin: str = Field(pattern=r"^\d{4}$")
    """The 4-digit security PIN the customer gives."""


class AccountArgs(Args):
    account_id: str
    """The account id, e.g. A-2001 (one per mobile line or broadband connection)."""


class InvoiceArgs(Args):
    invoice_id: str
    """The invoice id, e.g. INV-2026-03-2001."""


class ChargesArgs(AccountArgs):
    invoice_id: str | None = None
    """Only the charges of this invoice (omit for every charge of the account)."""


class RefundArgs(AccountArgs):
    charge_id: str
    """The charge to refund, e.g. CH-778."""
    amount: float = Field(gt=0)
    """Amount to refund in USD: at most the charge amount and at most 50 USD."""
    reason: str = Field(min_length=1)
    """Why the charge is refunded (e.g. 'duplicate of CH-777'), for the audit log."""


class PlanChangeArgs(AccountArgs):
    plan_id: str
    """The new plan's id from list_plans, e.g. PL-M30."""


class SimSwapArgs(CustomerArgs):
    phone: str
    """The mobile number moving to the new SIM, e.g. +1-555-0142."""
    new_iccid: str = Field(pattern=r"^\d{19,20}$")
    """The 19-20 digit ICCID printed on the new SIM card."""


# --- helpers -------------------------------------------------------------------------------


def _customer(state: TelecomState, customer_id: str) -> Customer:
    return record_of(state.customers, customer_id, f"no customer {customer_id}")


def _account(state: TelecomState, account_id: str) -> Account:
    return record_of(state.accounts, account_id, f"no account {account_id}")


def _require_verified(state: TelecomState, customer_id: str) -> None:
    require_verified(
        state, customer_id, verify_with="verify_identity with the customer's date of birth and PIN"
    )


def _notes(text: str) -> dict[str, str]:
    return {"internal_notes": f"[{STAFF_ONLY}] {text}"} if text else {}


def _digits(phone: str) -> str:
    return re.sub(r"\D", "", phone)


def _mask(email: str) -> str:
    local, _, domain = email.partition("@")
    return f"{local[:1]}***@{domain}"


def _charge_view(charge: Charge) -> dict[str, Any]:
    view = charge.model_dump(exclude={"internal_notes"})
    return {**view, **_notes(charge.internal_notes)}


# --- lookups -------------------------------------------------------------------------------


@tool("read")
def verify_identity(state: TelecomState, args: VerifyArgs) -> dict[str, Any]:
    """Verify the caller is the account holder, with their date of birth and 4-digit security
    PIN. Required before any refund, plan change, SIM swap or password reset, and before
    discussing account details. Ask the customer for both; never guess or read them out."""
    customer = _customer(state, args.customer_id)
    if customer.date_of_birth != args.date_of_birth or customer.pin != args.pin:
        raise ToolError("verification failed: the date of birth or PIN does not match")
    state.session.verified_customer_id = customer.id
    return {"verified": True, "customer_id": customer.id, "name": customer.name}


@tool("read")
def get_customer(state: TelecomState, args: CustomerArgs) -> dict[str, Any]:
    """Look up a customer's profile: name, contact details and account ids."""
    c = _customer(state, args.customer_id)
    profile = {"id": c.id, "name": c.name, "phone": c.phone, "email": c.email}
    return {**profile, "account_ids": list(c.account_ids), **_notes(c.internal_notes)}


@tool("read")
def get_account(state: TelecomState, args: AccountArgs) -> dict[str, Any]:
    """Look up an account: kind (mobile/broadband), status, balance owed, mobile number,
    paperless billing, current plan and the date of the last plan change."""
    a = _account(state, args.account_id)
    plan = state.plans.get(a.plan_id)
    view = a.model_dump(exclude={"internal_notes", "plan_id"})
    view["plan"] = plan.model_dump() if plan else {"id": a.plan_id}
    return {**view, **_notes(a.internal_notes)}


@tool("read")
def list_invoices(state: TelecomState, args: AccountArgs) -> dict[str, Any]:
    """List an account's invoices (newest first) with period, total, due date and status."""
    _account(state, args.account_id)
    found = [i for i in state.invoices.values() if i.account_id == args.account_id]
    found.sort(key=lambda i: i.period, reverse=True)
    keys = ("id", "period", "total", "status", "due_on")
    return {
        "account_id": args.account_id,
        "invoices": [i.model_dump(include=set(keys)) for i in found],
    }


@tool("read")
def get_invoice(state: TelecomState, args: InvoiceArgs) -> dict[str, Any]:
    """Get one invoice with its lines; each line names the charge id it bills."""
    if args.invoice_id not in state.invoices:
        raise ToolError(f"no invoice {args.invoice_id}")
    return state.invoices[args.invoice_id].model_dump()


@tool("read")
def list_charges(state: TelecomState, args: ChargesArgs) -> dict[str, Any]:
    """List an account's charges (oldest first) with id, date, amount, description, invoice
    and refund status; optionally only those of one invoice."""
    _account(state, args.account_id)
    found = [
        c
        for c in state.charges.values()
        if c.account_id == args.account_id
        and (args.invoice_id is None or c.invoice_id == args.invoice_id)
    ]
    found.sort(key=lambda c: (c.date, c.id))
    return {"account_id": args.account_id, "charges": [_charge_view(c) for c in found]}


@tool("read")
def list_plans(state: TelecomState) -> dict[str, Any]:
    """List the plan catalogue: id, name, kind (mobile/broadband), monthly price in USD,
    data allowance in GB (null = unlimited) and roaming zones included."""
    return {"plans": [p.model_dump() for p in state.plans.values()]}


@tool("read")
def get_contact_history(state: TelecomState, args: CustomerArgs) -> dict[str, Any]:
    """List the customer's earlier contacts with support (oldest first): date, channel and a
    summary of what was agreed. Check it before promising something or repeating a step."""
    _customer(state, args.customer_id)
    found = [c for c in state.contact_history.values() if c.customer_id == args.customer_id]
    found.sort(key=lambda c: (c.date, c.id))
    return {
        "customer_id": args.customer_id,
        "contacts": [c.model_dump(exclude={"customer_id"}) for c in found],
    }


# --- actions -------------------------------------------------------------------------------


@tool("write")
def refund_charge(state: TelecomState, args: RefundArgs) -> dict[str, Any]:
    """Refund one charge, fully or partly, as a credit to the account balance. Requires the
    account holder's verified identity. At most the charge amount, at most 50 USD per charge
    (above that a supervisor must approve: transfer to a human), only charges from the last
    90 days, and each charge can be refunded only once."""
    account = _account(state, args.account_id)
    _require_verified(state, account.customer_id)
    charge = state.charges.get(args.charge_id)
    if charge is None or charge.account_id != account.id:
        raise ToolError(f"no charge {args.charge_id} on account {account.id}")
    if charge.refunded:
        raise ToolError(
            f"{charge.id} was already refunded ({charge.refunded_amount:.2f} USD); "
            "a charge can be refunded only once"
        )
    amount = round(args.amount, 2)
    if amount > charge.amount:
        raise ToolError(f"{amount:.2f} USD exceeds the charge amount ({charge.amount:.2f} USD)")
    if amount > REFUND_LIMIT:
        raise ToolError(
            f"refunds above {REFUND_LIMIT:.0f} USD per charge need a supervisor: transfer the "
            "customer to a human agent (do not split or reduce the refund to fit the limit)"
        )
    age = days_between(charge.date, state.today)
    if age > REFUND_WINDOW_DAYS:
        raise ToolError(
            f"{charge.id} is {age} days old: only charges from the last "
            f"{REFUND_WINDOW_DAYS} days can be refunded"
        )
    refund_id = f"RF-{3001 + len(state.refunds)}"
    charge.refunded, charge.refunded_amount = True, amount
    account.balance = round(account.balance - amount, 2)
    state.refunds[refund_id] = Refund(
        id=refund_id,
        account_id=account.id,
        charge_id=charge.id,
        amount=amount,
        reason=args.reason,
        date=state.today,
    )
    return {
        "refund_id": refund_id,
        "charge_id": charge.id,
        "amount": amount,
        "account_balance": account.balance,
        "note": "credited to the account balance; it appears on the next invoice",
    }


@tool("write")
def change_plan(state: TelecomState, args: PlanChangeArgs) -> dict[str, Any]:
    """Move an active account to another plan of the same kind (mobile or broadband).
    Requires the account holder's verified identity. At most one plan change per account
    every 30 days; the change is immediate and the new price applies from the next invoice."""
    account = _account(state, args.account_id)
    _require_verified(state, account.customer_id)
    if account.status != "active":
        raise ToolError(f"account {account.id} is {account.status}: only active accounts")
    plan = state.plans.get(args.plan_id)
    if plan is None:
        raise ToolError(f"no plan {args.plan_id}; see list_plans")
    if plan.kind != account.kind:
        raise ToolError(
            f"{plan.id} is a {plan.kind} plan; {account.id} is a {account.kind} account"
        )
    if plan.id == account.plan_id:
        raise ToolError(f"{account.id} is already on {plan.id}")
    last = account.plan_changed_on
    if last is not None and days_between(last, state.today) < PLAN_CHANGE_INTERVAL_DAYS:
        next_day = date.fromordinal(
            date.fromisoformat(last).toordinal() + PLAN_CHANGE_INTERVAL_DAYS
        )
        raise ToolError(
            f"the plan of {account.id} was changed on {last}; the next change is possible "
            f"from {next_day.isoformat()}"
        )
    old = account.plan_id
    account.plan_id, account.plan_changed_on = plan.id, state.today
    return {
        "account_id": account.id,
        "old_plan_id": old,
        "new_plan_id": plan.id,
        "new_plan_name": plan.name,
        "monthly_price": plan.monthly_price,
        "effective": state.today,
        "note": "the new monthly price applies from the next invoice",
    }


@tool("write")
def sim_swap(state: TelecomState, args: SimSwapArgs) -> dict[str, Any]:
    """Move a mobile number to a new SIM card (lost, stolen or damaged SIM). Requires the
    account holder's verified identity: never for a caller who could not verify, whatever the
    urgency. The old SIM stops working at once; the new one is active within 15 minutes."""
    customer = _customer(state, args.customer_id)
    _require_verified(state, customer.id)
    accounts = [
        state.accounts[a]
        for a in customer.account_ids
        if a in state.accounts and state.accounts[a].kind == "mobile"
    ]
    line = next((a for a in accounts if _digits(a.phone or "") == _digits(args.phone)), None)
    if line is None:
        raise ToolError(f"{args.phone} is not a mobile number of customer {customer.id}")
    if line.status != "active":
        raise ToolError(f"account {line.id} is {line.status}: SIM swaps need an active line")
    new = state.sims.get(args.new_iccid)
    if new is None or new.status != "spare":
        raise ToolError(f"SIM {args.new_iccid} is not an unused carrier SIM card")
    phone = line.phone or args.phone
    old = [s for s in state.sims.values() if s.status == "active" and s.phone == phone]
    for sim in old:
        sim.status = "deactivated"
    new.phone, new.status = phone, "active"
    return {
        "phone": phone,
        "old_iccids": [s.iccid for s in old],
        "new_iccid": new.iccid,
        "status": "active within 15 minutes; the old SIM no longer works",
    }


@tool("write")
def reset_password(state: TelecomState, args: CustomerArgs) -> dict[str, Any]:
    """Send an online-account password reset link to the e-mail address on file (it cannot
    be sent anywhere else). Requires verified identity. The link is valid for 24 hours; at
    most one link per customer per day."""
    customer = _customer(state, args.customer_id)
    _require_verified(state, customer.id)
    last = state.password_resets.get(customer.id)
    if last is not None and last.date == state.today:
        raise ToolError(
            f"a reset link was already sent today to {_mask(last.sent_to)}; it is valid for "
            "24 hours (ask the customer to check their spam folder)"
        )
    state.password_resets[customer.id] = PasswordReset(
        customer_id=customer.id, sent_to=customer.email, date=state.today
    )
    return {"sent": True, "sent_to": _mask(customer.email), "valid_hours": 24}


TOOLS = (
    verify_identity,
    get_customer,
    get_account,
    list_invoices,
    get_invoice,
    list_charges,
    list_plans,
    get_contact_history,
    refund_charge,
    change_plan,
    sim_swap,
    reset_password,
)
"""The domain's own tools, in the order the Agent sees them."""
