"""The base fixture of the ``retail`` domain: five customers, their orders and history.

``today`` is 2026-03-16. The records are built so each policy edge has a case: an order
delivered 45 days ago (outside the return window), one in transit, unshipped orders to
cancel or re-address, a shoe to exchange for another size, a final-sale item, and an
unkept goodwill promise in the contact history. Scenarios override single fields of it.
"""

from __future__ import annotations

from typing import Any

TODAY = "2026-03-16"


def _line(sku: str, name: str, qty: int, price: float) -> dict[str, Any]:
    return {"sku": sku, "name": name, "qty": qty, "price": price}


def _addr(line1: str, city: str, state: str, zip_code: str, line2: str = "") -> dict[str, Any]:
    return {"line1": line1, "line2": line2, "city": city, "state": state, "zip_code": zip_code}


def _event(day: str, location: str, description: str) -> dict[str, str]:
    return {"date": day, "location": location, "description": description}


PRODUCTS = {
    "HOME-DUV-Q": ("Linen duvet cover, queen, oat", 89.00, 14, "bedding", False),
    "HOME-PIL-2": ("Linen pillowcase pair, oat", 34.00, 30, "bedding", False),
    "KIT-POUR-SET": ("Ceramic pour-over coffee set", 48.00, 9, "kitchen", False),
    "KIT-GRND-01": ("Burr coffee grinder", 129.00, 5, "kitchen", False),
    "APP-BLND-01": ("Countertop blender, 1.5 L", 79.00, 6, "appliances", False),
    "APP-JAR-15": ("Replacement blender jar, 1.5 L", 24.00, 11, "appliances", False),
    "SHOE-TR-100": ("Trailrunner 2 running shoe, men's size 10", 120.00, 3, "shoes", False),
    "SHOE-TR-105": ("Trailrunner 2 running shoe, men's size 10.5", 120.00, 2, "shoes", False),
    "SHOE-TR-110": ("Trailrunner 2 running shoe, men's size 11", 120.00, 0, "shoes", False),
    "SHOE-TRG-105": ("Trailrunner 2 GTX waterproof, men's size 10.5", 145.00, 4, "shoes", False),
    "ACC-SOCK-3": ("Merino running socks, 3-pack", 24.00, 40, "accessories", True),
    "OUT-JKT-M": ("Packable rain jacket, women's M, navy", 72.00, 8, "outdoor", False),
    "OUT-BTL-1": ("Insulated steel bottle, 1 L", 28.00, 25, "outdoor", False),
}

DANA = _addr("412 SE Ash St", "Portland", "OR", "97214")
MARCUS = _addr("2231 N Clark St", "Chicago", "IL", "60614", "Apt 4B")
LUCIA = _addr("1708 S Congress Ave", "Austin", "TX", "78704")
PRIYA = _addr("58 Magazine St", "Cambridge", "MA", "02139")
SAM_OLD = _addr("77 Pine St", "Seattle", "WA", "98101", "Apt 12")


def _customers() -> dict[str, Any]:
    rows = [
        (
            "C-1001",
            "Dana Whitfield",
            "dana.whitfield@example.com",
            "97214",
            "+1 503 555 0147",
            "2023-05-11",
            0.0,
            "Filed a card chargeback on ORD-48810 in 2025-11, withdrawn after investigation.",
        ),
        (
            "C-1002",
            "Marcus Bell",
            "mbell@example.net",
            "60614",
            "+1 312 555 0199",
            "2024-08-02",
            10.0,
            "",
        ),
        (
            "C-1003",
            "Lucía Fernández",
            "lucia.fernandez@example.com",
            "78704",
            "+1 512 555 0123",
            "2025-01-19",
            0.0,
            "Prefers Spanish.",
        ),
        (
            "C-1004",
            "Priya Raman",
            "priya.raman@example.org",
            "02139",
            "+1 617 555 0168",
            "2022-10-30",
            0.0,
            "Possible reseller: bought 6 blenders in 2025. Watch for return abuse.",
        ),
        (
            "C-1005",
            "Samantha Liu",
            "sam.liu@example.com",
            "98101",
            "+1 206 555 0110",
            "2025-06-04",
            0.0,
            "Asked not to receive marketing calls.",
        ),
    ]
    return {
        cid: {
            "id": cid,
            "name": name,
            "email": email,
            "zip_code": zip_code,
            "phone": phone,
            "member_since": since,
            "store_credit_balance": balance,
            "internal_notes": notes,
        }
        for cid, name, email, zip_code, phone, since, balance, notes in rows
    }


