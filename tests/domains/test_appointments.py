"""The ``appointments`` domain: exact tool results, refusals that leave state unchanged,
identity gating, the fee window and the corporate cap, and the tools' JSON schemas."""

from __future__ import annotations

from typing import Any

import pytest

from supportsim.domains import builtin_domains
from supportsim.domains.appointments import domain
from supportsim.domains.appointments._state import AppointmentsState
from supportsim.errors import ToolError

D = domain()


def call(state: AppointmentsState, name: str, **args: Any) -> Any:
    tool = D.tools[name]
    return tool.run(state, tool.args_model(**args))


def fresh(overrides: dict[str, Any] | None = None, *, verified: str | None = None):
    state = D.initial_state(overrides or {})
    state.session.verified_customer_id = verified
    return state


def refused(state: AppointmentsState, name: str, match: str, **args: Any) -> None:
    """The call raises ToolError (message matching) and the state is exactly unchanged."""
    before = state.model_dump()
    with pytest.raises(ToolError, match=match):
        call(state, name, **args)
    assert state.model_dump() == before


# --- domain shape --------------------------------------------------------------------------


def test_domain_is_registered_and_complete() -> None:
    assert D.name == "appointments"
    assert set(D.tools) == {
        "verify_client",
        "get_client",
        "find_availability",
        "book_appointment",
        "reschedule_appointment",
        "cancel_appointment",
        "get_appointment",
        "list_appointments",
        "get_fees",
        "get_contact_history",
        "transfer_to_human",
        "search_knowledge_base",
    }
    writes = {n for n, t in D.tools.items() if t.kind == "write"}
    assert writes == {
        "book_appointment",
        "reschedule_appointment",
        "cancel_appointment",
        "transfer_to_human",
    }
    assert 40 <= len(D.policy.splitlines()) <= 80
    assert 8 <= len(D.knowledge) <= 12
    assert len({a.id for a in D.knowledge}) == len(D.knowledge)


def test_builtin_domains_picks_it_up() -> None:
    try:
        domains = builtin_domains()
    except (AttributeError, ImportError) as exc:  # another domain still being written
        pytest.skip(f"another built-in domain does not load yet: {exc}")
    assert domains["appointments"].tools.keys() == D.tools.keys()


def test_fixture_is_fresh_and_valid() -> None:
    a, b = D.fixture(), D.fixture()
    a["clients"]["C-1001"]["name"] = "changed"
    assert b["clients"]["C-1001"]["name"] == "Helen Marsh"
    state = D.initial_state({})
    assert state.today == "2026-03-16" and state.now_hour == 10
    assert 3 <= len(state.clients) <= 5


def test_scenario_override_merges_one_field() -> None:
    state = D.initial_state({"clients": {"C-1001": {"phone": "+1 555 9999"}}, "now_hour": 12})
    assert state.clients["C-1001"].phone == "+1 555 9999"
    assert state.clients["C-1001"].name == "Helen Marsh"
    assert state.now_hour == 12


@pytest.mark.parametrize(
    ("override", "where"),
    [
        ({"slots": {"SL-3001": {"provider_id": "P-999"}}}, "P-999"),
        ({"appointments": {"A-5001": {"service": "SV-NOPE"}}}, "SV-NOPE"),
        ({"clients": {"C-1001": {"date_of_birth": "02/06/1979"}}}, "ISO date"),
        ({"slots": {"SL-3001": {"time": "3pm"}}}, "HH:MM"),
        ({"clients": {"C-1001": {"nickname": "H"}}}, "Extra inputs"),
    ],
)
def test_broken_overrides_are_state_problems(override: dict[str, Any], where: str) -> None:
    from supportsim.domains import DomainCatalogue

    problems = DomainCatalogue({"appointments": D}).state_problems("appointments", override)
    assert problems and any(where in msg for _, msg in problems)


# --- schemas -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(D.tools))
def test_parameters_are_valid_json_schema_with_descriptions(name: str) -> None:
    import jsonschema

    tool = D.tools[name]
    schema = tool.parameters()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    for prop_name, prop in schema["properties"].items():
        assert prop.get("description", "").strip(), f"{name}.{prop_name} has no description"
    assert tool.description.strip()


