"""Shared lookups and the read tools of the ``appointments`` domain.

Lookups raise ``ToolError`` with a message the Agent can act on (which id is unknown, which
tool to call first). Results are plain JSON-able dicts; staff-only notes are returned under
``internal_notes_confidential`` so the Agent sees them but knows they are not for clients.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic import Field

from supportsim.domains._base import Args, record_of, require_verified, tool
from supportsim.domains.appointments._state import (
    Appointment,
    AppointmentsState,
    Client,
    Service,
    Slot,
)
from supportsim.errors import ToolError

CONFIDENTIAL = "internal_notes_confidential"
COUNTED = ("booked", "completed")
"""Appointment statuses that count against a corporate monthly cap."""


# --- lookups shared with the write tools ---------------------------------------------------


def get_client_record(state: AppointmentsState, client_id: str) -> Client:
    """The client, or a ToolError naming the unknown id."""
    return record_of(
        state.clients, client_id, f"no client {client_id!r}; client ids look like C-1001"
    )


def require_client(state: AppointmentsState, client_id: str) -> None:
    """Refuse unless the session's verified client is ``client_id`` (identity gating)."""
    require_verified(
        state, client_id, verify_with="verify_client with the client's id and date of birth"
    )


def get_appointment_record(state: AppointmentsState, appointment_id: str) -> Appointment:
    """The appointment, or a ToolError naming the unknown id."""
    return record_of(
        state.appointments,
        appointment_id,
        f"no appointment {appointment_id!r}; use list_appointments",
    )


def get_slot_record(state: AppointmentsState, slot_id: str) -> Slot:
    """The slot, or a ToolError naming the unknown id."""
    return record_of(
        state.slots, slot_id, f"no slot {slot_id!r}; use find_availability to get slot ids"
    )


def get_service_record(state: AppointmentsState, service_id: str) -> Service:
    """The service by id, or a ToolError listing the valid ids."""
    if service_id not in state.services:
        known = ", ".join(f"{s.id} ({s.name})" for s in state.services.values())
        raise ToolError(f"no service {service_id!r}; services: {known}")
    return state.services[service_id]


def check_bookable(state: AppointmentsState, slot: Slot, service: Service) -> None:
    """Refuse a slot that is taken, already started, or with a provider of another specialty."""
    provider = state.providers[slot.provider_id]
    if provider.specialty != service.specialty:
        raise ToolError(
            f"{provider.name} ({provider.id}) does not provide {service.id}; "
            "use find_availability for this service"
        )
    if slot.booked_by is not None:
        raise ToolError(f"slot {slot.id} is already booked; use find_availability")
    if state.hours_until(slot) <= 0:
        raise ToolError(f"slot {slot.id} is in the past")


def month_usage(
    state: AppointmentsState, client_id: str, month: str, *, exclude: str | None = None
) -> int:
    """Bookings of a client counting against the cap in a month (``YYYY-MM``)."""
    return sum(
        1
        for a in state.appointments.values()
        if a.client_id == client_id
        and a.id != exclude
        and a.status in COUNTED
        and state.slots[a.slot_id].date[:7] == month
    )


def check_cap(
    state: AppointmentsState, client: Client, slot: Slot, *, exclude: str | None = None
) -> None:
    """Refuse a booking that would take a corporate client over the monthly cap."""
    member = client.membership
    if member.kind != "corporate" or member.monthly_cap is None:
        return
    month = slot.date[:7]
    used = month_usage(state, client.id, month, exclude=exclude)
    if used >= member.monthly_cap:
        raise ToolError(
            f"corporate cap reached: {client.id} has {used} of {member.monthly_cap} bookings "
            f"covered by {member.company} in {month}. Do not book; extra bookings need "
            "approval by the corporate accounts team (transfer to a human)."
        )


def slot_view(state: AppointmentsState, slot: Slot) -> dict[str, Any]:
    """A slot as the Agent sees it, with the provider's name."""
    provider = state.providers[slot.provider_id]
    return {
        "slot_id": slot.id,
        "provider_id": provider.id,
        "provider": provider.name,
        "date": slot.date,
        "weekday": date.fromisoformat(slot.date).strftime("%A"),
        "time": slot.time,
    }


def appointment_view(state: AppointmentsState, appt: Appointment) -> dict[str, Any]:
    """An appointment with its slot, service and fee-window facts."""
    slot = state.slots[appt.slot_id]
    service = state.services[appt.service]
    hours = state.hours_until(slot)
    view: dict[str, Any] = {
        "appointment_id": appt.id,
        "client_id": appt.client_id,
        "status": appt.status,
        "service_id": service.id,
        "service": service.name,
        "price": service.price,
        **slot_view(state, slot),
        "hours_until_start": round(hours, 1),
        "within_fee_window": appt.status == "booked" and 0 < hours < state.fees.window_hours,
        "fee_paid": appt.fee_paid,
    }
    if appt.internal_notes:
        view[CONFIDENTIAL] = appt.internal_notes
    return view


# --- argument models -----------------------------------------------------------------------


class ClientArgs(Args):
    client_id: str = Field(min_length=1)
    """The client's id, e.g. C-1001 (printed on confirmation e-mails)."""


class VerifyArgs(ClientArgs):
    date_of_birth: str = Field(min_length=1)
    """The client's date of birth as YYYY-MM-DD (convert from the client's own format)."""


class AvailabilityArgs(Args):
    service: str = Field(min_length=1)
    """Service id: SV-GP (general consultation), SV-FLU (flu vaccination), SV-PHYSIO
    (physiotherapy session) or SV-DERM (skin check)."""
    provider_id: str | None = None
    """Only this provider's slots, e.g. P-201; omit for every provider of the service."""
    date: str | None = None
    """Only slots on this day, YYYY-MM-DD; omit for every upcoming day."""


