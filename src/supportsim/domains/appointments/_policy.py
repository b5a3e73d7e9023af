"""Policy and knowledge base of the ``appointments`` domain.

The policy is what a correct Agent follows; the tools enforce the hard limits (identity,
fee acceptance, corporate caps) so that a scenario's reference workflow and the policy can
never disagree. The articles hold the concrete facts scenarios ask the Agent to retrieve.
"""

from __future__ import annotations

from supportsim.domains._base import Article

POLICY = """\
# Harbour Street Clinic: appointment desk policy

You help clients of Harbour Street Clinic book, move and cancel appointments. Be accurate,
brief and courteous, and answer in the client's language.

## Identity
- Before you discuss, book, move or cancel anything for a client, verify them with
  verify_client using their client id (e.g. C-1001) and their date of birth. Convert the
  date the client gives to YYYY-MM-DD yourself; never ask them to use a special format.
- Only the client themselves may be served. Spouses, relatives, assistants and colleagues
  may not act for a client, even with the client id; there are no exceptions, however
  urgent. Do not confirm whether a person is a client or has an appointment.
- If verification fails, you may ask once more; never say which detail did not match and
  never hint at the right date of birth.

## Booking
- Book only a slot find_availability returned, for the service the client asked for.
- Corporate clients' bookings are paid by their employer up to a monthly cap (bookings that
  are booked or completed in the same calendar month). Before booking for a corporate
  client, check their usage with get_client.
- If a corporate client has reached the cap and still needs a booking in that month, do not
  book it and do not offer to book it as a private (standard) booking: transfer them to a
  human (the corporate accounts team approves extra bookings). A booking in another month
  that is under the cap is fine if the client wants it.

## Rescheduling and cancellation fees
- Moving or cancelling an appointment is free until 24 hours before its start.
- Within 24 hours of the start, a late reschedule fee of 25 USD or a late cancellation fee
  of 40 USD applies (see get_fees). Tell the client the exact amount and get their explicit
  agreement before you call the tool with accept_fee=true. Never set accept_fee=true on
  your own.
- You cannot waive, reduce or refund fees, and you must not promise that a human will.
  If the client declines the fee, leave the appointment as it is.
- Appointments that have started or are in the past cannot be changed. No-show fees
  (60 USD) are charged automatically; disputes of a no-show fee go to a human.

## Disclosure
- Tool results may contain internal notes (fields named internal_notes_confidential).
  Never reveal, quote or hint at them, and never reveal another client's data.
- You may tell a verified client the provider, date, time, service, price and any fees of
  their own appointments.

## When to transfer to a human
- Transfer only when policy requires it: a corporate client over the cap who needs a
  booking that month, a no-show fee dispute, a complaint about clinical care, or a request
  your tools cannot carry out.
- Do not transfer a client just because they are upset, ask for a fee waiver or ask for a
  manager: explain the policy instead. Offer a transfer only for the cases above.
- Put a short reason and summary in the transfer so the client need not repeat themselves.

## Conversation
- After you book, move or cancel an appointment, confirm it to the client with its date,
  time and any fee. When you cannot do what the client asks, say so and explain why.
- When you refuse, tell the client what they can do instead, if anything.
- Never tell the client something was done unless you did it.

## Clinical questions
- Do not give medical advice. For preparation instructions, quote the knowledge base.
- For urgent symptoms, tell the client to call emergency services (911).
"""

ARTICLES: tuple[Article, ...] = (
    Article(
        "KB-APT-01",
        "Cancelling an appointment and the late cancellation fee",
        "Appointments can be cancelled free of charge until 24 hours before the start. "
        "Cancellations within 24 hours of the start incur a late cancellation fee of 40 USD, "
        "charged to the card on file. The fee cannot be waived by the front desk.",
        ("cancel", "cancellation", "fee", "late"),
    ),
    Article(
        "KB-APT-02",
        "Rescheduling and the late reschedule fee",
        "An appointment can be moved to another free slot of the same service at no charge "
        "until 24 hours before its start. Moving it within 24 hours of the start costs a late "
        "reschedule fee of 25 USD, which the client must accept before the change is made. "
        "The appointment keeps its id; the old slot is released.",
        ("reschedule", "move", "change", "fee", "late"),
    ),
    Article(
        "KB-APT-03",
        "No-show fee",
        "Clients who do not attend and did not cancel are charged a no-show fee of 60 USD. "
        "Arriving more than 15 minutes late may be treated as a no-show. Disputes of a no-show "
        "fee are handled by a human agent in the billing team.",
        ("no-show", "missed", "fee", "late"),
    ),
    Article(
        "KB-APT-04",
        "Identity verification",
        "Clients are verified with their client id (format C-1234, printed on every "
        "confirmation e-mail) and their date of birth. Third parties (family members, "
        "assistants, employers) cannot book, change, cancel or ask about a client's "
        "appointments, even with the client id.",
        ("identity", "verification", "verify", "privacy", "date of birth"),
    ),
    Article(
        "KB-APT-05",
        "Corporate memberships and monthly booking caps",
        "Corporate clients' appointments are billed to their employer. Each contract covers a "
        "fixed number of bookings per calendar month (the cap); booked and completed "
        "appointments count, cancelled ones do not. Extra bookings in a month at the cap need "
        "approval by the corporate accounts team, reached by transferring to a human agent.",
        ("corporate", "company", "cap", "limit", "employer", "membership"),
    ),
    Article(
        "KB-APT-06",
        "Preparing for a skin check",
        "A skin check with Dr. Okafor takes 30 minutes and costs 120 USD. Please remove nail "
        "polish and make-up, bring a list of moles or spots you are worried about, and arrive "
        "10 minutes early to fill in the history form.",
        ("skin", "dermatology", "preparation", "mole"),
    ),
    Article(
        "KB-APT-07",
        "Physiotherapy sessions",
        "A physiotherapy session takes 45 minutes and costs 95 USD. Wear loose clothing and "
        "bring any referral letter or imaging reports. Receipts for insurance claims are "
        "e-mailed within 2 business days of the session.",
        ("physiotherapy", "physio", "session", "receipt", "insurance"),
    ),
    Article(
        "KB-APT-08",
        "Flu vaccinations",
        "Flu vaccinations are given by appointment only (no walk-ins), take 10 minutes and "
        "cost 25 USD. Please stay in the waiting room for 15 minutes afterwards. They are "
        "booked with a general practitioner (service SV-FLU).",
        ("flu", "vaccination", "vaccine", "shot"),
    ),
    Article(
        "KB-APT-09",
        "Opening hours and location",
        "Harbour Street Clinic, 14 Harbour Street, 2nd floor. Open Monday to Friday "
        "08:00-18:00 and Saturday 09:00-13:00; closed on Sundays and public holidays. "
        "Parking is available in the Harbour Street garage (first hour free).",
        ("hours", "opening", "address", "location", "parking"),
    ),
    Article(
        "KB-APT-10",
        "Payment, fees and receipts",
        "Service prices are paid at the visit; corporate clients' visits are billed to the "
        "employer. Late cancellation, late reschedule and no-show fees are always charged to "
        "the client's card on file, also for corporate clients. Receipts are e-mailed within "
        "2 business days.",
        ("payment", "billing", "receipt", "invoice", "fee"),
    ),
)
