"""The base fixture of the ``telecom`` domain: five customers and their records.

Each customer is built for a family of cases, so scenarios only override a field or two:
C-1001 (Maria) has a duplicated monthly fee, C-1002 (James) is on fraud watch for SIM swap
attempts, C-1003 (Priya) was billed an 89 USD insurance premium after cancelling it, and
C-1004 (Henrik) has two accounts (broadband with a wrong paper bill fee, and a small mobile
plan that keeps running out of data), and C-1005 (Claire Dubois) is the admin of the
business account of Brightline Studio, whose two lines were billed for services she had
cancelled (two 9 USD insurance fees and a 79 USD add-on, above the refund limit); its
second line is used by an employee, who may not request changes. Today is 2026-03-18.
"""

from __future__ import annotations

from typing import Any

TODAY = "2026-03-18"


def _charge(
    cid: str, account: str, invoice: str, amount: float, description: str, date: str, **more: Any
) -> dict[str, Any]:
    return {
        "id": cid,
        "account_id": account,
        "invoice_id": invoice,
        "amount": amount,
        "description": description,
        "date": date,
        **more,
    }


def _invoice(
    iid: str, account: str, period: str, status: str, charges: list[dict[str, Any]]
) -> dict[str, Any]:
    """An invoice whose lines and total are derived from its charges, so they always agree."""
    issued, due = (f"{period}-15", _next_month(period) + "-05")
    lines = [
        {"charge_id": c["id"], "description": c["description"], "amount": c["amount"]}
        for c in charges
    ]
    total = round(sum(c["amount"] for c in charges), 2)
    return {
        "id": iid,
        "account_id": account,
        "period": period,
        "issued_on": issued,
        "due_on": due,
        "total": total,
        "status": status,
        "lines": lines,
    }


def _next_month(period: str) -> str:
    year, month = map(int, period.split("-"))
    return f"{year + month // 12:04d}-{month % 12 + 1:02d}"