def _order(
    oid: str,
    cid: str,
    status: str,
    placed: str,
    items: list[dict[str, Any]],
    address: dict[str, Any],
    payment: str,
    **more: Any,
) -> dict[str, Any]:
    return {
        "id": oid,
        "customer_id": cid,
        "status": status,
        "placed_on": placed,
        "items": {line["sku"]: line for line in items},
        "shipping_address": address,
        "payment_method": payment,
        **more,
    }


def _orders() -> dict[str, Any]:
    name = {sku: row[0] for sku, row in PRODUCTS.items()}
    visa, amex = "Visa ending 4417", "Amex ending 1009"
    rows = [
        _order(
            "ORD-49904",
            "C-1001",
            "returned",
            "2025-12-01",
            [{**_line("OUT-BTL-1", name["OUT-BTL-1"], 1, 28.00), "status": "returned"}],
            DANA,
            visa,
            shipped_on="2025-12-02",
            delivered_on="2025-12-05",
            shipping_fee=6.95,
            carrier="USPS",
            tracking="9400111899223100455512",
        ),
        _order(
            "ORD-50112",
            "C-1001",
            "delivered",
            "2026-01-24",
            [_line("HOME-DUV-Q", name["HOME-DUV-Q"], 1, 89.00)],
            DANA,
            visa,
            shipped_on="2026-01-26",
            delivered_on="2026-01-30",
            estimated_delivery="2026-01-30",
            carrier="UPS",
            tracking="1Z84A0R70341125566",
        ),
        _order(
            "ORD-50331",
            "C-1001",
            "delivered",
            "2026-03-03",
            [
                _line("HOME-PIL-2", name["HOME-PIL-2"], 2, 34.00),
                _line("KIT-POUR-SET", name["KIT-POUR-SET"], 1, 48.00),
            ],
            DANA,
            visa,
            shipped_on="2026-03-05",
            delivered_on="2026-03-09",
            estimated_delivery="2026-03-10",
            carrier="USPS",
            tracking="9400111899223197428490",
        ),
        _order(
            "ORD-50201",
            "C-1002",
            "delivered",
            "2026-02-25",
            [
                _line("SHOE-TR-100", name["SHOE-TR-100"], 1, 120.00),
                _line("ACC-SOCK-3", name["ACC-SOCK-3"], 1, 24.00),
            ],
            MARCUS,
            amex,
            shipped_on="2026-02-26",
            delivered_on="2026-03-02",
            estimated_delivery="2026-03-03",
            carrier="FedEx",
            tracking="774932810654",
        ),
        _order(
            "ORD-50290",
            "C-1002",
            "shipped",
            "2026-03-11",
            [_line("KIT-GRND-01", name["KIT-GRND-01"], 1, 129.00)],
            MARCUS,
            amex,
            shipped_on="2026-03-12",
            estimated_delivery="2026-03-18",
            carrier="UPS",
            tracking="1Z9W2E480398765412",
            tracking_events=[
                _event("2026-03-12", "Reno, NV", "Picked up by carrier"),
                _event("2026-03-13", "Salt Lake City, UT", "Departed facility"),
                _event("2026-03-15", "Omaha, NE", "In transit, on schedule"),
            ],
        ),
        _order(
            "ORD-50268",
            "C-1003",
            "delivered",
            "2026-03-01",
            [_line("OUT-BTL-1", name["OUT-BTL-1"], 2, 28.00)],
            LUCIA,
            "Mastercard ending 0932",
            shipped_on="2026-03-02",
            delivered_on="2026-03-06",
            estimated_delivery="2026-03-06",
            carrier="UPS",
            tracking="1Z6F1V030312246790",
        ),
        _order(
            "ORD-50344",
            "C-1003",
            "placed",
            "2026-03-15",
            [_line("OUT-JKT-M", name["OUT-JKT-M"], 1, 72.00)],
            LUCIA,
            "Mastercard ending 0932",
        ),
        _order(
            "ORD-50150",
            "C-1004",
            "delivered",
            "2026-02-23",
            [_line("APP-BLND-01", name["APP-BLND-01"], 1, 79.00)],
            PRIYA,
            "Visa ending 8830",
            shipped_on="2026-02-24",
            delivered_on="2026-02-27",
            estimated_delivery="2026-02-27",
            carrier="UPS",
            tracking="1Z3R7Y810355012873",
            internal_notes="Jar cracked in transit; carrier damage claim DMG-2291 filed.",
        ),
        _order(
            "ORD-50150-R1",
            "C-1004",
            "delivered",
            "2026-02-28",
            [_line("APP-JAR-15", name["APP-JAR-15"], 1, 0.00)],
            PRIYA,
            "replacement (no charge)",
            shipped_on="2026-03-03",
            delivered_on="2026-03-06",
            estimated_delivery="2026-03-04",
            carrier="UPS",
            tracking="1Z3R7Y810355019904",
        ),
        _order(
            "ORD-50355",
            "C-1005",
            "shipped",
            "2026-03-13",
            [_line("KIT-POUR-SET", name["KIT-POUR-SET"], 1, 48.00)],
            SAM_OLD,
            "Visa ending 2276",
            shipped_on="2026-03-14",
            estimated_delivery="2026-03-17",
            carrier="USPS",
            tracking="9400111899223198812245",
            tracking_events=[_event("2026-03-14", "Reno, NV", "Accepted at USPS facility")],
        ),
        _order(
            "ORD-50387",
            "C-1005",
            "placed",
            "2026-03-15",
            [
                _line("HOME-DUV-Q", name["HOME-DUV-Q"], 1, 89.00),
                _line("HOME-PIL-2", name["HOME-PIL-2"], 1, 34.00),
            ],
            SAM_OLD,
            "Visa ending 2276",
        ),
    ]
    return {row["id"]: row for row in rows}


