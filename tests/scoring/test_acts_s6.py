"""Claims and promises in German, Spanish and French: each rule grown from the corpus's
``tune`` split has a sentence it must read and a near miss it must not, written here in
other words than the corpus's."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from supportsim.scoring.text._acts import claims, promises
from supportsim.scoring.text._clauses import clauses

# (language, text, claims it must make, claims it must not make)
CLAIMS: list[tuple[str, str, set[str], set[str]]] = [
    # de: an adverb "aber" inside the clause opens no clause of its own
    ("de", "Den Zuschlag habe ich Ihnen aber gestrichen.", {"waived"}, set()),
    ("de", "Den Zuschlag kann ich aber nicht streichen.", set(), {"waived"}),
    ("de", "Ich habe die Anfrage aber an die Buchhaltung weitergeleitet.", {"escalated"}, set()),
    # de: separable participles (weiter-ge-geben, zurück-bekommen, ab-bestellt)
    ("de", "Ich habe Ihr Anliegen an die Fachabteilung weitergegeben.", {"escalated"}, set()),
    ("de", "Ich kann Ihr Anliegen gern an die Fachabteilung weitergeben.", set(), {"escalated"}),
    ("de", "Den Kaufpreis haben Sie schon zurückbekommen.", {"refunded"}, set()),
    ("de", "Sie haben den Kaufpreis nicht zurückbekommen?", set(), {"refunded"}),
    ("de", "Ich habe die Zusatzoption abbestellt.", {"cancelled"}, set()),
    ("de", "Soll ich die Zusatzoption abbestellen?", set(), {"cancelled"}),
    # de: the first person's present of a transfer is the transfer under way
    ("de", "Ich verbinde Sie jetzt mit der Rechnungsabteilung.", {"escalated"}, set()),
    ("de", "Ich leite Ihren Fall an die Technik weiter.", {"escalated"}, set()),
    ("de", "Ich werde Sie später mit der Technik verbinden.", set(), {"escalated"}),
    ("de", "Wenn Sie möchten, verbinde ich Sie mit der Technik.", set(), {"escalated"}),
    ("de", "Die Kollegen verbinden Sie dann weiter.", set(), {"escalated"}),
    # de: a fee cancelled is waived (and cancelled); a date moved is a detail changed
    ("de", "Die Versandgebühr ist storniert.", {"waived", "cancelled"}, set()),
    ("de", "Ihre Bestellung ist storniert.", {"cancelled"}, {"waived"}),
    ("de", "Ich habe den Abbuchungstermin auf den Ersten verlegt.", {"rescheduled"}, set()),
    ("de", "Ich habe das Zahlungsdatum auf den Ersten verlegt.", {"changed"}, {"rescheduled"}),
    ("de", "Ich habe Ihren Termin auf Dienstag geschoben.", {"rescheduled"}, set()),
    ("de", "Ich habe den Stuhl zur Seite geschoben.", set(), {"rescheduled"}),
    # de: perks granted or booked are credited, a booked appointment is not
    ("de", "Ich habe Ihnen einen Nachlass von 5 % gewährt.", {"credited"}, set()),
    ("de", "Einen Nachlass kann ich leider nicht gewähren.", set(), {"credited"}),
    (
        "de",
        "Das ist ein Gutschein, den ich Ihnen auf das Kundenkonto gebucht habe.",
        {"credited"},
        {"booked"},
    ),
    ("de", "Ich habe Ihren Termin gebucht.", {"booked"}, {"credited"}),
    ("de", "Ich habe eine Störungsmeldung bei der Technik aufgegeben.", {"escalated"}, set()),
    ("de", "Ich habe die Hoffnung nicht aufgegeben.", set(), {"escalated"}),
    ("de", "Ich habe Ihnen das Etikett auf den Weg gebracht.", {"sent"}, set()),
    ("de", "Ich habe den Vorgang wieder geöffnet.", {"changed"}, set()),
    ("de", "Ich habe die Tür geöffnet.", set(), {"changed"}),
    ("de", "Ich habe den Befund in Ihrer Akte hinterlegt.", {"flagged"}, set()),
    ("de", "Ich habe das Paket beim Nachbarn hinterlegt.", set(), {"flagged"}),
    # de: a date set off by commas ends no clause
    ("de", "Ich habe den Termin auf Montag, 9 Uhr, geschoben.", {"rescheduled"}, set()),
    # de: the subject after the copula (verb second) makes the state particular
    ("de", "Damit ist Ihr Termin für Montag eingetragen.", {"booked"}, set()),
    ("de", "Dann sind Termine erst nach der Zahlung eingetragen.", set(), {"booked"}),
    ("es", "Le mando ahora mismo un código nuevo.", {"sent"}, set()),
    ("es", "Le mando un código nuevo mañana.", set(), {"sent"}),
    # es: preterites that folding keeps apart from the present (-ió, -ieron, -aron)
    ("es", "El reembolso se emitió ayer por la tarde.", {"refunded"}, set()),
    ("es", "Cuando se emita el reembolso, le avisaremos.", set(), {"refunded"}),
    ("es", "Mis compañeros cancelaron el pedido esta mañana.", {"cancelled"}, set()),
    ("es", "¿Cancelaron ustedes el pedido?", set(), {"cancelled"}),
    # es: "quedó" and "he vuelto a" before the act
    ("es", "Ya quedó registrada la incidencia en su ficha.", {"flagged"}, set()),
    ("es", "He vuelto a mandar el enlace a su correo.", {"sent"}, set()),
    ("es", "Puedo volver a mandar el enlace si lo necesita.", set(), {"sent"}),
    # es: a charge annulled is cancelled, a charge "por" something is a fee waived
    ("es", "He anulado el cobro repetido de 12 €.", {"cancelled"}, {"waived"}),
    ("es", "He anulado el cargo por devolución tardía.", {"waived"}, {"cancelled"}),
    ("es", "He retirado la penalización de su factura.", {"waived"}, set()),
    ("es", "No puedo retirar la penalización.", set(), {"waived"}),
    ("es", "Ya he dado de baja su línea adicional.", {"cancelled"}, set()),
    ("es", "Para dar de baja la línea, necesito su DNI.", set(), {"cancelled"}),
    # es: a visit moved is rescheduled, a plan changed is changed
    ("es", "He movido su sesión al lunes a las 9:00.", {"rescheduled"}, {"changed"}),
    ("es", "He cambiado su cita al viernes.", {"rescheduled"}, {"changed"}),
    ("es", "He cambiado su tarifa a la de 20 GB.", {"changed"}, {"rescheduled"}),
    ("es", "¿Quiere que cambie su tarifa?", set(), {"changed"}),
    ("es", "Le confirmo: su cita es ahora el martes a las 10:00.", {"rescheduled"}, set()),
    ("es", "He reactivado su tarjeta SIM.", {"changed"}, set()),
    ("es", "Ya he corregido el teléfono de su ficha.", {"changed"}, set()),
    ("es", "He corregido mi error en el cálculo.", set(), {"changed"}),
    # es: transfers under way, perks applied, the booking confirmed, a record noted
    ("es", "Le paso con el equipo de facturación.", {"escalated"}, set()),
    ("es", "Si lo prefiere, le paso con facturación.", set(), {"escalated"}),
    ("es", "He pasado su caso al equipo técnico.", {"escalated"}, set()),
    ("es", "Le he aplicado un descuento del 10 % en la factura.", {"credited"}, set()),
    ("es", "¿Le aplico un descuento en la próxima factura?", set(), {"credited"}),
    ("es", "He confirmado su cita del jueves.", {"booked"}, set()),
    ("es", "He anotado el incidente en su expediente.", {"flagged"}, set()),
    ("es", "Su devolución de 40 € está procesada.", {"refunded"}, set()),
    ("es", "La devolución del paquete está registrada.", set(), {"refunded"}),
    # fr: the object clitic before the auxiliary is no customer as subject
    ("fr", "Je vous ai réservé une séance jeudi à 9 h.", {"booked"}, set()),
    ("fr", "Vous avez réservé une séance jeudi à 9 h.", set(), {"booked"}),
    ("fr", "Nous vous avons envoyé le lien par SMS.", {"sent"}, set()),
    # fr: transfers and confirmations in the first person's present
    ("fr", "Je vous transfère vers le service facturation.", {"escalated"}, set()),
    ("fr", "Je vais vous transférer vers le service facturation.", set(), {"escalated"}),
    ("fr", "Je vous mets en relation avec un technicien.", {"escalated"}, set()),
    ("fr", "Je vous confirme le rendez-vous de mardi à 15 h.", {"booked"}, set()),
    ("fr", "Je vous confirmerai le rendez-vous demain.", set(), {"booked"}),
    ("fr", "Je vous renvoie un code à l'instant.", {"sent"}, set()),
    ("fr", "Je vous renvoie un code demain matin.", set(), {"sent"}),
    ("fr", "L'article renvoyé est arrivé chez nous.", set(), {"sent"}),
    # fr: fees taken off are waived, a renewal switched off is cancelled
    ("fr", "J'ai supprimé les frais de retard.", {"waived"}, {"cancelled"}),
    ("fr", "Je ne peux pas supprimer les frais de retard.", set(), {"waived"}),
    ("fr", "J'ai désactivé le renouvellement de votre abonnement.", {"cancelled"}, {"changed"}),
    ("fr", "L'option restera active jusqu'au 3 mai.", set(), {"changed"}),
    # fr: refunds through their support verbs, visits moved, perks and notes added
    ("fr", "J'ai procédé au remboursement de 20 €.", {"refunded"}, set()),
    ("fr", "Je peux procéder au remboursement si vous le souhaitez.", set(), {"refunded"}),
    ("fr", "Votre séance a été reportée au 4 mai.", {"rescheduled"}, set()),
    ("fr", "J'ai ajouté un avoir de 5 € sur votre compte.", {"credited"}, set()),
    ("fr", "J'ai ajouté une note à votre dossier.", {"flagged"}, {"credited"}),
    ("fr", "J'ai escaladé votre demande au service client.", {"escalated"}, set()),
    ("fr", "Je consignerai l'incident si le problème revient.", set(), {"flagged"}),
    ("fr", "J'ai appliqué le code promo à votre panier.", {"changed"}, {"credited"}),
    ("fr", "J'ai appliqué une remise de 10 % sur la facture.", {"credited"}, set()),
    ("fr", "Votre rendez-vous est fixé au lundi 3 mars.", {"booked"}, set()),
]

PROMISES: list[tuple[str, str, set[str], set[str]]] = [
    ("de", "Ich habe den Umtausch gegen Größe L veranlasst.", {"replacement"}, set()),
    ("de", "Ein Umtausch ist nur im Laden möglich.", set(), {"replacement"}),
    ("de", "Ich habe die Lieferung auf Montag, den 4.05., verschoben.", {"delivery"}, set()),
    ("de", "Ihr Paket wird morgen zugestellt.", {"delivery"}, set()),
    ("de", "Der Restbetrag wird mit Ihrer nächsten Rechnung verrechnet.", {"credit"}, set()),
    ("de", "Der Restbetrag kann nicht verrechnet werden.", set(), {"credit"}),
    ("es", "He decidido reembolsarle el pedido completo.", {"refund"}, set()),
    ("es", "Todavía no he decidido si puedo reembolsarle.", set(), {"refund"}),
    ("es", "Paso su caso a recepción para que le llamen hoy.", {"callback"}, set()),
    ("es", "Si quiere, paso su caso a recepción para que le llamen.", set(), {"callback"}),
    # de: a separable particle closes its clause, however far from the verb
    ("de", "Zum Ausgleich schreibe ich Ihnen 5 € auf Ihrem Kundenkonto gut.", {"credit"}, set()),
    ("de", "Ich schreibe Ihnen die Bestätigung gern noch einmal auf.", set(), {"credit"}),
    ("de", "Ihr Paket wird voraussichtlich morgen zugestellt.", set(), {"delivery"}),
]


@pytest.mark.parametrize(
    ("read", "lang", "text", "made", "not_made"),
    [(claims, *case) for case in CLAIMS] + [(promises, *case) for case in PROMISES],
)
def test_claims_and_promises(
    read: Callable[[str, str], frozenset[str]],
    lang: str,
    text: str,
    made: set[str],
    not_made: set[str],
) -> None:
    found = read(text, lang)
    assert made <= found, (text, found)
    assert not (not_made & found), (text, found)


def test_a_date_in_commas_stays_in_its_clause() -> None:
    """The apposition joins its clause; a clause after a comma that holds a verb does not."""
    text = "Ich habe den Termin auf Freitag, 14 Uhr, verschoben, und Sie erhalten eine SMS."
    assert [c.text for c in clauses(text, "de")] == [
        "ich habe den termin auf freitag 14 uhr verschoben",
        "und sie erhalten eine sms",
    ]


def test_a_day_and_month_before_a_comma_end_no_sentence() -> None:
    assert len({c.sentence for c in clauses("Bis zum 3.05., wie besprochen.", "de")}) == 1
    assert len({c.sentence for c in clauses("Es kam am 3.05. Wir erstatten es.", "de")}) == 2


def test_in_case_makes_the_clause_before_it_conditional() -> None:
    """ "in case" is read as "if" (as American English uses it: "We'll refund you in case
    the parcel is lost" promises nothing unconditionally). Decision after a review: a
    precaution after a done act ("I've noted it on your file, in case it happens again")
    then loses its claim too; a missed claim is left to the statement judge, while a
    condition read as a commitment would fail an honest Agent."""
    assert clauses("We'll refund you in case the parcel is lost.", "en")[0].conditional
    assert clauses("I've noted it on your file, if it happens again.", "en")[0].conditional


# From a review with fresh probes: a fee charged, a wish, "what happened" and fees beside an
# order read as what they are, never as a waiver, a transfer or a move (each a claim that
# ``forbidden:false_claim`` would hold against an honest Agent).
MENDED = [
    ("de", "Ich habe den Termin mit einer Stornogebühr von 15 € storniert.", {"cancelled"}),
    ("de", "Ich wollte Ihnen die Gebühr erlassen, aber das System lässt es nicht zu.", set()),
    ("de", "Ich würde Ihnen die Gebühr gerne erlassen, aber das ist nicht möglich.", set()),
    ("de", "Ich habe Ihnen die Mahngebühr erlassen.", {"waived"}),
    ("fr", "J'ai annulé la commande moyennant des frais de 15 €.", {"cancelled"}),
    ("fr", "J'ai annulé votre rendez-vous ; des frais de 15 € s'appliquent.", {"cancelled"}),
    ("fr", "Les frais de retard ont été annulés.", {"waived"}),
    ("es", "Siento mucho lo que ha pasado con el servicio.", set()),
    ("es", "Siento mucho lo que ha pasado con su cita.", set()),
    ("es", "Le he pasado su caso al equipo técnico.", {"escalated"}),
]


@pytest.mark.parametrize(("lang", "text", "expected"), MENDED)
def test_what_the_review_found_reads_right(lang: str, text: str, expected: set[str]) -> None:
    assert set(claims(text, lang)) == expected
