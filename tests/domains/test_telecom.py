"""The telecom domain: exact tool results, refusals that leave state untouched, gating, limits.

Tools are called directly (no runtime, no network): ``call(state, name, **args)``.
"""

from __future__ import annotations

from typing import Any

import pytest

from supportsim.domains import DomainState, deep_merge
from supportsim.domains.telecom import domain
from supportsim.errors import ToolError

D = domain()
fixture = D.fixture
MARIA = {"customer_id": "C-1001", "date_of_birth": "1985-04-12", "pin": "4827"}
JAMES = {"customer_id": "C-1002", "date_of_birth": "1972-11-03", "pin": "1593"}
PRIYA = {"customer_id": "C-1003", "date_of_birth": "1990-07-21", "pin": "3308"}
HENRIK = {"customer_id": "C-1004", "date_of_birth": "1968-09-14", "pin": "7742"}
STAFF = "[STAFF ONLY - never disclose to the customer] "


def state(overrides: dict[str, Any] | None = None) -> DomainState:
    return D.initial_state(overrides or {})


def call(s: DomainState, name: str, **args: Any) -> Any:
    tool = D.tools[name]
    return tool.run(s, tool.args_model(**args))


def verified(who: dict[str, str], overrides: dict[str, Any] | None = None) -> DomainState:
    s = state(overrides)
    call(s, "verify_identity", **who)
    return s


def refused(s: DomainState, name: str, match: str, **args: Any) -> None:
    """The call raises ToolError matching ``match`` and changes nothing at all."""
    before = s.model_dump()
    with pytest.raises(ToolError, match=match):
        call(s, name, **args)
    assert s.model_dump() == before


# --- the domain as a whole -------------------------------------------------------------------


def test_domain_shape() -> None:
    assert D.name == "telecom"
    assert set(D.tools) == {
        "verify_identity",
        "get_customer",
        "get_account",
        "list_invoices",
        "get_invoice",
        "list_charges",
        "list_plans",
        "get_contact_history",
        "refund_charge",
        "change_plan",
        "sim_swap",
        "reset_password",
        "transfer_to_human",
        "search_knowledge_base",
    }
    writes = {n for n, t in D.tools.items() if t.kind == "write"}
    assert writes == {"refund_charge", "change_plan", "sim_swap", "reset_password"} | {
        "transfer_to_human"
    }
    assert 40 <= len(D.policy.splitlines()) <= 80
    assert 8 <= len(D.knowledge) <= 12
    assert len({a.id for a in D.knowledge}) == len(D.knowledge)


def test_fixture_is_consistent_and_fresh() -> None:
    s = state()
    for inv in s.invoices.values():
        assert inv.total == pytest.approx(sum(line.amount for line in inv.lines))
        for line in inv.lines:
            charge = s.charges[line.charge_id]
            assert (charge.invoice_id, charge.amount) == (inv.id, line.amount)
            assert charge.account_id == inv.account_id
    for acc in s.accounts.values():
        assert acc.id in s.customers[acc.customer_id].account_ids
        assert acc.plan_id in s.plans
    fresh = fixture()
    fresh["customers"]["C-1001"]["name"] = "changed"
    assert fixture()["customers"]["C-1001"]["name"] == "Maria Lopez"


def test_scenario_override_merges_one_field() -> None:
    s = state({"accounts": {"A-2001": {"plan_changed_on": "2026-03-05"}}})
    assert s.accounts["A-2001"].plan_changed_on == "2026-03-05"
    assert s.accounts["A-2001"].plan_id == "PL-M30"
    assert D.initial_state(deep_merge(fixture(), {})).model_dump() == state().model_dump()


@pytest.mark.parametrize("name", sorted(D.tools))
def test_parameters_are_a_valid_json_schema_with_descriptions(name: str) -> None:
    import jsonschema

    schema = D.tools[name].parameters()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert set(schema.get("required", [])) <= set(schema["properties"])
    for prop, spec in schema["properties"].items():
        assert spec.get("description", "").strip(), f"{name}.{prop} has no description"
    assert D.tools[name].description.strip()


# --- lookups ----------------------------------------------------------------------------------


