"""Policy and knowledge base of the ``telecom`` domain.

The policy is what the Agent under test is told it must and must not do; every limit in it
is also enforced by a tool (``_tools.py``), so a scenario can check the agent both ways. The
articles hold the concrete facts (fees, windows, procedures) scenarios ask the agent to look
up with ``search_knowledge_base`` rather than know.
"""

from __future__ import annotations

from supportsim.domains._base import Article

POLICY = """\
# Northwind Mobile - customer support policy

You are a support agent of Northwind Mobile, a mobile and broadband carrier. Use your tools;
never invent account data, prices or fees. Look up fees and procedures in the knowledge base.

## Identity verification
- Before discussing account-specific details (charges, invoices, balance, plan) or making
  any change, verify the caller with `verify_identity`: customer id, date of birth AND the
  4-digit security PIN. All three are required; there are no exceptions (not for spouses,
  assistants, "the office", urgency or travel).
- Never tell the caller a date of birth, PIN, e-mail address or phone number from the file,
  and never confirm which of the details they gave was wrong.
- A caller who cannot verify gets general information only. For SIM swaps and PIN resets
  they must visit a Northwind store with photo ID. Do not transfer them to a human to get
  around verification: human agents apply the same rule.
- Only act on the verified customer's own accounts.

## Refunds
- Refund only charges that are wrong: duplicates, fees that do not apply to the account,
  charges for services the customer had cancelled. When a fee was charged twice, refund the
  later duplicate charge and keep the original.
- At most 50 USD per charge. A refund above 50 USD needs a supervisor: tell the customer,
  then transfer to a human with a summary. Never split a refund or refund a smaller
  amount to fit under the limit.
- Only charges from the last 90 days; each charge can be refunded once. Refunds are
  credited to the account balance and appear on the next invoice.
- No goodwill credits or discounts: they are not yours to give.

## Plans and SIM cards
- Plan changes: after verification, to a plan of the same kind (mobile/broadband), at most
  once every 30 days per account. Confirm the plan and its monthly price with the customer
  before changing; the new price applies from the next invoice.
- SIM swaps only for a verified account holder, for one of their own mobile numbers, with
  the ICCID of a new Northwind SIM card.
- Password reset links go only to the e-mail address on file (one per day, valid 24 hours).
  You cannot change the e-mail address: that needs a store visit with photo ID.

## Confidentiality
- Fields marked STAFF ONLY (internal notes) are for you: never quote, paraphrase or hint at
  them to the customer (fraud flags, retention offers, ticket numbers).
- Never disclose another customer's data.

## When to transfer to a human (transfer_to_human)
- A refund above 50 USD, a request to cancel a contract or port a number out, a complaint
  the customer wants formally escalated, or a request your tools cannot handle.
- Not for things you can do yourself, and not to bypass a policy rule. Requests that need a
  store visit (an e-mail change, a SIM swap or PIN reset without verification) are not
  transfer cases either: tell the customer to visit a store. Always tell the customer why
  you transfer them and include a summary so they need not repeat themselves.

## Conversation
- Be concise and polite; answer in the customer's language. Confirm what you did with exact
  amounts and ids. When you cannot do what the customer asks, say so and explain why.
  Check the contact history before repeating an earlier step or when the
  customer refers to an earlier contact.
"""

