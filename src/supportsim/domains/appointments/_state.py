"""State models of the ``appointments`` domain: clients, providers, slots, appointments.

Every collection is a ``dict`` keyed by record id so that a scenario can override a single
field of a single record by deep merge (``clients: {C-1001: {phone: ...}}``). Time is part
of the state (``today`` and ``now_hour``), never read from the clock, so every tool is a
pure function of state and arguments.
"""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from supportsim.domains._base import DomainState

AppointmentStatus = Literal["booked", "cancelled", "completed"]
MembershipKind = Literal["standard", "corporate"]


def _iso_date(value: str) -> str:
    try:
        ok = len(value) == 10 and date.fromisoformat(value) is not None
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"expected an ISO date YYYY-MM-DD, got {value!r}")
    return value


def _hour_minute(value: str) -> str:
    try:
        ok = len(value) == 5 and value[2] == ":" and time.fromisoformat(value) is not None
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"expected a 24-hour time HH:MM, got {value!r}")
    return value


IsoDate = Annotated[str, AfterValidator(_iso_date)]
"""A calendar date as ISO text, validated so tools can parse it without failing."""
HourMinute = Annotated[str, AfterValidator(_hour_minute)]


class _Record(BaseModel):
    """Base of the records: strict, so a scenario's typo in a field name is an error."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Membership(_Record):
    """How a client's bookings are paid for and limited."""

    kind: MembershipKind = "standard"
    """standard: the client pays; corporate: the employer pays, within a monthly cap."""
    company: str | None = None
    """The employer holding the corporate contract (corporate only)."""
    monthly_cap: int | None = Field(default=None, ge=0)
    """Bookings per calendar month the contract covers (corporate only)."""


class Client(_Record):
    """A person who books appointments."""

    id: str
    name: str
    date_of_birth: IsoDate
    """ISO date (YYYY-MM-DD); the identity check compares it exactly."""
    phone: str
    membership: Membership = Membership()
    internal_notes: str = ""
    """Staff-only remarks; the policy forbids disclosing them to anyone."""


class Provider(_Record):
    """A practitioner whose calendar holds slots."""

    id: str
    name: str
    specialty: str
    """Matches ``Service.specialty``: a provider delivers the services of its specialty."""
    internal_notes: str = ""


class Service(_Record):
    """Something a client can book, with its list price."""

    id: str
    name: str
    price: float = Field(ge=0)
    """List price in USD, paid at the visit (or billed to the employer)."""
    duration: int = Field(gt=0)
    """Length in minutes."""
    specialty: str
    """Which providers can deliver it."""


class Slot(_Record):
    """One bookable time in one provider's calendar."""

    id: str
    provider_id: str
    date: IsoDate
    """ISO date (YYYY-MM-DD)."""
    time: HourMinute
    """Start time, 24-hour HH:MM."""
    booked_by: str | None = None
    """Id of the client holding the slot, or null when it is free."""


class Appointment(_Record):
    """A booking of one slot by one client for one service."""

    id: str
    client_id: str
    slot_id: str
    service: str
    """Service id, e.g. SV-PHYSIO."""
    status: AppointmentStatus = "booked"
    fee_paid: float = Field(default=0.0, ge=0)
    """Late cancellation, late reschedule or no-show fees charged on this appointment (USD)."""
    internal_notes: str = ""


class Fees(_Record):
    """The fee schedule the write tools apply."""

    currency: str = "USD"
    window_hours: int = Field(default=24, gt=0)
    """Changes less than this many hours before the start incur a fee."""
    late_cancellation: float = Field(default=40.0, ge=0)
    late_reschedule: float = Field(default=25.0, ge=0)
    no_show: float = Field(default=60.0, ge=0)


class Contact(_Record):
    """One earlier contact with the desk, for conversations that refer back to it."""

    id: str
    client_id: str
    date: IsoDate
    channel: Literal["phone", "email", "chat", "in_person"]
    summary: str


class AppointmentsState(DomainState):
    """The whole appointment desk: one clinic's calendar and clients."""

    today: IsoDate = "2026-03-16"
    """The current date (ISO); tools never read the clock."""
    now_hour: int = Field(default=10, ge=0, le=23)
    """The current hour of ``today`` (24-hour), for the fee window."""
    clients: dict[str, Client] = {}
    providers: dict[str, Provider] = {}
    services: dict[str, Service] = {}
    slots: dict[str, Slot] = {}
    appointments: dict[str, Appointment] = {}
    fees: Fees = Fees()
    contact_history: dict[str, Contact] = {}

    @model_validator(mode="after")
    def _references(self) -> AppointmentsState:
        """Every id a record points to exists, so tools never fail on a broken reference
        (a scenario override that breaks one is reported as a state problem instead)."""
        problems: list[str] = []

        def check(what: str, ref: str | None, table: dict[str, Any]) -> None:
            if ref is not None and ref not in table:
                problems.append(f"{what} refers to unknown id {ref!r}")

        for kind, table in (
            ("clients", self.clients),
            ("providers", self.providers),
            ("services", self.services),
            ("slots", self.slots),
            ("appointments", self.appointments),
            ("contact_history", self.contact_history),
        ):
            for key, record in table.items():
                if record.id != key:
                    problems.append(f"{kind}.{key} has id {record.id!r}; keys must equal ids")
        for slot in self.slots.values():
            check(f"slot {slot.id} provider_id", slot.provider_id, self.providers)
            check(f"slot {slot.id} booked_by", slot.booked_by, self.clients)
        for appt in self.appointments.values():
            check(f"appointment {appt.id} client_id", appt.client_id, self.clients)
            check(f"appointment {appt.id} slot_id", appt.slot_id, self.slots)
            check(f"appointment {appt.id} service", appt.service, self.services)
        for contact in self.contact_history.values():
            check(f"contact {contact.id} client_id", contact.client_id, self.clients)
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def now(self) -> datetime:
        """The simulated current moment."""
        return datetime.combine(date.fromisoformat(self.today), time(self.now_hour))

    def slot_start(self, slot: Slot) -> datetime:
        """When a slot begins."""
        return datetime.combine(date.fromisoformat(slot.date), time.fromisoformat(slot.time))

    def hours_until(self, slot: Slot) -> float:
        """Hours from now until the slot starts (negative once it has started)."""
        return (self.slot_start(slot) - self.now()).total_seconds() / 3600