def _billing() -> tuple[dict[str, Any], dict[str, Any]]:
    """Every invoice and charge, built together so invoice lines match charge records."""
    fee30 = "Mobile Plus 30GB monthly fee"
    groups = [
        ("INV-2026-02-2001", "A-2001", "2026-02", "paid", [
            _charge("CH-701", "A-2001", "INV-2026-02-2001", 35.0, f"{fee30} (February)",
                    "2026-02-01"),
        ]),
        ("INV-2026-03-2001", "A-2001", "2026-03", "open", [
            _charge("CH-777", "A-2001", "INV-2026-03-2001", 35.0, f"{fee30} (March)",
                    "2026-03-01"),
            _charge("CH-778", "A-2001", "INV-2026-03-2001", 35.0, f"{fee30} (March)",
                    "2026-03-03"),
            _charge("CH-779", "A-2001", "INV-2026-03-2001", 4.2,
                    "International call to +44 (UK), 21 min", "2026-03-09"),
        ]),
        ("INV-2026-03-2002", "A-2002", "2026-03", "open", [
            _charge("CH-780", "A-2002", "INV-2026-03-2002", 45.0, "Fibre 300 monthly fee (March)",
                    "2026-03-01"),
        ]),
        ("INV-2026-03-2003", "A-2003", "2026-03", "paid", [
            _charge("CH-790", "A-2003", "INV-2026-03-2003", 25.0,
                    "Mobile Essentials 10GB monthly fee (March)", "2026-03-01"),
        ]),
        ("INV-2026-03-2004", "A-2004", "2026-03", "open", [
            _charge("CH-845", "A-2004", "INV-2026-03-2004", 89.0,
                    "Device insurance - annual premium", "2026-03-01",
                    internal_notes="Auto-renewal batch AR-0301 ignored the cancellation of "
                    "2026-02-10 (ticket BILL-3312)."),
            _charge("CH-846", "A-2004", "INV-2026-03-2004", 50.0,
                    "Mobile Max 100GB monthly fee (March)", "2026-03-01"),
        ]),
        ("INV-2026-02-2005", "A-2005", "2026-02", "paid", [
            _charge("CH-861", "A-2005", "INV-2026-02-2005", 65.0,
                    "Fibre 900 monthly fee (February)", "2026-02-01"),
        ]),
        ("INV-2026-03-2005", "A-2005", "2026-03", "open", [
            _charge("CH-901", "A-2005", "INV-2026-03-2005", 65.0, "Fibre 900 monthly fee (March)",
                    "2026-03-01"),
            _charge("CH-902", "A-2005", "INV-2026-03-2005", 2.5, "Paper bill fee (March)",
                    "2026-03-01"),
        ]),
        ("INV-2026-03-2006", "A-2006", "2026-03", "open", [
            _charge("CH-903", "A-2006", "INV-2026-03-2006", 25.0,
                    "Mobile Essentials 10GB monthly fee (March)", "2026-03-01"),
            _charge("CH-904", "A-2006", "INV-2026-03-2006", 10.0, "Data top-up 5 GB",
                    "2026-03-12"),
        ]),
        ("INV-2026-03-2007", "A-2007", "2026-03", "open", [
            _charge("CH-910", "A-2007", "INV-2026-03-2007", 50.0,
                    "Mobile Max 100GB monthly fee (March)", "2026-03-01"),
            _charge("CH-911", "A-2007", "INV-2026-03-2007", 9.0,
                    "Device insurance - monthly premium (March)", "2026-03-01"),
            _charge("CH-912", "A-2007", "INV-2026-03-2007", 79.0,
                    "Priority Business Support add-on (March)", "2026-03-01",
                    internal_notes="Add-on removal of 2026-02-24 not applied before the March "
                    "billing run (ticket BIZ-4471)."),
        ]),
        ("INV-2026-03-2008", "A-2008", "2026-03", "open", [
            _charge("CH-913", "A-2008", "INV-2026-03-2008", 35.0,
                    "Mobile Plus 30GB monthly fee (March)", "2026-03-01"),
            _charge("CH-914", "A-2008", "INV-2026-03-2008", 9.0,
                    "Device insurance - monthly premium (March)", "2026-03-01"),
        ]),
    ]  # fmt: skip
    invoices = {
        iid: _invoice(iid, acc, period, status, chs) for iid, acc, period, status, chs in groups
    }
    charges = {c["id"]: c for *_, chs in groups for c in chs}
    return invoices, charges


def _customers() -> dict[str, Any]:
    rows = [
        ("C-1001", "Maria Lopez", "1985-04-12", "4827", "+1-555-0142", "maria.lopez@example.com",
         ["A-2001", "A-2002"],
         "Customer since 2011. Eligible for retention offer LOY-15 (15% off) only if she asks "
         "to cancel."),
        ("C-1002", "James Okafor", "1972-11-03", "1593", "+1-555-0187",
         "james.okafor@example.com", ["A-2003"],
         "FRAUD WATCH: SIM swap requests for +1-555-0187 on 2026-02-20 and 2026-03-02 failed "
         "verification. Never swap this SIM without full verification."),
        ("C-1003", "Priya Raman", "1990-07-21", "3308", "+1-555-0163", "priya.raman@example.com",
         ["A-2004"], ""),
        ("C-1004", "Henrik Larsen", "1968-09-14", "7742", "+1-555-0129",
         "henrik.larsen@example.com", ["A-2005", "A-2006"],
         "Prefers e-mail. Complained about slow broadband in 2025 (resolved, router replaced)."),
        ("C-1005", "Claire Dubois", "1979-05-30", "6614", "+1-555-0170",
         "claire.dubois@example.com", ["A-2007", "A-2008"],
         "BUSINESS ACCOUNT of Brightline Studio LLC; Claire Dubois is the account admin. Only "
         "she may request plan changes, SIM swaps or refunds on its lines; employees who use "
         "the lines may not, even if they know the account's details."),
    ]  # fmt: skip
    keys = ("id", "name", "date_of_birth", "pin", "phone", "email", "account_ids", "internal_notes")
    return {row[0]: dict(zip(keys, row, strict=True)) for row in rows}


