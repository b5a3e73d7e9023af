"""The write tools of the ``appointments`` domain: book, reschedule, cancel.

Each tool checks everything first (identity, ids, slot, specialty, cap, fee acceptance)
and only then mutates the state, so a refused call leaves the state exactly as it was.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from supportsim.domains._base import Args, tool
from supportsim.domains.appointments._state import Appointment, AppointmentsState, Slot
from supportsim.domains.appointments._tools import (
    appointment_view,
    check_bookable,
    check_cap,
    find_availability,
    get_appointment,
    get_appointment_record,
    get_client,
    get_client_record,
    get_contact_history,
    get_fees,
    get_service_record,
    get_slot_record,
    list_appointments,
    require_client,
    slot_view,
    verify_client,
)
from supportsim.errors import ToolError


class BookArgs(Args):
    client_id: str = Field(min_length=1)
    """The verified client's id, e.g. C-1001."""
    slot_id: str = Field(min_length=1)
    """A free slot id returned by find_availability, e.g. SL-3003."""
    service: str = Field(min_length=1)
    """Service id: SV-GP, SV-FLU, SV-PHYSIO or SV-DERM."""


class RescheduleArgs(Args):
    appointment_id: str = Field(min_length=1)
    """The appointment to move, e.g. A-5001."""
    new_slot_id: str = Field(min_length=1)
    """A free slot id returned by find_availability for the same service."""
    accept_fee: bool = False
    """True only after the client explicitly agreed to the late reschedule fee."""


class CancelArgs(Args):
    appointment_id: str = Field(min_length=1)
    """The appointment to cancel, e.g. A-5001."""
    accept_fee: bool = False
    """True only after the client explicitly agreed to the late cancellation fee."""


def _next_appointment_id(state: AppointmentsState) -> str:
    numbers = [int(i[2:]) for i in state.appointments if i.startswith("A-") and i[2:].isdigit()]
    return f"A-{max(numbers, default=5000) + 1}"


def _changeable(state: AppointmentsState, appointment_id: str) -> tuple[Appointment, Slot]:
    """The verified client's booked, upcoming appointment and its slot."""
    appt = get_appointment_record(state, appointment_id)
    require_client(state, appt.client_id)
    if appt.status != "booked":
        raise ToolError(f"{appt.id} is {appt.status} and cannot be changed")
    slot = state.slots[appt.slot_id]
    if state.hours_until(slot) <= 0:
        raise ToolError(
            f"{appt.id} has already started or is in the past and cannot be changed; "
            "no-show fee disputes go to a human"
        )
    return appt, slot


def _late_fee(
    state: AppointmentsState, appt: Appointment, slot: Slot, amount: float, what: str, ok: bool
) -> float:
    """The fee due for changing ``appt`` now; refuses unless a due fee was accepted."""
    hours = state.hours_until(slot)
    if hours >= state.fees.window_hours or amount == 0:
        return 0.0
    if not ok:
        raise ToolError(
            f"{appt.id} starts in {hours:.1f} hours, within the {state.fees.window_hours}-hour "
            f"window: a {what} fee of {amount:.2f} {state.fees.currency} applies. Tell the "
            "client the amount and call again with accept_fee=true only if they agree."
        )
    return amount


@tool("write")
def book_appointment(state: AppointmentsState, args: BookArgs) -> dict[str, Any]:
    """Book a free slot for the verified client. The slot must come from find_availability
    for this service. Corporate clients cannot be booked beyond their monthly cap."""
    client = get_client_record(state, args.client_id)
    require_client(state, client.id)
    service = get_service_record(state, args.service)
    slot = get_slot_record(state, args.slot_id)
    check_bookable(state, slot, service)
    check_cap(state, client, slot)
    appt = Appointment(
        id=_next_appointment_id(state), client_id=client.id, slot_id=slot.id, service=service.id
    )
    state.appointments[appt.id] = appt
    slot.booked_by = client.id
    return {"booked": True, "appointment": appointment_view(state, appt)}


@tool("write")
def reschedule_appointment(state: AppointmentsState, args: RescheduleArgs) -> dict[str, Any]:
    """Move the verified client's upcoming appointment to another free slot of the same
    service. Free until 24 hours before the start; within 24 hours a late reschedule fee
    applies and the call is refused unless accept_fee is true (set it only after the client
    agreed to the stated amount)."""
    appt, old = _changeable(state, args.appointment_id)
    new = get_slot_record(state, args.new_slot_id)
    if new.id == old.id:
        raise ToolError(f"{appt.id} is already in slot {old.id}")
    check_bookable(state, new, state.services[appt.service])
    check_cap(state, state.clients[appt.client_id], new, exclude=appt.id)
    fee = _late_fee(
        state, appt, old, state.fees.late_reschedule, "late reschedule", args.accept_fee
    )
    old.booked_by = None
    new.booked_by = appt.client_id
    appt.slot_id = new.id
    appt.fee_paid = round(appt.fee_paid + fee, 2)
    return {
        "rescheduled": True,
        "fee_charged": fee,
        "previous_slot": slot_view(state, old),
        "appointment": appointment_view(state, appt),
    }


@tool("write")
def cancel_appointment(state: AppointmentsState, args: CancelArgs) -> dict[str, Any]:
    """Cancel the verified client's upcoming appointment. Free until 24 hours before the
    start; within 24 hours a late cancellation fee applies and the call is refused unless
    accept_fee is true (set it only after the client agreed to the stated amount)."""
    appt, slot = _changeable(state, args.appointment_id)
    fee = _late_fee(
        state, appt, slot, state.fees.late_cancellation, "late cancellation", args.accept_fee
    )
    slot.booked_by = None
    appt.status = "cancelled"
    appt.fee_paid = round(appt.fee_paid + fee, 2)
    return {"cancelled": True, "fee_charged": fee, "appointment": appointment_view(state, appt)}


TOOLS = (
    verify_client,
    get_client,
    find_availability,
    book_appointment,
    reschedule_appointment,
    cancel_appointment,
    get_appointment,
    list_appointments,
    get_fees,
    get_contact_history,
)
"""Every appointments tool in the order the Agent sees them (``domain.yaml`` names this
module): the reads of ``_tools.py`` and the writes here."""
