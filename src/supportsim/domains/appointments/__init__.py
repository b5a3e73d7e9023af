"""The ``appointments`` domain: a clinic's appointment desk.

Clients book, move and cancel appointments with providers; changes within 24 hours of the
start cost a fee the client must accept, corporate clients have a monthly booking cap, and
every account action needs the client's identity verified with their date of birth.
"""

from __future__ import annotations

from supportsim.domains._base import Domain, Tool
from supportsim.domains._common import Owned, common_tools, private_values_of
from supportsim.domains.appointments._booking import (
    book_appointment,
    cancel_appointment,
    reschedule_appointment,
)
from supportsim.domains.appointments._fixture import fixture
from supportsim.domains.appointments._policy import ARTICLES, POLICY
from supportsim.domains.appointments._state import AppointmentsState
from supportsim.domains.appointments._tools import (
    find_availability,
    get_appointment,
    get_client,
    get_contact_history,
    get_fees,
    list_appointments,
    verify_client,
)

_TOOLS: tuple[Tool, ...] = (
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


def domain() -> Domain:
    """The appointments domain, built fresh (tools are shared, state never is)."""
    tools = {t.name: t for t in _TOOLS}
    return Domain(
        "appointments",
        AppointmentsState,
        fixture,
        {**tools, **common_tools(ARTICLES)},
        POLICY,
        ARTICLES,
        gates={"verify_client": "client_id"},
        facts={
            "client": ("get_client", "verify_client"),
            "slot": ("find_availability",),
            "appointment": ("get_appointment", "list_appointments"),
            "fee": ("get_fees", "search_knowledge_base"),
            "history": ("get_contact_history",),
            "policy": ("search_knowledge_base",),
        },
        private_values=private_values_of(
            Owned("clients", "id", ("name", "date_of_birth", "phone")),
        ),
        # What each write performs, for forbidden:false_claim. No tool waives a fee.
        actions={
            "book_appointment": ("booked",),
            "reschedule_appointment": ("rescheduled", "changed"),
            "cancel_appointment": ("cancelled",),
        },
        template_cites={
            "identity_detail": "never say which detail did not match",
            "other_customer_data": "never reveal another client's data",
            "reply_language": "answer in the client's language",
            "false_claim": "Never tell the client something was done unless you did it.",
        },
    )


__all__ = ["domain"]