def test_schema_rejects_unknown_arguments() -> None:
    with pytest.raises(ValueError):
        D.tools["get_fees"].args_model(extra=1)


# --- verification --------------------------------------------------------------------------


def test_verify_client_sets_the_session() -> None:
    state = fresh()
    result = call(state, "verify_client", client_id="C-1002", date_of_birth="1985-03-14")
    assert result == {"verified": True, "client_id": "C-1002", "name": "Katrin Vogel"}
    assert state.session.verified_customer_id == "C-1002"


@pytest.mark.parametrize(
    ("client_id", "dob", "match"),
    [
        ("C-1002", "1985-14-03", "YYYY-MM-DD"),
        ("C-1002", "14.03.1985", "YYYY-MM-DD"),
        ("C-1002", "1985-3-14", "YYYY-MM-DD"),
        ("C-1002", "1985-03-15", "no client matches"),
        ("C-9999", "1985-03-14", "no client matches"),
    ],
)
def test_verify_client_refusals(client_id: str, dob: str, match: str) -> None:
    state = fresh(verified="C-1001")
    refused(state, "verify_client", match, client_id=client_id, date_of_birth=dob)
    assert state.session.verified_customer_id == "C-1001"


GATED = [
    ("get_client", {"client_id": "C-1001"}),
    ("list_appointments", {"client_id": "C-1001"}),
    ("get_appointment", {"appointment_id": "A-5001"}),
    ("book_appointment", {"client_id": "C-1001", "slot_id": "SL-3003", "service": "SV-GP"}),
    (
        "reschedule_appointment",
        {"appointment_id": "A-5001", "new_slot_id": "SL-3003", "accept_fee": True},
    ),
    ("cancel_appointment", {"appointment_id": "A-5001", "accept_fee": True}),
]


@pytest.mark.parametrize("verified", [None, "C-1002"])
@pytest.mark.parametrize(("name", "args"), GATED)
def test_identity_gating(name: str, args: dict[str, Any], verified: str | None) -> None:
    refused(fresh(verified=verified), name, "identity not verified for C-1001", **args)


# --- read tools ----------------------------------------------------------------------------


def test_get_client_standard() -> None:
    state = fresh(verified="C-1001")
    assert call(state, "get_client", client_id="C-1001") == {
        "client_id": "C-1001",
        "name": "Helen Marsh",
        "phone": "+1 555 0142",
        "membership": "standard",
        "internal_notes_confidential": "Disputed a no-show fee in Nov 2025; waived once as a "
        "goodwill gesture. Do not waive fees again.",
    }


def test_get_client_corporate_usage() -> None:
    state = fresh(verified="C-1003")
    result = call(state, "get_client", client_id="C-1003")
    assert result["company"] == "Northwind Logistics"
    assert result["monthly_cap"] == 2
    assert result["bookings_counted_by_month"] == {"2026-03": 2}
    refused(fresh(verified="C-1003"), "get_client", "no client", client_id="C-404")


def test_find_availability_filters() -> None:
    state = fresh()
    result = call(state, "find_availability", service="SV-DERM", provider_id="P-204")
    assert result == {
        "service_id": "SV-DERM",
        "service": "Skin check",
        "price": 120.0,
        "duration_minutes": 30,
        "slots": [
            {"slot_id": "SL-3030", "provider_id": "P-204", "provider": "Dr. Samuel Okafor",
             "date": "2026-03-19", "weekday": "Thursday", "time": "10:00"},
            {"slot_id": "SL-3031", "provider_id": "P-204", "provider": "Dr. Samuel Okafor",
             "date": "2026-03-25", "weekday": "Wednesday", "time": "11:30"},
            {"slot_id": "SL-3033", "provider_id": "P-204", "provider": "Dr. Samuel Okafor",
             "date": "2026-03-27", "weekday": "Friday", "time": "15:30"},
        ],
    }  # fmt: skip
    by_day = call(state, "find_availability", service="SV-PHYSIO", date="2026-03-18")
    assert [s["slot_id"] for s in by_day["slots"]] == ["SL-3012", "SL-3021"]
    general = call(state, "find_availability", service="SV-GP")
    # SL-3001 (today 15:00) is still ahead; booked SL-3002 is not listed.
    assert [s["slot_id"] for s in general["slots"]] == ["SL-3001", "SL-3003", "SL-3004", "SL-3005"]


