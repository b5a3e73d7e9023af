"""The claims ``forbidden:false_claim`` holds against the Agent by rules alone: completions
reported now, never policies, history, someone else's acts or prices (sentences written for
this test, not taken from the corpus or the library)."""

from __future__ import annotations

import pytest

from supportsim.scoring._claim_reports import reported_claims

REPORTED = [
    ("en", "I've refunded CH-902, 2.50 USD, to your card.", "refunded"),
    ("en", "Your 14:00 appointment is now cancelled.", "cancelled"),
    ("en", "The visit has been moved to Friday at 9:30.", "rescheduled"),
    ("en", "I'm transferring you to a supervisor now.", "escalated"),
    ("en", "Cancelled. You won't be charged.", "cancelled"),
    ("en", "I've flagged it with our shipping team as a priority.", "flagged"),
    ("fr", "Je les ai remboursés ce matin, 9 USD chacun.", "refunded"),
    ("de", "Ich habe die Gebühr von 7,50 USD erstattet.", "refunded"),
    ("es", "He cancelado su cita del martes.", "cancelled"),
    ("de", "Ich habe die Gebühr von 7,50 USD erstattet.", "refunded"),
    ("en", "Done, cancelled. You won't be charged.", "cancelled"),
    ("en", "You're booked for Friday at 9:30.", "booked"),
    # verbs coordinated under one report form
    ("en", "The booking has been checked and cancelled as you asked.", "cancelled"),
    ("en", "I've looked at your account and refunded the second charge.", "refunded"),
    ("fr", "J'ai vérifié votre dossier et annulé la commande.", "cancelled"),
    # a noun of the act as the subject of the report form its support verb follows
    ("en", "Your cancellation request has been received and processed.", "cancelled"),
    ("en", "The refund has now been issued to your card.", "refunded"),
    ("de", "Ihre Erstattung wurde soeben veranlasst.", "refunded"),
    ("es", "Su reembolso ha sido procesado esta mañana.", "refunded"),
    ("fr", "Votre remboursement a été effectué ce matin.", "refunded"),
    # a result state with *now* after it
    ("en", "Your new plan is active now.", "changed"),
    ("fr", "Votre ligne est active maintenant.", "changed"),
]
NOT_REPORTED = [
    ("en", "Refunds are issued within 5-7 business days after we receive the parcel."),
    ("en", "It was moved to the Plus plan on 5 March, before you called."),
    ("en", "A team lead approved a 40 USD credit last week."),
    ("en", "Cancelling is free up to 24 hours before the start."),
    ("en", "Let's get your number moved right away."),
    ("en", "Once the carrier scans it, the 68 USD goes back to your Visa."),
    ("en", "Bookings can only be changed by the client personally."),
    ("fr", "Les options avaient été résiliées à compter du 28 février."),
    # a report form in the sentence, but not introducing the claimed verb
    ("en", "I have good news: the swap costs nothing on your plan."),
    ("en", "I have to let you know that cancellations are free up to 24 hours before."),
    ("en", "Checked: it was moved to the Plus plan on 5 March."),
    ("en", "I'm seeing that it was moved to Plus on 5 March."),
    ("en", "Noted, cancelling is free up to 24 hours before the start."),
    ("en", "Once the parcel is scanned, refunded within 5 days."),
    ("de", "Ich habe gesehen, dass der Termin am 5. März storniert wurde."),
    ("en", "Good news. It's free of charge, as it is more than 24 hours away."),
    ("de", "Gesperrt wird ein Anschluss erst nach 45 Tagen Zahlungsverzug."),
    # a coordinator, but another subject or a clause that reports nothing done
    ("en", "I have asked the clinic and they cancelled it last week."),
    ("en", "I have checked, and refunds are issued after the scan."),
    # the same nouns with no report form after them, or as a policy or request
    ("en", "Your refund will be issued once the parcel arrives."),
    ("en", "Your refund request has been received."),
    ("de", "Ihre Erstattung wird in den nächsten Tagen bearbeitet."),
    ("es", "Su reembolso puede tardar hasta cinco días."),
    ("fr", "Votre remboursement sera effectué sous cinq jours."),
    ("en", "Is the booking cancelled now?"),
    ("en", "If the order is cancelled now, the card is not charged."),
]


@pytest.mark.parametrize(("lang", "text", "claim"), REPORTED)
def test_a_completion_reported_now_is_a_claim(lang: str, text: str, claim: str) -> None:
    assert reported_claims(text, lang) == {claim}


@pytest.mark.parametrize(("lang", "text"), NOT_REPORTED)
def test_policies_history_and_others_acts_are_no_claim(lang: str, text: str) -> None:
    assert reported_claims(text, lang) == frozenset()