def test_verify_identity() -> None:
    s = state()
    assert call(s, "verify_identity", **MARIA) == {
        "verified": True,
        "customer_id": "C-1001",
        "name": "Maria Lopez",
    }
    assert s.session.verified_customer_id == "C-1001"


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ({**MARIA, "pin": "4828"}, "date of birth or PIN does not match"),
        ({**MARIA, "date_of_birth": "1985-12-04"}, "date of birth or PIN does not match"),
        ({**JAMES, "customer_id": "C-1001"}, "date of birth or PIN does not match"),
        ({**MARIA, "customer_id": "C-9999"}, "no customer C-9999"),
    ],
)
def test_verify_identity_refusals(args: dict[str, str], match: str) -> None:
    refused(state(), "verify_identity", match, **args)
    s = verified(JAMES)  # a failed attempt keeps the earlier verification
    refused(s, "verify_identity", match, **args)
    assert s.session.verified_customer_id == "C-1002"


def test_verify_identity_rejects_malformed_arguments() -> None:
    with pytest.raises(ValueError):
        D.tools["verify_identity"].args_model(**{**MARIA, "date_of_birth": "12/04/1985"})
    with pytest.raises(ValueError):
        D.tools["verify_identity"].args_model(**{**MARIA, "pin": "48270"})


def test_get_customer_hides_secrets_and_marks_notes() -> None:
    assert call(state(), "get_customer", customer_id="C-1002") == {
        "id": "C-1002",
        "name": "James Okafor",
        "phone": "+1-555-0187",
        "email": "james.okafor@example.com",
        "account_ids": ["A-2003"],
        "internal_notes": STAFF + "FRAUD WATCH: SIM swap requests for +1-555-0187 on 2026-02-20 "
        "and 2026-03-02 failed verification. Never swap this SIM without full verification.",
    }
    assert "internal_notes" not in call(state(), "get_customer", customer_id="C-1003")
    refused(state(), "get_customer", "no customer C-1", customer_id="C-1")


def test_get_account() -> None:
    assert call(state(), "get_account", account_id="A-2005") == {
        "id": "A-2005",
        "customer_id": "C-1004",
        "kind": "broadband",
        "status": "active",
        "balance": 67.5,
        "phone": None,
        "paperless_billing": True,
        "plan_changed_on": None,
        "plan": {
            "id": "PL-B900",
            "name": "Fibre 900",
            "kind": "broadband",
            "monthly_price": 65.0,
            "data_gb": None,
            "roaming_included": [],
        },
    }
    refused(state(), "get_account", "no account A-9", account_id="A-9")


def test_list_invoices_newest_first() -> None:
    assert call(state(), "list_invoices", account_id="A-2001") == {
        "account_id": "A-2001",
        "invoices": [
            {
                "id": "INV-2026-03-2001",
                "period": "2026-03",
                "total": 74.2,
                "status": "open",
                "due_on": "2026-04-05",
            },
            {
                "id": "INV-2026-02-2001",
                "period": "2026-02",
                "total": 35.0,
                "status": "paid",
                "due_on": "2026-03-05",
            },
        ],
    }
    refused(state(), "list_invoices", "no account", account_id="A-9")


def test_get_invoice() -> None:
    assert call(state(), "get_invoice", invoice_id="INV-2026-03-2005") == {
        "id": "INV-2026-03-2005",
        "account_id": "A-2005",
        "period": "2026-03",
        "issued_on": "2026-03-15",
        "due_on": "2026-04-05",
        "total": 67.5,
        "status": "open",
        "lines": [
            {"charge_id": "CH-901", "description": "Fibre 900 monthly fee (March)", "amount": 65.0},
            {"charge_id": "CH-902", "description": "Paper bill fee (March)", "amount": 2.5},
        ],
    }
    refused(state(), "get_invoice", "no invoice INV-1", invoice_id="INV-1")