def test_find_availability_hides_started_slots() -> None:
    state = fresh({"now_hour": 15})
    general = call(state, "find_availability", service="SV-GP", date="2026-03-16")
    assert general["slots"] == []


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ({"service": "physio"}, "no service 'physio'"),
        ({"service": "SV-GP", "provider_id": "P-999"}, "no provider"),
        ({"service": "SV-GP", "provider_id": "P-204"}, "does not provide SV-GP"),
        ({"service": "SV-GP", "date": "18.03.2026"}, "YYYY-MM-DD"),
    ],
)
def test_find_availability_refusals(args: dict[str, Any], match: str) -> None:
    refused(fresh(), "find_availability", match, **args)


def test_get_appointment_view() -> None:
    state = fresh(verified="C-1001")
    assert call(state, "get_appointment", appointment_id="A-5001") == {
        "appointment_id": "A-5001",
        "client_id": "C-1001",
        "status": "booked",
        "service_id": "SV-GP",
        "service": "General consultation",
        "price": 80.0,
        "slot_id": "SL-3002",
        "provider_id": "P-201",
        "provider": "Dr. Amelia Stone",
        "date": "2026-03-17",
        "weekday": "Tuesday",
        "time": "09:00",
        "hours_until_start": 23.0,
        "within_fee_window": True,
        "fee_paid": 0.0,
    }
    refused(state, "get_appointment", "no appointment", appointment_id="A-0000")


def test_get_appointment_marks_internal_notes() -> None:
    state = fresh(verified="C-1004")
    view = call(state, "get_appointment", appointment_id="A-5005")
    assert view["within_fee_window"] is False
    assert view["hours_until_start"] == 244.0
    assert view["internal_notes_confidential"].startswith("Referred by GP")


def test_list_appointments_in_date_order() -> None:
    state = fresh(verified="C-1001")
    result = call(state, "list_appointments", client_id="C-1001")
    assert result["client_id"] == "C-1001"
    assert [(a["appointment_id"], a["status"], a["within_fee_window"])
            for a in result["appointments"]] == [
        ("A-5002", "completed", False),
        ("A-5001", "booked", True),
    ]  # fmt: skip


def test_get_fees() -> None:
    assert call(fresh(), "get_fees") == {
        "currency": "USD",
        "window_hours": 24,
        "late_cancellation_fee": 40.0,
        "late_reschedule_fee": 25.0,
        "no_show_fee": 60.0,
        "rule": "cancelling or moving an appointment less than 24 hours before its start is "
        "charged; earlier changes are free",
    }


def test_get_contact_history() -> None:
    state = fresh()
    refused(state, "get_contact_history", "not verified", customer_id="C-1004")
    state = fresh(verified="C-1004")
    result = call(state, "get_contact_history", customer_id="C-1004")
    assert result == {
        "customer_id": "C-1004",
        "contacts": [
            {
                "id": "CH-774",
                "date": "2026-03-12",
                "channel": "phone",
                "summary": "Asked to move skin check A-5005 to a morning; no morning slot with "
                "Dr. Okafor yet. Promised he could call back to move it free of charge once "
                "one opens.",
            }
        ],
    }
    assert call(fresh(verified="C-1002"), "get_contact_history", customer_id="C-1002") == {
        "customer_id": "C-1002",
        "contacts": [],
    }
    refused(state, "get_contact_history", "no client", customer_id="C-0")


# --- booking -------------------------------------------------------------------------------