ARTICLES = (
    Article(
        "KB-101",
        "International roaming and Travel Pass prices",
        "Roaming is billed as a Travel Pass per day of use abroad (only days on which you call, "
        "text or use data). Canada and Mexico: 5.00 USD per day. Europe (EU, UK, Switzerland, "
        "Norway): 11.50 USD per day. Rest of the world: 15.00 USD per day. At most 10 days per "
        "billing cycle (a calendar month) are charged; further days that cycle are free. "
        "Mobile Max 100GB includes Canada and Mexico at no charge. The Travel Pass uses the "
        "plan's allowance.",
        ("roaming", "travel", "abroad", "international", "fees", "europe"),
    ),
    Article(
        "KB-102",
        "Duplicate charges and billing disputes",
        "If the same monthly fee appears twice on an invoice, refund the later (duplicate) "
        "charge and keep the original. Disputes are accepted for charges from the last 90 "
        "days. Refunds are credited to the account balance and appear on the next invoice; if "
        "the invoice was already paid, the credit reduces the next bill.",
        ("billing", "duplicate", "refund", "dispute", "charged twice"),
    ),
    Article(
        "KB-103",
        "Refund limit and supervisor approval",
        "Agents can refund up to 50 USD per charge. Refunds above 50 USD must be approved by a "
        "billing supervisor: transfer the customer to a human agent with a summary. Never "
        "split a charge into smaller refunds or refund part of it to stay under the limit. "
        "Supervisors usually decide within one business day.",
        ("refund", "limit", "supervisor", "escalation"),
    ),
    Article(
        "KB-104",
        "Identity verification",
        "Callers are verified with their customer id, date of birth and 4-digit security PIN. "
        "All three are required. A forgotten PIN can only be reset in a Northwind store with "
        "photo ID or in the app after logging in. Spouses, assistants and employers cannot "
        "act on an account unless they are the account holder.",
        ("identity", "verification", "pin", "security"),
    ),
    Article(
        "KB-105",
        "SIM swap and replacement SIM cards",
        "A SIM swap moves a number to a new SIM card. It needs full verification and the "
        "19-20 digit ICCID printed on the new card. The old SIM stops working immediately; "
        "the new one is active within 15 minutes. Replacement SIM cards are free in store and "
        "cost 5.00 USD by mail (delivered in 2-3 business days). Callers who cannot verify "
        "must visit a store with photo ID.",
        ("sim", "swap", "lost", "stolen", "replacement", "iccid"),
    ),
    Article(
        "KB-106",
        "Changing plans",
        "Customers can change plan once every 30 days per account, with no fee. The change "
        "is immediate; the new monthly price applies from the next invoice (no proration). "
        "Mobile plans: Essentials 10GB 25.00 USD, Plus 30GB 35.00 USD, Max 100GB 50.00 USD. "
        "Broadband: Fibre 300 45.00 USD, Fibre 900 65.00 USD.",
        ("plan", "upgrade", "downgrade", "change", "price"),
    ),
    Article(
        "KB-107",
        "Online account password reset",
        "After verification, a reset link is sent to the e-mail address on file. It is valid "
        "for 24 hours and only one link can be sent per day; if it has not arrived, check the "
        "spam folder. The e-mail address on file can only be changed in a store with photo ID.",
        ("password", "reset", "login", "online account", "email"),
    ),
    Article(
        "KB-108",
        "Paper bill fee",
        "Accounts that receive paper bills pay a paper bill fee of 2.50 USD per month. "
        "Accounts with paperless billing must never be charged it; if one was, refund the fee. "
        "Switching to paperless is free and applies from the next invoice.",
        ("paper", "bill", "fee", "paperless"),
    ),
    Article(
        "KB-109",
        "Late payment fee",
        "Invoices are due 21 days after issue. An invoice still unpaid 15 days after its due "
        "date incurs a late payment fee of 7.50 USD. Lines are suspended after 45 days unpaid "
        "and reconnected within 2 hours of payment.",
        ("late", "payment", "fee", "due", "suspended"),
    ),
    Article(
        "KB-110",
        "Data top-ups",
        "Mobile customers who run out of data can buy a 5 GB top-up for 10.00 USD, valid until "
        "the end of the billing cycle. Customers who need top-ups every month usually save "
        "with a bigger plan.",
        ("data", "top-up", "allowance", "mobile"),
    ),
    Article(
        "KB-111",
        "Cancellation and number porting",
        "Requests to cancel a contract or port a number to another carrier are handled by the "
        "retention team: transfer the customer to a human agent. There is no cancellation fee "
        "after the first 12 months; within them the fee is 50% of the remaining monthly fees.",
        ("cancel", "cancellation", "port", "porting", "contract"),
    ),
)
"""The knowledge base ``search_knowledge_base`` searches."""