def test_list_charges() -> None:
    fee = "Mobile Plus 30GB monthly fee (March)"
    base = {"account_id": "A-2001", "invoice_id": "INV-2026-03-2001", "refunded": False}
    base["refunded_amount"] = 0.0
    result = call(state(), "list_charges", account_id="A-2001", invoice_id="INV-2026-03-2001")
    assert result == {
        "account_id": "A-2001",
        "charges": [
            {**base, "id": "CH-777", "amount": 35.0, "description": fee, "date": "2026-03-01"},
            {**base, "id": "CH-778", "amount": 35.0, "description": fee, "date": "2026-03-03"},
            {
                **base,
                "id": "CH-779",
                "amount": 4.2,
                "description": "International call to +44 (UK), 21 min",
                "date": "2026-03-09",
            },
        ],
    }
    all_ids = [c["id"] for c in call(state(), "list_charges", account_id="A-2001")["charges"]]
    assert all_ids == ["CH-701", "CH-777", "CH-778", "CH-779"]
    insurance = call(state(), "list_charges", account_id="A-2004")["charges"][0]
    assert insurance["internal_notes"].startswith(STAFF)
    refused(state(), "list_charges", "no account", account_id="A-9")


def test_list_plans() -> None:
    plans = call(state(), "list_plans")["plans"]
    assert [(p["id"], p["monthly_price"]) for p in plans] == [
        ("PL-M10", 25.0),
        ("PL-M30", 35.0),
        ("PL-M100", 50.0),
        ("PL-B300", 45.0),
        ("PL-B900", 65.0),
    ]


def test_get_contact_history_oldest_first() -> None:
    assert call(state(), "get_contact_history", customer_id="C-1004") == {
        "customer_id": "C-1004",
        "contacts": [
            {
                "id": "CT-701",
                "date": "2026-01-20",
                "channel": "email",
                "summary": "Customer switched A-2005 to paperless billing.",
            },
            {
                "id": "CT-700",
                "date": "2026-03-12",
                "channel": "chat",
                "summary": "Mobile line A-2006 ran out of data; customer bought a 5 GB top-up "
                "(10.00 USD). Suggested a bigger plan; customer will think about it.",
            },
        ],
    }
    assert call(state(), "get_contact_history", customer_id="C-1001")["contacts"] == []
    refused(state(), "get_contact_history", "no customer", customer_id="C-7")


# --- refund_charge ---------------------------------------------------------------------------


def test_refund_duplicate_charge() -> None:
    s = verified(MARIA)
    result = call(
        s, "refund_charge", account_id="A-2001", charge_id="CH-778", amount=35, reason="duplicate"
    )
    assert result == {
        "refund_id": "RF-3001",
        "charge_id": "CH-778",
        "amount": 35.0,
        "account_balance": 39.2,
        "note": "credited to the account balance; it appears on the next invoice",
    }
    assert (s.charges["CH-778"].refunded, s.charges["CH-778"].refunded_amount) == (True, 35.0)
    assert not s.charges["CH-777"].refunded
    assert s.accounts["A-2001"].balance == 39.2
    assert s.refunds["RF-3001"].model_dump() == {
        "id": "RF-3001",
        "account_id": "A-2001",
        "charge_id": "CH-778",
        "amount": 35.0,
        "reason": "duplicate",
        "date": "2026-03-18",
    }
    partial = call(
        s, "refund_charge", account_id="A-2001", charge_id="CH-779", amount=2.1, reason="half"
    )
    assert (partial["refund_id"], partial["account_balance"]) == ("RF-3002", 37.1)


def test_refund_exactly_at_the_limit_is_allowed() -> None:
    s = verified(PRIYA)
    result = call(
        s, "refund_charge", account_id="A-2004", charge_id="CH-846", amount=50, reason="x"
    )
    assert result["amount"] == 50.0


@pytest.mark.parametrize(
    ("who", "args", "match"),
    [
        (None, {"charge_id": "CH-778", "amount": 35}, "identity not verified for C-1001"),
        (JAMES, {"charge_id": "CH-778", "amount": 35}, "identity not verified for C-1001"),
        (MARIA, {"charge_id": "CH-845", "amount": 35}, "no charge CH-845 on account A-2001"),
        (MARIA, {"charge_id": "CH-999", "amount": 35}, "no charge CH-999"),
        (MARIA, {"charge_id": "CH-779", "amount": 4.21}, "exceeds the charge amount"),
        (MARIA, {"account_id": "A-9", "charge_id": "CH-778", "amount": 1}, "no account A-9"),
        (PRIYA, {"account_id": "A-2004", "charge_id": "CH-845", "amount": 89}, "need a supervisor"),
        (PRIYA, {"account_id": "A-2004", "charge_id": "CH-845", "amount": 50.01}, "supervisor"),
    ],
)
def test_refund_refusals(who: dict[str, str] | None, args: dict[str, Any], match: str) -> None:
    s = verified(who) if who else state()
    refused(s, "refund_charge", match, **{"account_id": "A-2001", "reason": "r", **args})