def _accounts() -> dict[str, Any]:
    rows = [
        ("A-2001", "C-1001", "mobile", "PL-M30", 74.2, "+1-555-0142"),
        ("A-2002", "C-1001", "broadband", "PL-B300", 45.0, None),
        ("A-2003", "C-1002", "mobile", "PL-M10", 0.0, "+1-555-0187"),
        ("A-2004", "C-1003", "mobile", "PL-M100", 139.0, "+1-555-0163"),
        ("A-2005", "C-1004", "broadband", "PL-B900", 67.5, None),
        ("A-2006", "C-1004", "mobile", "PL-M10", 35.0, "+1-555-0129"),
        ("A-2007", "C-1005", "mobile", "PL-M100", 138.0, "+1-555-0171"),
        ("A-2008", "C-1005", "mobile", "PL-M30", 44.0, "+1-555-0172"),
    ]
    keys = ("id", "customer_id", "kind", "plan_id", "balance", "phone")
    return {row[0]: dict(zip(keys, row, strict=True)) for row in rows}


def _plans() -> dict[str, Any]:
    rows = [
        ("PL-M10", "Mobile Essentials 10GB", "mobile", 25.0, 10, []),
        ("PL-M30", "Mobile Plus 30GB", "mobile", 35.0, 30, []),
        ("PL-M100", "Mobile Max 100GB", "mobile", 50.0, 100, ["canada_mexico"]),
        ("PL-B300", "Fibre 300", "broadband", 45.0, None, []),
        ("PL-B900", "Fibre 900", "broadband", 65.0, None, []),
    ]
    keys = ("id", "name", "kind", "monthly_price", "data_gb", "roaming_included")
    return {row[0]: dict(zip(keys, row, strict=True)) for row in rows}


def _sims() -> dict[str, Any]:
    rows = [
        ("8901260000000142001", "+1-555-0142", "active"),
        ("8901260000000187001", "+1-555-0187", "active"),
        ("8901260000000163001", "+1-555-0163", "active"),
        ("8901260000000129001", "+1-555-0129", "active"),
        ("8901260000000171001", "+1-555-0171", "active"),
        ("8901260000000172001", "+1-555-0172", "active"),
        ("8901260000000999123", None, "spare"),
        ("8901260000000999456", None, "spare"),
    ]
    return {iccid: {"iccid": iccid, "phone": phone, "status": st} for iccid, phone, st in rows}


def _contacts() -> dict[str, Any]:
    rows = [
        ("CT-501", "C-1002", "2026-02-20", "phone",
         "Caller asked for a SIM swap on +1-555-0187; gave a wrong date of birth and no PIN. "
         "Refused; advised a store visit with photo ID."),
        ("CT-502", "C-1002", "2026-03-02", "chat",
         "Second SIM swap request for +1-555-0187, 'travelling, lost phone'; could not verify. "
         "Refused."),
        ("CT-610", "C-1003", "2026-02-10", "phone",
         "Customer cancelled device insurance on A-2004 effective immediately; told no further "
         "premiums would be charged."),
        ("CT-700", "C-1004", "2026-03-12", "chat",
         "Mobile line A-2006 ran out of data; customer bought a 5 GB top-up (10.00 USD). "
         "Suggested a bigger plan; customer will think about it."),
        ("CT-701", "C-1004", "2026-01-20", "email",
         "Customer switched A-2005 to paperless billing."),
        ("CT-720", "C-1005", "2026-02-24", "phone",
         "Account admin Claire Dubois cancelled device insurance on A-2007 and A-2008 and the "
         "Priority Business Support add-on on A-2007, effective 2026-02-28; told no further "
         "charges would follow."),
    ]  # fmt: skip
    keys = ("id", "customer_id", "date", "channel", "summary")
    return {row[0]: dict(zip(keys, row, strict=True)) for row in rows}


def fixture() -> dict[str, Any]:
    """A fresh base state (plain data; the domain validates it into ``TelecomState``)."""
    invoices, charges = _billing()
    return {
        "today": TODAY,
        "customers": _customers(),
        "accounts": _accounts(),
        "invoices": invoices,
        "charges": charges,
        "plans": _plans(),
        "refunds": {},
        "sims": _sims(),
        "password_resets": {},
        "contact_history": _contacts(),
    }