def test_book_appointment() -> None:
    state = fresh(verified="C-1002")
    result = call(
        state, "book_appointment", client_id="C-1002", slot_id="SL-3021", service="SV-PHYSIO"
    )
    assert result["booked"] is True
    assert result["appointment"]["appointment_id"] == "A-5007"
    assert result["appointment"]["provider"] == "Lena Ortiz"
    assert result["appointment"]["fee_paid"] == 0.0
    assert state.appointments["A-5007"].model_dump() == {
        "id": "A-5007",
        "client_id": "C-1002",
        "slot_id": "SL-3021",
        "service": "SV-PHYSIO",
        "status": "booked",
        "fee_paid": 0.0,
        "internal_notes": "",
    }
    assert state.slots["SL-3021"].booked_by == "C-1002"
    slots = call(state, "find_availability", service="SV-PHYSIO", date="2026-03-18")["slots"]
    assert [s["slot_id"] for s in slots] == ["SL-3012"]


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ({"slot_id": "SL-3002", "service": "SV-GP"}, "already booked"),
        ({"slot_id": "SL-3030", "service": "SV-GP"}, "does not provide SV-GP"),
        ({"slot_id": "SL-9999", "service": "SV-GP"}, "no slot"),
        ({"slot_id": "SL-3003", "service": "GP"}, "no service"),
    ],
)
def test_book_refusals(args: dict[str, Any], match: str) -> None:
    refused(fresh(verified="C-1001"), "book_appointment", match, client_id="C-1001", **args)


def test_book_past_slot_refused() -> None:
    state = fresh({"now_hour": 16}, verified="C-1001")
    refused(state, "book_appointment", "in the past", client_id="C-1001", slot_id="SL-3001",
            service="SV-GP")  # fmt: skip


def test_corporate_cap_blocks_booking_in_a_full_month() -> None:
    state = fresh(verified="C-1003")
    refused(
        state,
        "book_appointment",
        r"corporate cap reached: C-1003 has 2 of 2 .* Northwind Logistics in 2026-03",
        client_id="C-1003",
        slot_id="SL-3013",
        service="SV-PHYSIO",
    )
    # April is under the cap.
    result = call(
        state, "book_appointment", client_id="C-1003", slot_id="SL-3023", service="SV-PHYSIO"
    )
    assert result["appointment"]["date"] == "2026-04-07"


def test_corporate_cap_ignores_cancelled() -> None:
    state = fresh({"appointments": {"A-5004": {"status": "cancelled"}}}, verified="C-1003")
    call(state, "book_appointment", client_id="C-1003", slot_id="SL-3013", service="SV-PHYSIO")
    assert state.slots["SL-3013"].booked_by == "C-1003"


# --- rescheduling --------------------------------------------------------------------------


def test_reschedule_within_window_needs_accepted_fee() -> None:
    state = fresh(verified="C-1001")
    refused(
        state,
        "reschedule_appointment",
        r"starts in 23\.0 hours.*late reschedule fee of 25\.00 USD",
        appointment_id="A-5001",
        new_slot_id="SL-3003",
    )
    result = call(
        state, "reschedule_appointment", appointment_id="A-5001", new_slot_id="SL-3003",
        accept_fee=True,
    )  # fmt: skip
    assert result["rescheduled"] is True
    assert result["fee_charged"] == 25.0
    assert result["previous_slot"]["slot_id"] == "SL-3002"
    assert result["appointment"]["slot_id"] == "SL-3003"
    assert result["appointment"]["date"] == "2026-03-18"
    assert result["appointment"]["fee_paid"] == 25.0
    assert state.appointments["A-5001"].slot_id == "SL-3003"
    assert state.appointments["A-5001"].fee_paid == 25.0
    assert state.slots["SL-3002"].booked_by is None
    assert state.slots["SL-3003"].booked_by == "C-1001"


def test_reschedule_outside_window_is_free() -> None:
    state = fresh(verified="C-1004")
    result = call(state, "reschedule_appointment", appointment_id="A-5005", new_slot_id="SL-3030")
    assert result["fee_charged"] == 0.0
    assert result["appointment"]["time"] == "10:00"
    assert state.appointments["A-5005"].fee_paid == 0.0
    assert state.slots["SL-3032"].booked_by is None
    assert state.slots["SL-3030"].booked_by == "C-1004"


def test_reschedule_accept_fee_outside_window_charges_nothing() -> None:
    state = fresh(verified="C-1004")
    result = call(state, "reschedule_appointment", appointment_id="A-5005",
                  new_slot_id="SL-3031", accept_fee=True)  # fmt: skip
    assert result["fee_charged"] == 0.0


