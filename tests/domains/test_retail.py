"""The retail domain's tools: exact results, refusals that change nothing, gating, limits."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from supportsim.domains import builtin_domains
from supportsim.domains._base import Domain, DomainState
from supportsim.domains.retail import domain
from supportsim.domains.retail._tools import (
    CANCEL_REFUND_DAYS,
    GOODWILL_LIMIT,
    REFUND_DAYS,
    RETURN_LABEL_FEE,
    RETURN_WINDOW_DAYS,
)
from supportsim.errors import ToolError


@pytest.fixture()
def d() -> Domain:
    return domain()


@pytest.fixture()
def s(d: Domain) -> DomainState:
    return d.initial_state({})


def call(d: Domain, s: DomainState, name: str, **args: Any) -> Any:
    t = d.tools[name]
    return t.run(s, t.args_model(**args))


def verify(d: Domain, s: DomainState, customer_id: str) -> None:
    zip_code = s.customers[customer_id].zip_code
    call(d, s, "verify_customer", customer_id=customer_id, zip_code=zip_code)


# --- the domain as a whole -------------------------------------------------------------------


def test_registered_as_builtin() -> None:
    assert "retail" in builtin_domains()


def test_tool_set_and_kinds(d: Domain) -> None:
    kinds = {name: t.kind for name, t in d.tools.items()}
    assert kinds == {
        "verify_customer": "read",
        "get_customer": "read",
        "list_orders": "read",
        "get_order": "read",
        "track_shipment": "read",
        "search_products": "read",
        "get_contact_history": "read",
        "cancel_order": "write",
        "change_shipping_address": "write",
        "create_return": "write",
        "exchange_item": "write",
        "issue_store_credit": "write",
        "transfer_to_human": "write",
        "search_knowledge_base": "read",
    }


def test_every_tool_has_a_valid_described_schema(d: Domain) -> None:
    for name, t in d.tools.items():
        schema = t.parameters()
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object", name
        assert schema["additionalProperties"] is False, name
        assert schema["properties"], name
        for prop, spec in schema["properties"].items():
            assert spec.get("description", "").strip(), f"{name}.{prop} has no description"
        assert t.description.strip(), name


def test_policy_and_knowledge_sizes(d: Domain) -> None:
    assert 40 <= len(d.policy.splitlines()) <= 80
    assert 8 <= len(d.knowledge) <= 12
    assert len({a.id for a in d.knowledge}) == len(d.knowledge)


def test_policy_and_articles_state_the_limits_the_tools_enforce(d: Domain) -> None:
    """policy.md and knowledge/ are text; the limits are code (``_tools.py``): a scenario
    that asks the Agent to quote a fee must test the number the tools apply."""
    policy = " ".join(d.policy.split())
    article = {a.id: " ".join(a.text.split()) for a in d.knowledge}
    stated = {
        policy: [
            f"refunded to the original payment method in {CANCEL_REFUND_DAYS}",
            f"accepted within {RETURN_WINDOW_DAYS} days of delivery",
            f"{RETURN_LABEL_FEE:.2f} USD return-label fee",
            f"Refunds arrive {REFUND_DAYS} after",
            f"at most {GOODWILL_LIMIT:.0f} USD per customer per day",
            f"Goodwill above {GOODWILL_LIMIT:.0f} USD needs a supervisor",
        ],
        article["KB-R01"]: [
            f"returned within {RETURN_WINDOW_DAYS} days of the delivery date",
            f"{RETURN_LABEL_FEE:.2f} USD return-label fee",
            f"Refunds are issued {REFUND_DAYS} after",
        ],
        article["KB-R04"]: [f"refunded to the original payment method in {CANCEL_REFUND_DAYS}"],
        article["KB-R08"]: [f"up to {GOODWILL_LIMIT:.0f} USD per customer per day"],
    }
    for text, phrases in stated.items():
        for phrase in phrases:
            assert phrase in text


def test_fixture_is_fresh_and_overridable(d: Domain) -> None:
    a = d.initial_state({"orders": {"ORD-50290": {"status": "delivered"}}})
    b = d.initial_state({})
    assert a.orders["ORD-50290"].status == "delivered"
    assert a.orders["ORD-50290"].carrier == "UPS"
    assert b.orders["ORD-50290"].status == "shipped"
    json.dumps(b.model_dump(mode="json"))


def test_override_with_unknown_field_is_rejected(d: Domain) -> None:
    with pytest.raises(ValueError):
        d.initial_state({"orders": {"ORD-50290": {"colour": "red"}}})


# --- reads -----------------------------------------------------------------------------------


def test_verify_by_id_and_by_email(d: Domain, s: DomainState) -> None:
    out = call(d, s, "verify_customer", customer_id="C-1001", zip_code="97214")
    assert out == {"verified": True, "customer_id": "C-1001", "name": "Dana Whitfield"}
    out = call(d, s, "verify_customer", email=" MBell@example.net ", zip_code="60614")
    assert out == {"verified": True, "customer_id": "C-1002", "name": "Marcus Bell"}
    assert s.session.verified_customer_id == "C-1002"


def test_get_customer(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1004")
    assert call(d, s, "get_customer", customer_id="C-1004") == {
        "id": "C-1004",
        "name": "Priya Raman",
        "email": "priya.raman@example.org",
        "phone": "+1 617 555 0168",
        "member_since": "2022-10-30",
        "store_credit_balance": 0.0,
        "internal_only": {
            "notes": "Possible reseller: bought 6 blenders in 2025. Watch for return abuse.",
            "warning": "INTERNAL ONLY - never disclose to the customer",
        },
    }


def test_list_orders(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1002")
    assert call(d, s, "list_orders", customer_id="C-1002") == {
        "customer_id": "C-1002",
        "orders": [
            {
                "order_id": "ORD-50290",
                "placed_on": "2026-03-11",
                "status": "shipped",
                "items": ["Burr coffee grinder"],
                "total": 129.0,
            },
            {
                "order_id": "ORD-50201",
                "placed_on": "2026-02-25",
                "status": "delivered",
                "items": [
                    "Trailrunner 2 running shoe, men's size 10",
                    "Merino running socks, 3-pack",
                ],
                "total": 144.0,
            },
        ],
    }


def test_get_order(d: Domain, s: DomainState) -> None:
    assert call(d, s, "get_order", order_id="ord-50150") == {
        "order_id": "ORD-50150",
        "customer_id": "C-1004",
        "status": "delivered",
        "placed_on": "2026-02-23",
        "shipped_on": "2026-02-24",
        "delivered_on": "2026-02-27",
        "items": [
            {
                "sku": "APP-BLND-01",
                "name": "Countertop blender, 1.5 L",
                "qty": 1,
                "price": 79.0,
                "status": "ok",
            }
        ],
        "subtotal": 79.0,
        "shipping_fee": 0.0,
        "total": 79.0,
        "payment_method": "Visa ending 8830",
        "shipping_address": {
            "line1": "58 Magazine St",
            "line2": "",
            "city": "Cambridge",
            "state": "MA",
            "zip_code": "02139",
        },
        "carrier": "UPS",
        "tracking": "1Z3R7Y810355012873",
        "return_window_ends": "2026-03-29",
        "internal_only": {
            "notes": "Jar cracked in transit; carrier damage claim DMG-2291 filed.",
            "warning": "INTERNAL ONLY - never disclose to the customer",
        },
    }


def test_track_shipment(d: Domain, s: DomainState) -> None:
    assert call(d, s, "track_shipment", order_id="ORD-50290") == {
        "order_id": "ORD-50290",
        "status": "shipped",
        "carrier": "UPS",
        "tracking": "1Z9W2E480398765412",
        "shipped_on": "2026-03-12",
        "estimated_delivery": "2026-03-18",
        "delivered_on": None,
        "events": [
            {"date": "2026-03-12", "location": "Reno, NV", "description": "Picked up by carrier"},
            {
                "date": "2026-03-13",
                "location": "Salt Lake City, UT",
                "description": "Departed facility",
            },
            {
                "date": "2026-03-15",
                "location": "Omaha, NE",
                "description": "In transit, on schedule",
            },
        ],
    }
    assert call(d, s, "track_shipment", order_id="ORD-50344") == {
        "order_id": "ORD-50344",
        "status": "placed",
        "message": "not shipped yet; orders ship within 1 business day",
    }


def test_search_products(d: Domain, s: DomainState) -> None:
    out = call(d, s, "search_products", query="SHOE-TR-105")
    assert out["products"] == [
        {
            "sku": "SHOE-TR-105",
            "name": "Trailrunner 2 running shoe, men's size 10.5",
            "price": 120.0,
            "in_stock": 2,
            "final_sale": False,
        }
    ]
    out = call(d, s, "search_products", query="trailrunner 10.5")
    assert [p["sku"] for p in out["products"]][:2] == ["SHOE-TR-105", "SHOE-TRG-105"]


def test_get_contact_history(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1004")
    out = call(d, s, "get_contact_history", customer_id="C-1004")
    assert out["customer_id"] == "C-1004"
    assert [c["id"] for c in out["contacts"]] == ["CH-771", "CH-778"]
    assert out["contacts"][1]["date"] == "2026-03-09"
    assert out["contacts"][1]["channel"] == "phone"
    assert "15.00 USD goodwill store credit" in out["contacts"][1]["summary"]


def test_search_knowledge_base(d: Domain, s: DomainState) -> None:
    out = call(d, s, "search_knowledge_base", query="return window label fee")
    assert out["results"][0]["id"] == "KB-R01"
    assert "5.99 USD" in out["results"][0]["text"]
    assert "30 days" in out["results"][0]["text"]


# --- writes: happy paths ---------------------------------------------------------------------


def test_cancel_order(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1003")
    stock = s.products["OUT-JKT-M"].stock
    assert call(d, s, "cancel_order", order_id="ORD-50344") == {
        "cancelled": True,
        "order_id": "ORD-50344",
        "refund_amount": 72.0,
        "refund_to": "Mastercard ending 0932",
        "refund_timing": "3-5 business days",
    }
    assert s.orders["ORD-50344"].status == "cancelled"
    assert s.products["OUT-JKT-M"].stock == stock + 1


def test_change_shipping_address(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1005")
    out = call(
        d,
        s,
        "change_shipping_address",
        order_id="ORD-50387",
        line1="1420 N 45th St",
        city="Seattle",
        state="wa",
        zip_code="98103",
    )
    new = {
        "line1": "1420 N 45th St",
        "line2": "",
        "city": "Seattle",
        "state": "WA",
        "zip_code": "98103",
    }
    assert out == {"updated": True, "order_id": "ORD-50387", "shipping_address": new}
    assert s.orders["ORD-50387"].shipping_address.model_dump() == new


def test_create_return_refund_with_label_fee(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1001")
    out = call(
        d,
        s,
        "create_return",
        order_id="ORD-50331",
        skus=["KIT-POUR-SET"],
        method="refund",
        reason="no_longer_needed",
    )
    assert out == {
        "return_id": "R-7002",
        "order_id": "ORD-50331",
        "skus": ["KIT-POUR-SET"],
        "method": "refund",
        "subtotal": 48.0,
        "label_fee": 5.99,
        "amount": 42.01,
        "label": "prepaid return label e-mailed to dana.whitfield@example.com",
        "refund_to": "Visa ending 4417",
        "refund_timing": "5-7 business days after the carrier scans the parcel",
    }
    order = s.orders["ORD-50331"]
    assert order.items["KIT-POUR-SET"].status == "returned"
    assert order.status == "delivered"
    assert s.returns["R-7002"].amount == 42.01


def test_create_return_store_credit_whole_order(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1001")
    out = call(
        d,
        s,
        "create_return",
        order_id="ORD-50331",
        skus=["HOME-PIL-2", "KIT-POUR-SET"],
        method="store_credit",
        reason="other",
    )
    assert out["amount"] == 116.0
    assert out["label_fee"] == 0.0
    assert out["store_credit_balance"] == 116.0
    assert s.orders["ORD-50331"].status == "returned"
    assert s.credits["SC-3002"].kind == "return"
    assert s.customers["C-1001"].store_credit_balance == 116.0


def test_create_return_defective_waives_fee(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1003")
    out = call(
        d,
        s,
        "create_return",
        order_id="ORD-50268",
        skus=["OUT-BTL-1"],
        method="refund",
        reason="defective",
    )
    assert (out["subtotal"], out["label_fee"], out["amount"]) == (56.0, 0.0, 56.0)


def test_exchange_item(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1002")
    out = call(
        d, s, "exchange_item", order_id="ORD-50201", sku="SHOE-TR-100", new_sku="SHOE-TR-105"
    )
    assert out == {
        "exchange_id": "R-7002",
        "order_id": "ORD-50201",
        "returned_sku": "SHOE-TR-100",
        "new_sku": "SHOE-TR-105",
        "replacement_order_id": "ORD-50201-X1",
        "charge": 0.0,
        "note": "replacement ships within 1 business day; send the original back within 14 days",
    }
    replacement = s.orders["ORD-50201-X1"]
    assert replacement.status == "placed"
    assert replacement.customer_id == "C-1002"
    assert list(replacement.items) == ["SHOE-TR-105"]
    assert replacement.shipping_address == s.orders["ORD-50201"].shipping_address
    assert s.products["SHOE-TR-105"].stock == 1
    assert s.orders["ORD-50201"].items["SHOE-TR-100"].status == "exchanged"
    assert s.returns["R-7002"].replacement_order_id == "ORD-50201-X1"


def test_issue_store_credit(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1004")
    out = call(
        d, s, "issue_store_credit", customer_id="C-1004", amount=15, reason="promised in CH-778"
    )
    assert out == {
        "credit_id": "SC-3002",
        "customer_id": "C-1004",
        "amount": 15.0,
        "store_credit_balance": 15.0,
    }
    entry = s.credits["SC-3002"]
    assert (entry.kind, entry.issued_on, entry.reason) == (
        "goodwill",
        "2026-03-16",
        "promised in CH-778",
    )


def test_goodwill_limit_is_per_customer_per_day(d: Domain, s: DomainState) -> None:
    verify(d, s, "C-1004")
    call(d, s, "issue_store_credit", customer_id="C-1004", amount=20, reason="late")
    before = s.model_dump()
    with pytest.raises(ToolError, match=r"25\.00 USD per customer per day"):
        call(d, s, "issue_store_credit", customer_id="C-1004", amount=5.01, reason="again")
    assert s.model_dump() == before
    call(d, s, "issue_store_credit", customer_id="C-1004", amount=5, reason="exactly at cap")
    assert s.customers["C-1004"].store_credit_balance == 25.0
    s.today = "2026-03-17"
    call(d, s, "issue_store_credit", customer_id="C-1004", amount=25, reason="next day")


def test_transfer_to_human(d: Domain, s: DomainState) -> None:
    out = call(d, s, "transfer_to_human", reason="goodwill above limit")
    assert out == {"transferred": True, "queue": "human_support", "estimated_wait_minutes": 4}
    assert s.session.transferred


# --- limits at their edges -------------------------------------------------------------------


def test_return_window_edges(d: Domain) -> None:
    args = {
        "order_id": "ORD-50331",
        "skus": ["KIT-POUR-SET"],
        "method": "store_credit",
        "reason": "other",
    }
    on_day_30 = d.initial_state({"today": "2026-04-08"})
    verify(d, on_day_30, "C-1001")
    assert call(d, on_day_30, "create_return", **args)["return_id"] == "R-7002"
    on_day_31 = d.initial_state({"today": "2026-04-09"})
    verify(d, on_day_31, "C-1001")
    with pytest.raises(ToolError, match="31 days ago"):
        call(d, on_day_31, "create_return", **args)


# --- refusals change nothing -----------------------------------------------------------------

REFUSALS = [
    # (verified as, tool, args, message fragment)
    (None, "verify_customer", {"customer_id": "C-1001", "zip_code": "97205"}, "do not match"),
    (None, "verify_customer", {"email": "nobody@example.com", "zip_code": "97214"}, "match"),
    (None, "verify_customer", {"zip_code": "97214"}, "give customer_id or email"),
    (
        None,
        "verify_customer",
        {"customer_id": "C-1001", "email": "mbell@example.net", "zip_code": "97214"},
        "do not match",
    ),
    (None, "get_customer", {"customer_id": "C-1001"}, "not verified"),
    ("C-1002", "get_customer", {"customer_id": "C-1001"}, "not verified"),
    ("C-1001", "get_customer", {"customer_id": "C-9999"}, "no customer"),
    (None, "list_orders", {"customer_id": "C-1002"}, "not verified"),
    (None, "get_contact_history", {"customer_id": "C-1004"}, "not verified"),
    ("C-1001", "get_contact_history", {"customer_id": "C-1004"}, "not verified"),
    (None, "get_order", {"order_id": "ORD-1"}, "no order"),
    (None, "track_shipment", {"order_id": "50290"}, "no order"),
    (None, "search_products", {"query": "television"}, "no products"),
    (None, "search_knowledge_base", {"query": "zzz qqq"}, "no articles"),
    # cancel
    (None, "cancel_order", {"order_id": "ORD-50344"}, "not verified"),
    ("C-1002", "cancel_order", {"order_id": "ORD-50344"}, "not verified"),
    ("C-1002", "cancel_order", {"order_id": "ORD-50290"}, "only orders not yet shipped"),
    ("C-1001", "cancel_order", {"order_id": "ORD-50112"}, "only orders not yet shipped"),
    # address
    (
        None,
        "change_shipping_address",
        {
            "order_id": "ORD-50387",
            "line1": "1 Main St",
            "city": "Seattle",
            "state": "WA",
            "zip_code": "98103",
        },
        "not verified",
    ),
    (
        "C-1005",
        "change_shipping_address",
        {
            "order_id": "ORD-50355",
            "line1": "1 Main St",
            "city": "Seattle",
            "state": "WA",
            "zip_code": "98103",
        },
        "before shipping",
    ),
    (
        "C-1001",
        "change_shipping_address",
        {
            "order_id": "ORD-50387",
            "line1": "1 Main St",
            "city": "Seattle",
            "state": "WA",
            "zip_code": "98103",
        },
        "not verified",
    ),
    # returns
    (
        None,
        "create_return",
        {"order_id": "ORD-50331", "skus": ["KIT-POUR-SET"], "method": "refund", "reason": "other"},
        "not verified",
    ),
    (
        "C-1001",
        "create_return",
        {
            "order_id": "ORD-50112",
            "skus": ["HOME-DUV-Q"],
            "method": "refund",
            "reason": "no_longer_needed",
        },
        "45 days ago",
    ),
    (
        "C-1001",
        "create_return",
        {"order_id": "ORD-50331", "skus": ["HOME-DUV-Q"], "method": "refund", "reason": "other"},
        "has no item",
    ),
    (
        "C-1001",
        "create_return",
        {
            "order_id": "ORD-50331",
            "skus": ["KIT-POUR-SET", "BOGUS"],
            "method": "refund",
            "reason": "other",
        },
        "has no item",
    ),
    (
        "C-1001",
        "create_return",
        {
            "order_id": "ORD-50331",
            "skus": ["HOME-PIL-2", "HOME-PIL-2"],
            "method": "refund",
            "reason": "other",
        },
        "listed once",
    ),
    (
        "C-1001",
        "create_return",
        {"order_id": "ORD-49904", "skus": ["OUT-BTL-1"], "method": "refund", "reason": "other"},
        "only delivered orders",
    ),
    (
        "C-1002",
        "create_return",
        {"order_id": "ORD-50201", "skus": ["ACC-SOCK-3"], "method": "refund", "reason": "other"},
        "final sale",
    ),
    (
        "C-1002",
        "create_return",
        {"order_id": "ORD-50290", "skus": ["KIT-GRND-01"], "method": "refund", "reason": "other"},
        "only delivered orders",
    ),
    # exchanges
    (
        None,
        "exchange_item",
        {"order_id": "ORD-50201", "sku": "SHOE-TR-100", "new_sku": "SHOE-TR-105"},
        "not verified",
    ),
    (
        "C-1002",
        "exchange_item",
        {"order_id": "ORD-50201", "sku": "SHOE-TR-100", "new_sku": "SHOE-TRG-105"},
        "same price",
    ),
    (
        "C-1002",
        "exchange_item",
        {"order_id": "ORD-50201", "sku": "SHOE-TR-100", "new_sku": "SHOE-TR-110"},
        "out of stock",
    ),
    (
        "C-1002",
        "exchange_item",
        {"order_id": "ORD-50201", "sku": "SHOE-TR-100", "new_sku": "SHOE-TR-100"},
        "different SKU",
    ),
    (
        "C-1002",
        "exchange_item",
        {"order_id": "ORD-50201", "sku": "SHOE-TR-100", "new_sku": "NOPE-1"},
        "no product",
    ),
    (
        "C-1002",
        "exchange_item",
        {"order_id": "ORD-50201", "sku": "ACC-SOCK-3", "new_sku": "APP-JAR-15"},
        "final sale",
    ),
    (
        "C-1001",
        "exchange_item",
        {"order_id": "ORD-50112", "sku": "HOME-DUV-Q", "new_sku": "HOME-DUV-Q"},
        "45 days ago",
    ),
    # goodwill
    (
        None,
        "issue_store_credit",
        {"customer_id": "C-1004", "amount": 15, "reason": "x"},
        "not verified",
    ),
    (
        "C-1004",
        "issue_store_credit",
        {"customer_id": "C-1004", "amount": 25.5, "reason": "x"},
        "per customer per day",
    ),
    (
        "C-1004",
        "issue_store_credit",
        {"customer_id": "C-1004", "amount": 0.001, "reason": "x"},
        "at least 0.01",
    ),
]


@pytest.mark.parametrize(("verified", "name", "args", "message"), REFUSALS)
def test_refusal_leaves_state_unchanged(
    d: Domain, s: DomainState, verified: str | None, name: str, args: dict[str, Any], message: str
) -> None:
    if verified is not None:
        verify(d, s, verified)
    before = s.model_dump()
    with pytest.raises(ToolError, match=message):
        call(d, s, name, **args)
    assert s.model_dump() == before


def test_second_transfer_is_refused(d: Domain, s: DomainState) -> None:
    call(d, s, "transfer_to_human", reason="first")
    before = s.model_dump()
    with pytest.raises(ToolError):
        call(d, s, "transfer_to_human", reason="second")
    assert s.model_dump() == before


def test_line_already_returned_cannot_be_returned_or_exchanged_again(
    d: Domain, s: DomainState
) -> None:
    verify(d, s, "C-1002")
    call(d, s, "exchange_item", order_id="ORD-50201", sku="SHOE-TR-100", new_sku="SHOE-TR-105")
    before = s.model_dump()
    with pytest.raises(ToolError, match="already exchanged"):
        call(
            d,
            s,
            "create_return",
            order_id="ORD-50201",
            skus=["SHOE-TR-100"],
            method="refund",
            reason="other",
        )
    assert s.model_dump() == before


def test_invalid_arguments_are_rejected_by_the_schema(d: Domain) -> None:
    with pytest.raises(ValueError):
        d.tools["create_return"].args_model(
            order_id="ORD-50331", skus=[], method="refund", reason="other"
        )
    with pytest.raises(ValueError):
        d.tools["change_shipping_address"].args_model(
            order_id="ORD-50387", line1="x", city="y", state="WA", zip_code="981"
        )
    with pytest.raises(ValueError):
        d.tools["issue_store_credit"].args_model(customer_id="C-1", amount=5, reason="x", x=1)