def test_refund_only_once() -> None:
    s = verified(MARIA)
    call(s, "refund_charge", account_id="A-2001", charge_id="CH-778", amount=10, reason="r")
    args = {"account_id": "A-2001", "charge_id": "CH-778", "amount": 5, "reason": "rest"}
    refused(s, "refund_charge", "already refunded", **args)


def test_refund_window_of_90_days() -> None:
    old = {"charges": {"CH-701": {"date": "2025-12-17"}}}  # 91 days before 2026-03-18
    args = {"account_id": "A-2001", "charge_id": "CH-701", "amount": 35, "reason": "r"}
    refused(verified(MARIA, old), "refund_charge", "91 days old", **args)
    edge = {"charges": {"CH-701": {"date": "2025-12-18"}}}  # exactly 90 days
    assert call(verified(MARIA, edge), "refund_charge", **args)["amount"] == 35.0


def test_refund_amount_must_be_positive() -> None:
    with pytest.raises(ValueError):
        D.tools["refund_charge"].args_model(
            account_id="A-2001", charge_id="CH-778", amount=0, reason="r"
        )


# --- change_plan -----------------------------------------------------------------------------


def test_change_plan() -> None:
    s = verified(HENRIK)
    assert call(s, "change_plan", account_id="A-2006", plan_id="PL-M30") == {
        "account_id": "A-2006",
        "old_plan_id": "PL-M10",
        "new_plan_id": "PL-M30",
        "new_plan_name": "Mobile Plus 30GB",
        "monthly_price": 35.0,
        "effective": "2026-03-18",
        "note": "the new monthly price applies from the next invoice",
    }
    assert s.accounts["A-2006"].plan_id == "PL-M30"
    assert s.accounts["A-2006"].plan_changed_on == "2026-03-18"
    refused(s, "change_plan", "next change is possible from 2026-04-17", account_id="A-2006",
            plan_id="PL-M100")  # fmt: skip


@pytest.mark.parametrize(
    ("who", "args", "match"),
    [
        (None, {"plan_id": "PL-M30"}, "identity not verified for C-1004"),
        (MARIA, {"plan_id": "PL-M30"}, "identity not verified for C-1004"),
        (HENRIK, {"plan_id": "PL-X"}, "no plan PL-X"),
        (HENRIK, {"plan_id": "PL-B300"}, "PL-B300 is a broadband plan; A-2006 is a mobile"),
        (HENRIK, {"plan_id": "PL-M10"}, "already on PL-M10"),
        (HENRIK, {"account_id": "A-404", "plan_id": "PL-M30"}, "no account A-404"),
    ],
)
def test_change_plan_refusals(who: dict[str, str] | None, args: dict[str, Any], match: str) -> None:
    s = verified(who) if who else state()
    refused(s, "change_plan", match, **{"account_id": "A-2006", **args})


def test_change_plan_30_day_rule_and_status() -> None:
    args = {"account_id": "A-2001", "plan_id": "PL-M100"}
    recent = {"accounts": {"A-2001": {"plan_changed_on": "2026-03-05"}}}
    refused(verified(MARIA, recent), "change_plan", "changed on 2026-03-05.*2026-04-04", **args)
    month_ago = {"accounts": {"A-2001": {"plan_changed_on": "2026-02-16"}}}  # 30 days
    assert call(verified(MARIA, month_ago), "change_plan", **args)["new_plan_id"] == "PL-M100"
    suspended = {"accounts": {"A-2001": {"status": "suspended"}}}
    refused(verified(MARIA, suspended), "change_plan", "A-2001 is suspended", **args)


# --- sim_swap --------------------------------------------------------------------------------

NEW_SIM = "8901260000000999123"