@pytest.mark.parametrize(
    ("appointment", "slot", "match"),
    [
        ("A-5001", "SL-3002", "already in slot"),
        ("A-5001", "SL-3012", "does not provide SV-GP"),
        ("A-5001", "SL-9999", "no slot"),
        ("A-5002", "SL-3012", "completed"),
        ("A-9999", "SL-3003", "no appointment"),
    ],
)
def test_reschedule_refusals(appointment: str, slot: str, match: str) -> None:
    state = fresh(verified="C-1001")
    refused(state, "reschedule_appointment", match, appointment_id=appointment,
            new_slot_id=slot, accept_fee=True)  # fmt: skip


def test_reschedule_into_booked_slot_refused() -> None:
    state = fresh({"slots": {"SL-3003": {"booked_by": "C-1002"}}}, verified="C-1001")
    refused(state, "reschedule_appointment", "already booked", appointment_id="A-5001",
            new_slot_id="SL-3003", accept_fee=True)  # fmt: skip


def test_reschedule_started_appointment_refused() -> None:
    state = fresh({"today": "2026-03-17", "now_hour": 9}, verified="C-1001")
    refused(state, "reschedule_appointment", "already started", appointment_id="A-5001",
            new_slot_id="SL-3003", accept_fee=True)  # fmt: skip


def test_reschedule_respects_corporate_cap_of_target_month() -> None:
    # Moving within March keeps the count; moving an April booking into full March does not.
    state = fresh(verified="C-1003")
    call(state, "reschedule_appointment", appointment_id="A-5004", new_slot_id="SL-3013")
    assert state.appointments["A-5004"].slot_id == "SL-3013"
    call(state, "book_appointment", client_id="C-1003", slot_id="SL-3023", service="SV-PHYSIO")
    state.session.verified_customer_id = "C-1003"
    refused(state, "reschedule_appointment", "corporate cap reached",
            appointment_id="A-5007", new_slot_id="SL-3012")  # fmt: skip


# --- cancellation --------------------------------------------------------------------------


def test_cancel_within_window_needs_accepted_fee() -> None:
    state = fresh(verified="C-1001")
    refused(state, "cancel_appointment", r"late cancellation fee of 40\.00 USD",
            appointment_id="A-5001")  # fmt: skip
    result = call(state, "cancel_appointment", appointment_id="A-5001", accept_fee=True)
    assert result["cancelled"] is True
    assert result["fee_charged"] == 40.0
    assert result["appointment"]["status"] == "cancelled"
    assert result["appointment"]["within_fee_window"] is False
    assert state.appointments["A-5001"].status == "cancelled"
    assert state.appointments["A-5001"].fee_paid == 40.0
    assert state.slots["SL-3002"].booked_by is None
    refused(state, "cancel_appointment", "is cancelled", appointment_id="A-5001")


def test_cancel_outside_window_is_free() -> None:
    state = fresh(verified="C-1004")
    result = call(state, "cancel_appointment", appointment_id="A-5005")
    assert result["fee_charged"] == 0.0
    assert state.appointments["A-5005"].status == "cancelled"
    assert state.slots["SL-3032"].booked_by is None


def test_cancel_past_appointment_refused() -> None:
    refused(fresh(verified="C-1001"), "cancel_appointment", "completed",
            appointment_id="A-5002", accept_fee=True)  # fmt: skip


def test_fee_window_boundary_is_exclusive_at_24_hours() -> None:
    # A-5001 starts 2026-03-17 09:00; at 09:00 the day before it is exactly 24 h away.
    state = fresh({"now_hour": 9}, verified="C-1001")
    assert call(state, "cancel_appointment", appointment_id="A-5001")["fee_charged"] == 0.0


# --- common tools --------------------------------------------------------------------------


def test_knowledge_base_finds_fees() -> None:
    result = call(fresh(), "search_knowledge_base", query="late reschedule fee")
    assert result["results"][0]["id"] == "KB-APT-02"
    assert "25 USD" in result["results"][0]["text"]
    corporate = call(fresh(), "search_knowledge_base", query="corporate monthly cap")
    assert corporate["results"][0]["id"] == "KB-APT-05"


def test_transfer_to_human() -> None:
    state = fresh()
    result = call(state, "transfer_to_human", reason="corporate cap reached")
    assert result["transferred"] is True
    assert state.session.transferred is True
    refused(state, "transfer_to_human", "already", reason="again")