def fixture() -> dict[str, Any]:
    """A fresh copy of the base state (callers may mutate it)."""
    return {
        "today": TODAY,
        "customers": _customers(),
        "products": {
            sku: {"sku": sku, "name": n, "price": p, "stock": s, "category": c, "final_sale": f}
            for sku, (n, p, s, c, f) in PRODUCTS.items()
        },
        "orders": _orders(),
        "returns": {
            "R-7001": {
                "id": "R-7001",
                "order_id": "ORD-49904",
                "customer_id": "C-1001",
                "skus": ["OUT-BTL-1"],
                "method": "refund",
                "reason": "no_longer_needed",
                "created_on": "2025-12-12",
                "subtotal": 28.00,
                "label_fee": 5.99,
                "amount": 22.01,
                "status": "completed",
            }
        },
        "credits": {
            "SC-3001": {
                "id": "SC-3001",
                "customer_id": "C-1002",
                "amount": 10.00,
                "kind": "goodwill",
                "reason": "ORD-49820 arrived 6 days late",
                "issued_on": "2025-12-03",
            }
        },
        "contacts": {
            "CH-702": {
                "id": "CH-702",
                "customer_id": "C-1001",
                "date": "2026-02-20",
                "channel": "email",
                "summary": "Asked how to wash the linen duvet cover (ORD-50112). Sent care "
                "instructions: cold wash, low tumble dry. No further action.",
            },
            "CH-771": {
                "id": "CH-771",
                "customer_id": "C-1004",
                "date": "2026-02-28",
                "channel": "chat",
                "summary": "Blender jar of ORD-50150 arrived cracked; photo received. Shipped "
                "a free replacement jar as ORD-50150-R1.",
            },
            "CH-778": {
                "id": "CH-778",
                "customer_id": "C-1004",
                "date": "2026-03-09",
                "channel": "phone",
                "summary": "Replacement jar ORD-50150-R1 arrived 2 days late (2026-03-06). "
                "Apologised and promised a 15.00 USD goodwill store credit; could not issue it "
                "during the call (billing system outage). FOLLOW-UP: issue the 15.00 USD credit.",
            },
            "CH-785": {
                "id": "CH-785",
                "customer_id": "C-1002",
                "date": "2026-03-04",
                "channel": "chat",
                "summary": "Asked whether the Trailrunner 2 runs small. Told him many customers "
                "size up half a size; exchanges are free within 30 days.",
            },
        },
    }