class AppointmentArgs(Args):
    appointment_id: str = Field(min_length=1)
    """The appointment's id, e.g. A-5001."""


class ContactArgs(Args):
    customer_id: str = Field(min_length=1)
    """The client's id, e.g. C-1001."""


# --- read tools ----------------------------------------------------------------------------


@tool("read")
def verify_client(state: AppointmentsState, args: VerifyArgs) -> dict[str, Any]:
    """Verify a client's identity with their client id and date of birth (YYYY-MM-DD).
    Required before you discuss, book, move or cancel any of their appointments."""
    try:
        date.fromisoformat(args.date_of_birth)
        iso = len(args.date_of_birth) == 10
    except ValueError:
        iso = False
    if not iso:
        raise ToolError("date_of_birth must be a date written YYYY-MM-DD")
    client = state.clients.get(args.client_id)
    if client is None or client.date_of_birth != args.date_of_birth:
        raise ToolError("no client matches this client id and date of birth")
    state.session.verified_customer_id = client.id
    return {"verified": True, "client_id": client.id, "name": client.name}


@tool("read")
def get_client(state: AppointmentsState, args: ClientArgs) -> dict[str, Any]:
    """Look up a verified client's profile: name, phone, membership and, for corporate
    clients, how many bookings of their monthly cap are used in each month from this one."""
    client = get_client_record(state, args.client_id)
    require_client(state, client.id)
    member = client.membership
    result: dict[str, Any] = {
        "client_id": client.id,
        "name": client.name,
        "phone": client.phone,
        "membership": member.kind,
    }
    if member.kind == "corporate":
        months = sorted(
            {
                state.slots[a.slot_id].date[:7]
                for a in state.appointments.values()
                if a.client_id == client.id and state.slots[a.slot_id].date[:7] >= state.today[:7]
            }
            | {state.today[:7]}
        )
        result["company"] = member.company
        result["monthly_cap"] = member.monthly_cap
        result["bookings_counted_by_month"] = {m: month_usage(state, client.id, m) for m in months}
    if client.internal_notes:
        result[CONFIDENTIAL] = client.internal_notes
    return result


@tool("read")
def find_availability(state: AppointmentsState, args: AvailabilityArgs) -> dict[str, Any]:
    """List free upcoming slots for a service, optionally only one provider's or one day's.
    Returns slot ids to book with, the provider, date, weekday, time, price and duration."""
    service = get_service_record(state, args.service)
    if args.provider_id is not None:
        provider = state.providers.get(args.provider_id)
        if provider is None:
            raise ToolError(f"no provider {args.provider_id!r}")
        if provider.specialty != service.specialty:
            raise ToolError(f"{provider.name} ({provider.id}) does not provide {service.id}")
    if args.date is not None:
        try:
            date.fromisoformat(args.date)
        except ValueError:
            raise ToolError("date must be written YYYY-MM-DD") from None
    slots = [
        s
        for s in state.slots.values()
        if s.booked_by is None
        and state.providers[s.provider_id].specialty == service.specialty
        and args.provider_id in (None, s.provider_id)
        and args.date in (None, s.date)
        and state.hours_until(s) > 0
    ]
    slots.sort(key=lambda s: (s.date, s.time, s.provider_id))
    return {
        "service_id": service.id,
        "service": service.name,
        "price": service.price,
        "duration_minutes": service.duration,
        "slots": [slot_view(state, s) for s in slots],
    }


@tool("read")
def get_appointment(state: AppointmentsState, args: AppointmentArgs) -> dict[str, Any]:
    """Look up one appointment of the verified client: provider, date, time, service, price,
    status, hours until the start and whether the 24-hour fee window applies."""
    appt = get_appointment_record(state, args.appointment_id)
    require_client(state, appt.client_id)
    return appointment_view(state, appt)


@tool("read")
def list_appointments(state: AppointmentsState, args: ClientArgs) -> dict[str, Any]:
    """List every appointment (booked, cancelled, completed) of the verified client,
    in date order."""
    client = get_client_record(state, args.client_id)
    require_client(state, client.id)
    appts = [a for a in state.appointments.values() if a.client_id == client.id]
    appts.sort(key=lambda a: state.slot_start(state.slots[a.slot_id]))
    return {"client_id": client.id, "appointments": [appointment_view(state, a) for a in appts]}


@tool("read")
def get_fees(state: AppointmentsState) -> dict[str, Any]:
    """The fee schedule: late cancellation, late reschedule and no-show fees, and the window
    (hours before the start) inside which changes are charged."""
    fees = state.fees
    return {
        "currency": fees.currency,
        "window_hours": fees.window_hours,
        "late_cancellation_fee": fees.late_cancellation,
        "late_reschedule_fee": fees.late_reschedule,
        "no_show_fee": fees.no_show,
        "rule": f"cancelling or moving an appointment less than {fees.window_hours} hours "
        "before its start is charged; earlier changes are free",
    }


@tool("read")
def get_contact_history(state: AppointmentsState, args: ContactArgs) -> dict[str, Any]:
    """Earlier contacts of a client with the desk (date, channel, summary), newest first.
    Use it when the client refers to an earlier call or e-mail. Requires a verified client."""
    client = get_client_record(state, args.customer_id)
    require_client(state, client.id)
    contacts = [c for c in state.contact_history.values() if c.client_id == client.id]
    contacts.sort(key=lambda c: (c.date, c.id), reverse=True)
    return {
        "customer_id": client.id,
        "contacts": [
            {"id": c.id, "date": c.date, "channel": c.channel, "summary": c.summary}
            for c in contacts
        ],
    }