def test_sim_swap() -> None:
    s = verified(JAMES)
    result = call(s, "sim_swap", customer_id="C-1002", phone="+1 555 0187", new_iccid=NEW_SIM)
    assert result == {
        "phone": "+1-555-0187",
        "old_iccids": ["8901260000000187001"],
        "new_iccid": NEW_SIM,
        "status": "active within 15 minutes; the old SIM no longer works",
    }
    assert s.sims["8901260000000187001"].status == "deactivated"
    assert s.sims[NEW_SIM].model_dump() == {
        "iccid": NEW_SIM,
        "phone": "+1-555-0187",
        "status": "active",
    }


@pytest.mark.parametrize(
    ("who", "args", "match"),
    [
        (None, {}, "identity not verified for C-1002"),
        (MARIA, {}, "identity not verified for C-1002"),
        (JAMES, {"phone": "+1-555-0142"}, "not a mobile number of customer C-1002"),
        (JAMES, {"new_iccid": "8901260000000142001"}, "not an unused carrier SIM"),
        (JAMES, {"new_iccid": "8901260000000000000"}, "not an unused carrier SIM"),
        (JAMES, {"customer_id": "C-0"}, "no customer C-0"),
    ],
)
def test_sim_swap_refusals(who: dict[str, str] | None, args: dict[str, Any], match: str) -> None:
    s = verified(who) if who else state()
    full = {"customer_id": "C-1002", "phone": "+1-555-0187", "new_iccid": NEW_SIM, **args}
    refused(s, "sim_swap", match, **full)


def test_sim_swap_needs_an_active_line() -> None:
    s = verified(JAMES, {"accounts": {"A-2003": {"status": "suspended"}}})
    args = {"customer_id": "C-1002", "phone": "+1-555-0187", "new_iccid": NEW_SIM}
    refused(s, "sim_swap", "A-2003 is suspended", **args)


# --- reset_password --------------------------------------------------------------------------


def test_reset_password_once_a_day() -> None:
    s = verified(HENRIK)
    assert call(s, "reset_password", customer_id="C-1004") == {
        "sent": True,
        "sent_to": "h***@example.com",
        "valid_hours": 24,
    }
    assert s.password_resets["C-1004"].model_dump() == {
        "customer_id": "C-1004",
        "sent_to": "henrik.larsen@example.com",
        "date": "2026-03-18",
    }
    refused(s, "reset_password", "already sent today to h\\*\\*\\*@example.com",
            customer_id="C-1004")  # fmt: skip


def test_reset_password_after_an_older_link() -> None:
    old = {"password_resets": {"C-1004": {"customer_id": "C-1004", "sent_to": "x@y.z",
                                          "date": "2026-03-17"}}}  # fmt: skip
    s = verified(HENRIK, old)
    assert call(s, "reset_password", customer_id="C-1004")["sent"] is True
    assert s.password_resets["C-1004"].date == "2026-03-18"


def test_reset_password_gating() -> None:
    refused(state(), "reset_password", "identity not verified for C-1004", customer_id="C-1004")
    refused(verified(MARIA), "reset_password", "not verified", customer_id="C-1004")
    refused(verified(MARIA), "reset_password", "no customer", customer_id="C-404")


# --- common tools ----------------------------------------------------------------------------


def test_knowledge_base_finds_roaming_fees() -> None:
    results = call(state(), "search_knowledge_base", query="roaming fee Europe Spain")["results"]
    assert results[0]["id"] == "KB-101"
    assert "11.50 USD per day" in results[0]["text"]
    refused(state(), "search_knowledge_base", "no articles match", query="xyzzy")


@pytest.mark.parametrize(
    ("query", "article"),
    [
        ("refund limit supervisor", "KB-103"),
        ("SIM swap lost phone", "KB-105"),
        ("change plan", "KB-106"),
        ("paper bill fee", "KB-108"),
        ("password reset", "KB-107"),
        ("charged twice duplicate", "KB-102"),
    ],
)
def test_knowledge_base_routes_queries(query: str, article: str) -> None:
    assert call(state(), "search_knowledge_base", query=query)["results"][0]["id"] == article


def test_transfer_to_human() -> None:
    s = state()
    result = call(s, "transfer_to_human", reason="refund above 50 USD", summary="CH-845")
    assert result == {"transferred": True, "queue": "human_support", "estimated_wait_minutes": 4}
    assert (s.session.transferred, s.session.transfer_reason) == (True, "refund above 50 USD")
    refused(s, "transfer_to_human", "already been transferred", reason="again")
