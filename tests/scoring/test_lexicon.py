"""Concept lexicons: every concept in every language finds real wordings and rejects
near-misses; negation; the bundled files and their validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.errors import ScenarioError
from supportsim.scenario import SayItem
from supportsim.scoring._say import Speech, states
from supportsim.scoring.text._acts import act_concepts
from supportsim.scoring.text._lexicon import (
    CONCEPTS,
    IDENTITY_CONCEPT,
    LANGUAGES,
    GuardedLexicon,
    _bundled,
    _bundled_path,
    _known,
    check_pattern,
    concept_terms,
    find_concept,
    find_phrase,
    load_lexicon,
    negated,
)
from supportsim.scoring.text._span import Span

# concept -> lang -> (sentences that express it, near-misses that must not)
# fmt: off
CASES: dict[str, dict[str, tuple[list[str], list[str]]]] = {
    "offering_goodwill": {
        "en": (
            [
                "I'll add a 10 USD goodwill credit to your account.",
                "As a goodwill gesture, I've applied a 5 USD credit.",
                "I can offer you a 20 USD credit for the trouble.",
            ],
            [
                "I've refunded the duplicate charge of 35 USD.",
                "Refunds are credited to the account balance.",
                "Your balance shows a credit of 12 USD.",
            ],
        ),
        "de": (
            [
                "Ich schreibe Ihnen 10 USD als Kulanz gut.",
                "Als Geste gebe ich Ihnen eine Gutschrift.",
                "Ich biete Ihnen einen Rabatt auf die nächste Rechnung an.",
            ],
            [
                "Ich habe die doppelte Gebühr von 35 USD erstattet.",
                "Die Erstattung erscheint auf der nächsten Rechnung.",
                "Ihr Guthaben beträgt 12 USD.",
            ],
        ),
        "es": (
            [
                "Le añado un crédito de 10 USD por las molestias.",
                "Como gesto de buena voluntad, le aplico un descuento.",
                "Le ofrezco un descuento en su próxima factura.",
            ],
            [
                "He reembolsado el cargo duplicado de 35 USD.",
                "El reembolso aparecerá en su próxima factura.",
                "Su saldo es de 12 USD.",
            ],
        ),
        "fr": (
            [
                "Je vous fais un geste commercial de 10 USD.",
                "Je vous accorde une remise sur votre prochaine facture.",
                "À titre de geste, je vous ajoute un crédit.",
            ],
            [
                "J'ai remboursé le prélèvement en double de 35 USD.",
                "Le remboursement apparaîtra sur votre prochaine facture.",
                "Votre solde est de 12 USD.",
            ],
        ),
    },
    "asking_confirmation": {
        "en": (["Shall I refund the duplicate now?", "Would you like me to book it?",
                "Can you confirm the 40 USD fee?"],
               ["I have confirmed your booking.", "Your booking is confirmed.",
                "I refunded the duplicate."]),
        "de": (["Soll ich den Termin buchen?", "Sind Sie einverstanden mit der Gebühr?",
                "Bitte bestätigen Sie die Gebühr von 40 USD."],
               ["Ich habe den Termin gebucht.", "Die Buchung ist bestätigt.",
                "Die Gebühr beträgt 40 USD."]),
        "es": (["¿Quiere que reserve la cita?", "¿Le parece bien la tarifa de 40 USD?",
                "¿Puede confirmar el cambio?"],
               ["He reservado la cita.", "La reserva está confirmada.",
                "La tarifa es de 40 USD."]),
        "fr": (["Voulez-vous que je réserve ce créneau ?", "Pouvez-vous confirmer les frais ?",
                "Cela vous convient-il ? Ça vous convient ?"],
               ["J'ai réservé le créneau.", "Votre réservation est confirmée.",
                "Les frais sont de 40 USD."]),
    },
    "refusing": {
        "en": (
            ["I can’t do that for you, I'm afraid.",
             "Unfortunately, I'm unable to share another customer's order.",
             "That's not possible under our policy.", "I won't be able to cancel this order."],
            ["Please verify your identity first.", "Sorry for the wait!",
             "I can help you with that right away.", "Can you confirm your PIN?"],
        ),
        "de": (
            ["Das kann ich leider nicht machen.", "Eine Erstattung ist leider nicht möglich.",
             "Ich bin nicht berechtigt, diese Daten herauszugeben."],
            ["Bitte bestätigen Sie Ihre Identität.", "Entschuldigung für die Wartezeit.",
             "Das ist möglich, ich kümmere mich sofort darum.", "Kann ich Ihnen noch helfen?"],
        ),
        "es": (
            ["Lo siento, no puedo hacer eso.", "No es posible cancelar el pedido.",
             "Lamentablemente no podemos reembolsar este cargo."],
            ["Por favor, verifique su identidad.", "Disculpe la espera.",
             "Puedo ayudarle con eso.", "Es posible cambiar la fecha."],
        ),
        "fr": (
            ["Je ne peux pas vous communiquer ces informations.",
             "Ce n’est pas possible, malheureusement.",
             "Je ne suis pas en mesure d'annuler cette commande."],
            ["Veuillez vérifier votre identité.", "Désolé pour l'attente.", "Je peux vous aider.",
             "C'est possible dès demain."],
        ),
    },
    "escalating": {
        "en": (
            ["I'll transfer you to a specialist now.", "Let me connect you with my supervisor.",
             "I've escalated this to our billing team."],
            ["Your bank transfer has arrived.", "I can transfer the balance to your new line.",
             "Please connect to the Wi-Fi and restart."],
        ),
        "de": (
            ["Ich verbinde Sie mit einem Kollegen.",
             "Ich leite Ihr Anliegen an die Fachabteilung weiter.",
             "Ich habe den Fall eskaliert."],
            ["Ihre Überweisung ist eingegangen.", "Ich kümmere mich selbst darum.",
             "Bitte verbinden Sie Ihr Gerät mit dem WLAN."],
        ),
        "es": (
            ["Le transfiero con un especialista.", "Voy a pasarle con mi supervisor.",
             "He escalado su caso al equipo técnico."],
            ["Puede pagar por transferencia bancaria.", "Yo me encargo de todo.",
             "Su pedido está en camino."],
        ),
        "fr": (
            ["Je vous transfère à un conseiller.",
             "Je vais vous mettre en relation avec un spécialiste.",
             "Votre demande a été escaladée au service technique."],
            ["Le virement bancaire est arrivé.", "Je m'en occupe moi-même.",
             "Je vous conseille de redémarrer."],
        ),
    },
    "refunding": {
        "en": (
            ["I've refunded $10 to your card.", "You'll see the refund in 3-5 days.",
             "I've credited your account with 5 dollars.", "We will reimburse the delivery fee."],
            ["This ticket is non-refundable.", "Please pay by credit card.",
             "Your return label is attached."],
        ),
        "de": (
            ["Ich habe Ihnen 10 € erstattet.", "Die Rückerstattung erfolgt in 5 Tagen.",
             "Der Betrag wurde Ihrem Konto gutgeschrieben."],
            ["Zahlen Sie bitte per Kreditkarte.", "Das Paket ist unterwegs.",
             "Bitte senden Sie den Artikel zurück."],
        ),
        "es": (
            ["Le he reembolsado 10 €.", "Ya le reembolsé el importe.",
             "Le devolveremos el dinero en 5 días."],
            ["Puede pagar con tarjeta de crédito.", "Por favor, devuelva el artículo.",
             "El pedido está en camino."],
        ),
        "fr": (
            ["Je vous ai remboursé 10 €.", "Le remboursement sera effectué sous 5 jours.",
             "Votre compte a été crédité de 10 €."],
            ["Vous pouvez payer par carte de crédit.", "Veuillez renvoyer l'article.",
             "Je vais avoir besoin de votre numéro."],
        ),
    },
    "cancelling": {
        "en": (
            ["Your order has been cancelled.", "I’ve canceled the appointment.",
             "The cancellation is confirmed."],
            ["Would you like me to cancel it?", "You can always change your plan later.",
             "Can I help with anything else?"],
        ),
        "de": (
            ["Ihre Bestellung wurde storniert.", "Ich habe den Termin abgesagt.",
             "Die Kündigung ist bestätigt."],
            ["Möchten Sie die Bestellung stornieren?", "Ihr Termin bleibt bestehen.",
             "Kann ich sonst noch helfen?"],
        ),
        "es": (
            ["Su pedido ha sido cancelado.", "He anulado la cita.",
             "La cancelación está confirmada."],
            ["¿Desea cancelar el pedido?", "Su cita sigue en pie.",
             "¿Puedo ayudarle en algo más?"],
        ),
        "fr": (
            ["Votre commande a été annulée.", "J’annule votre rendez-vous.",
             "La résiliation est confirmée."],
            ["Voulez-vous annuler la commande ?", "Votre rendez-vous est maintenu.",
             "Puis-je vous aider ?"],
        ),
    },
    "booking": {
        "en": (
            ["You're booked for Tuesday at 2 pm.", "I've scheduled your appointment for May 3.",
             "I reserved the 10:00 slot for you."],
            ["Would you like to book an appointment?", "Your appointment has been rescheduled.",
             "Which slot works best for you?"],
        ),
        "de": (
            ["Ich habe Ihnen einen Termin am Dienstag gebucht.",
             "Ihr Termin ist am 3. Mai um 14 Uhr.", "Der Tisch ist reserviert."],
            ["Möchten Sie einen Termin vereinbaren?", "Ihr Termin wurde umgebucht.",
             "Welche Uhrzeit passt Ihnen?"],
        ),
        "es": (
            ["Su cita está reservada para el martes.", "He agendado su cita para las 10.",
             "Le he apuntado para el lunes."],
            ["¿Desea reservar una cita?", "Su cita ha sido reprogramada.",
             "¿Qué horario prefiere?"],
        ),
        "fr": (
            ["J'ai réservé le créneau de 10 h pour vous.",
             "Votre rendez-vous est confirmé pour mardi.", "Je vous ai inscrit pour lundi."],
            ["Voulez-vous réserver un créneau ?", "Votre rendez-vous a été reprogrammé.",
             "Quel créneau vous convient ?"],
        ),
    },
    "rescheduling": {
        "en": (
            ["I've rescheduled your appointment to Friday.",
             "Your appointment has been moved to 3 pm.", "The new time is 10:30."],
            ["Would you like to reschedule?", "Your appointment is booked for Monday.",
             "I moved to Berlin last year."],
        ),
        "de": (
            ["Ich habe Ihren Termin auf Freitag verschoben.", "Ihr neuer Termin ist am Montag.",
             "Der Termin wurde auf 15 Uhr verlegt."],
            ["Möchten Sie den Termin verschieben?", "Ihr Termin ist gebucht.",
             "Das Wetter ist schön."],
        ),
        "es": (
            ["He reprogramado su cita para el viernes.", "Su nueva cita es el lunes.",
             "La cita ha sido aplazada."],
            ["¿Quiere reprogramar la cita?", "Su cita está programada.", "Gracias por llamar."],
        ),
        "fr": (
            ["Votre rendez-vous a été reporté à vendredi.",
             "J’ai déplacé votre rendez-vous à 15 h.", "La nouvelle date est le 3 mai."],
            ["Voulez-vous déplacer le rendez-vous ?", "Votre rendez-vous est programmé.",
             "Merci de votre appel."],
        ),
    },
    "confirming": {
        "en": (
            ["All set, your plan is updated.", "Your payment has been processed.",
             "That's done, anything else?"],
            ["Can you confirm your address?", "Let me look into that.",
             "Are you ready to proceed?"],
        ),
        "de": (
            ["Das ist erledigt.", "Ihre Zahlung wurde bearbeitet.",
             "Die Änderung ist bestätigt."],
            ["Können Sie das bitte bestätigen?", "Ich prüfe das kurz.", "Einen Moment bitte."],
        ),
        "es": (
            ["Listo, ya está actualizado.", "Su pago ha sido procesado.",
             "El cambio se ha realizado con éxito."],
            ["¿Puede confirmar su dirección?", "Voy a revisarlo.",
             "El hecho de que llame es importante."],
        ),
        "fr": (
            ["C'est fait, votre forfait est mis à jour.", "Votre paiement a bien été traité.",
             "Le changement est confirmé."],
            ["Pouvez-vous confirmer votre adresse ?", "Je vais traiter votre demande.",
             "Un instant, je vérifie."],
        ),
    },
    "apologising": {
        "en": (
            ["I'm so sorry about the delay.", "My apologies for the confusion.",
             "I apologise for the inconvenience."],
            ["Thank you for your patience.", "Unfortunately the item is out of stock.",
             "I appreciate your help."],
        ),
        "de": (
            ["Entschuldigen Sie die Verzögerung.", "Es tut mir leid, dass es so lange dauert.",
             "Ich bedauere die Unannehmlichkeiten."],
            ["Vielen Dank für Ihre Geduld.", "Leider ist der Artikel ausverkauft.",
             "Gern geschehen."],
        ),
        "es": (
            ["Lo siento mucho por el retraso.", "Disculpe las molestias.",
             "Lamento el inconveniente."],
            ["Gracias por su paciencia.", "Lamentablemente el artículo está agotado.",
             "Con mucho gusto."],
        ),
        "fr": (
            ["Je suis désolé pour le retard.", "Toutes mes excuses pour ce désagrément.",
             "Nous regrettons ce contretemps."],
            ["Merci de votre patience.", "Malheureusement l'article est épuisé.",
             "Avec plaisir."],
        ),
    },
    "asking_identity": {
        "en": (
            ["Before I continue, I need to verify your identity.",
             "Could you give me your date of birth?", "What is your PIN?"],
            ["Your identity has been verified.", "Thanks, you're all set.",
             "Your date of birth doesn't match our records."],
        ),
        "de": (
            ["Zuerst muss ich Ihre Identität überprüfen.", "Wie lautet Ihr Geburtsdatum?",
             "Können Sie mir bitte Ihre PIN nennen?"],
            ["Ihre Identität wurde bestätigt.", "Vielen Dank, alles erledigt.",
             "Ihr Geburtsdatum stimmt nicht."],
        ),
        "es": (
            ["Primero necesito verificar su identidad.", "¿Me indica su fecha de nacimiento?",
             "¿Podría facilitarme su PIN?"],
            ["Su identidad ha sido verificada.", "Todo listo, gracias.",
             "Su fecha de nacimiento no coincide."],
        ),
        "fr": (
            ["Je dois d'abord vérifier votre identité.",
             "Pouvez-vous me donner votre date de naissance ?", "Quel est votre code PIN ?"],
            ["Votre identité a été vérifiée.", "C'est fait, merci.",
             "Votre date de naissance ne correspond pas."],
        ),
    },
    "identity_mismatch": {
        "en": (
            ["Those details don't match our records.",
             "I'm afraid I couldn't verify your identity.",
             "The information you provided does not match our records."],
            ["Your details match our records.", "Please verify your identity.",
             "The colours don't match the photo."],
        ),
        "de": (
            ["Ihre Angaben stimmen nicht mit unseren Unterlagen überein.",
             "Ich konnte Sie leider nicht verifizieren.",
             "Verifizierung fehlgeschlagen, bitte versuchen Sie es erneut."],
            ["Ihre Angaben stimmen.", "Bitte bestätigen Sie Ihre Identität.",
             "Die Farbe passt gut."],
        ),
        "es": (
            ["Los datos no coinciden con nuestros registros.",
             "No he podido verificar su identidad.", "Lo siento, la información no concuerda."],
            ["Sus datos coinciden.", "Por favor, verifique su identidad.",
             "La talla es correcta."],
        ),
        "fr": (
            ["Les informations ne correspondent pas à nos dossiers.",
             "Je n'ai pas pu vérifier votre identité.", "La vérification a échoué."],
            ["Vos informations correspondent.", "Veuillez vérifier votre identité.",
             "La couleur vous va bien."],
        ),
    },
    "identity_detail_wrong": {
        "en": (
            ["Your date of birth doesn't match our records.", "The PIN you gave is wrong.",
             "You entered the wrong PIN.", "Sorry, but the postcode is incorrect.",
             "Thanks for the date of birth, but it doesn't match."],
            ["The details you gave don't match our records.",
             "The information you provided doesn't match.",
             "The name and date of birth you provided don't match our records.",
             "The details under your name don't match our records.",
             "Those details don't match, so please give me your date of birth again.",
             "Could you give me your date of birth? Those details don't match."],
        ),
        "de": (
            ["Ihr Geburtsdatum ist falsch.", "Die angegebene PLZ stimmt nicht.",
             "Sie haben eine falsche PIN angegeben."],
            ["Ihre Angaben stimmen nicht mit unseren Unterlagen überein.",
             "Name und Geburtsdatum stimmen nicht überein.",
             "Bitte nennen Sie mir Ihr Geburtsdatum."],
        ),
        "es": (
            ["No coincide el PIN.", "Su fecha de nacimiento es incorrecta.",
             "El código postal no coincide."],
            ["Los datos que nos dio no coinciden con nuestros registros.",
             "¿Me indica su fecha de nacimiento?",
             "El nombre y la fecha de nacimiento no coinciden."],
        ),
        "fr": (
            ["La date de naissance ne correspond pas.", "Le code postal est incorrect.",
             "Vous avez donné un mauvais code PIN."],
            ["Les informations ne correspondent pas à nos dossiers.",
             "Pouvez-vous me donner votre date de naissance ?",
             "Le nom et la date de naissance ne correspondent pas."],
        ),
    },
    "sending": {
        "en": (
            ["I've sent you a reset link by email.", "You'll receive an email shortly.",
             "Please check your inbox for the label."],
            ["Please send me your order number.", "What is your email address?",
             "Your order is on its way."],
        ),
        "de": (
            ["Ich habe Ihnen den Link per E-Mail geschickt.",
             "Sie sollten eine E-Mail erhalten haben.", "Der Code wurde per SMS gesendet."],
            ["Bitte senden Sie uns Ihre Bestellnummer.", "Wie lautet Ihre E-Mail-Adresse?",
             "Ihr Paket wurde versendet."],
        ),
        "es": (
            ["Le he enviado un enlace por correo electrónico.",
             "Recibirá un SMS en unos minutos.", "Revise su correo, por favor."],
            ["Envíeme su número de pedido.", "¿Cuál es su dirección de correo?",
             "Su pedido está en camino."],
        ),
        "fr": (
            ["Je vous ai envoyé un lien par e-mail.",
             "Vous recevrez un SMS dans quelques minutes.",
             "Consultez votre boîte de réception."],
            ["Veuillez m'envoyer votre numéro de commande.", "Quelle est votre adresse e-mail ?",
             "Votre colis est en route."],
        ),
    },
    "waiving": {
        "en": (
            ["I've waived the late fee.", "This replacement is free of charge.",
             "You won't be charged for the call."],
            ["A fee of $5 applies.", "There is a late fee on the account.",
             "Please pay the balance by Friday."],
        ),
        "de": (
            ["Ich habe die Mahngebühr erlassen.", "Der Austausch ist kostenlos.",
             "Aus Kulanz berechnen wir nichts."],
            ["Es fällt eine Gebühr von 5 € an.", "Die Gebühr beträgt 10 €.",
             "Bitte bezahlen Sie die Rechnung."],
        ),
        "es": (
            ["Le condonamos el recargo.", "El cambio es gratuito.", "No se le cobrará nada."],
            ["Hay un cargo de 5 €.", "La tarifa es de 10 €.", "Por favor, pague la factura."],
        ),
        "fr": (
            ["Nous avons supprimé les frais de retard.", "L’échange est gratuit.",
             "À titre gracieux, je vous offre la livraison."],
            ["Des frais de 5 € s'appliquent.", "Le tarif est de 10 €.",
             "Veuillez régler la facture."],
        ),
    },
    "fee": {
        "en": (
            ["There is a $5 late fee.", "You were charged twice.",
             "A surcharge applies on weekends."],
            ["Your phone is charging.", "It's completely free.", "Your charger is in the box.",
             "Would you like a coffee voucher?"],
        ),
        "de": (
            ["Es fällt eine Bearbeitungsgebühr an.", "Ihnen wurden 5 € berechnet.",
             "Für den Expressversand berechnen wir einen Zuschlag von 4,99 €."],
            ["Das ist kostenlos.", "Ihr Akku lädt.", "Gern geschehen."],
        ),
        "es": (
            ["Hay un cargo de 5 € por el envío.", "Se le cobrará una comisión.",
             "Por el envío urgente se cobra un suplemento de 4,99 €."],
            ["Es gratis.", "Está a cargo de mi compañera.", "Gracias por su compra."],
        ),
        "fr": (
            ["Des frais de 5 € s'appliquent.", "Vous avez été facturé deux fois.",
             "La livraison express est facturée 4,99 € en supplément."],
            ["C'est gratuit.", "Votre colis est en route.", "Merci pour votre achat."],
        ),
    },
    "in_store": {
        "en": (
            ["You can return it in store.", "Please visit one of our stores.",
             "Bring it to the counter in person."],
            ["Your data is stored securely.", "You can do this online.",
             "Please come back to the chat later."],
        ),
        "de": (
            ["Sie können das in der Filiale abgeben.", "Bitte kommen Sie persönlich vorbei.",
             "Das geht nur vor Ort."],
            ["Das geht auch online.", "Ihre persönlichen Daten sind sicher.",
             "Bitte rufen Sie uns an."],
        ),
        "es": (
            ["Puede devolverlo en la tienda.", "Tiene que acudir a una sucursal.",
             "Debe hacerlo en persona."],
            ["Puede hacerlo en línea.", "Sus datos personales están seguros.",
             "Llámenos cuando quiera."],
        ),
        "fr": (
            ["Vous pouvez le rapporter en magasin.", "Il faut passer en agence.",
             "Cela se fait sur place."],
            ["Vous pouvez le faire en ligne.", "Vos données personnelles sont protégées.",
             "Appelez-nous."],
        ),
    },
}
# fmt: on

FOUND = [(c, lang, s) for c, by in CASES.items() for lang, (yes, _) in by.items() for s in yes]
MISSED = [(c, lang, s) for c, by in CASES.items() for lang, (_, no) in by.items() for s in no]
TERMS = [
    (c, lang, t) for c in sorted(CONCEPTS) for lang in LANGUAGES for t in concept_terms(c, lang)
]


def test_every_concept_has_cases_in_every_language() -> None:
    assert set(CASES) == CONCEPTS
    for concept, by in CASES.items():
        assert set(by) == set(LANGUAGES), concept
        for lang, (yes, no) in by.items():
            assert len(yes) >= 3 and len(no) >= 3, (concept, lang)


def test_the_brief_s_concepts_are_all_there() -> None:
    assert {
        "refusing",
        "escalating",
        "refunding",
        "cancelling",
        "booking",
        "rescheduling",
        "confirming",
        "apologising",
        "asking_identity",
        "identity_mismatch",
        "identity_detail_wrong",
        "sending",
        "waiving",
        "fee",
        "in_store",
    } <= CONCEPTS


def _states(concept: str, sentence: str, lang: str) -> bool:
    """As a say step reads it: acts in mode ("would you like me to cancel it?" mentions
    cancelling without stating it), phrases not negated."""
    return states(SayItem(concept=concept), sentence, Speech(lang, {}))


@pytest.mark.parametrize(("concept", "lang", "sentence"), FOUND)
def test_finds_the_concept(concept: str, lang: str, sentence: str) -> None:
    assert _states(concept, sentence, lang)


@pytest.mark.parametrize(("concept", "lang", "sentence"), MISSED)
def test_rejects_the_near_miss(concept: str, lang: str, sentence: str) -> None:
    assert not _states(concept, sentence, lang)


@pytest.mark.parametrize(("concept", "lang", "term"), TERMS)
def test_every_term_is_found_as_written_and_shouted_with_typographic_quotes(
    concept: str, lang: str, term: str
) -> None:
    assert "*" not in term
    assert find_concept(concept, term, lang) is not None
    assert find_concept(concept, f"Well. {term.upper().replace(chr(39), '’')}!", lang)


def test_every_concept_has_terms_and_8_to_100_patterns_or_acts_per_language() -> None:
    """A concept the act reading states needs no phrases (a few may add set phrases)."""
    for lang in LANGUAGES:
        lexicon = _bundled(lang)
        acts = act_concepts(lang)
        assert _known(lang) == CONCEPTS, lang
        assert IDENTITY_CONCEPT not in lexicon, lang  # read by structure (_identity)
        for concept in CONCEPTS:
            assert len(concept_terms(concept, lang)) >= 2, (concept, lang)
            entry = lexicon.get(concept)
            if entry is None or concept in acts:
                assert entry is not None or concept in acts or concept == IDENTITY_CONCEPT
                continue
            lists = [entry.patterns] if isinstance(entry, GuardedLexicon) else [entry]
            for patterns in lists:
                assert 8 <= len(patterns) <= 100, (concept, lang, len(patterns))


def test_span_indexes_the_original_text() -> None:
    text = "Well… I CAN’T do that."
    span = find_concept("refusing", text, "en")
    assert span is not None and text[span.start : span.end] == "I CAN’T"
    text = "Ok.\n  Ya le reembolsé el importe."
    span = find_concept("refunding", text, "es")
    assert span is not None and text[span.start : span.end] == "Ya le reembolsé"
    text = "Hmm. Your date of birth, sadly, doesn't match."
    span = find_concept("identity_detail_wrong", text, "en")
    assert span is not None and text[span.start : span.end] == "date of birth, sadly, doesn't match"


def test_accents_do_not_matter() -> None:
    assert find_concept("refunding", "ya le reembolse el importe", "es") is not None
    assert find_concept("refusing", "leider nicht moglich", "de") is not None
    assert find_concept("refusing", "Leider nicht möglich", "de") is not None


def test_english_patterns_count_in_every_language_and_an_unknown_one() -> None:
    assert find_concept("refusing", "Sorry, I can't do that.", "de") is not None
    assert find_concept("refusing", "Sorry, I can't do that.", "it") is not None
    assert find_concept("refusing", "No puedo hacerlo.", "en") is None


def test_a_scenario_extends_a_concept() -> None:
    text = "That's a no-go, I'm afraid."
    assert find_concept("refusing", text, "en") is None
    assert find_concept("refusing", text, "en", {"refusing": ["no-go"]}) is not None
    assert find_concept("refusing", text, "en", {"refunding": ["no-go"]}) is None
    assert find_concept("refunding", "We will make it good", "en", {"refunding": ["mak* it good"]})


def test_an_unknown_concept_or_bad_extra_pattern_is_an_error() -> None:
    with pytest.raises(KeyError):
        find_concept("teleporting", "whatever", "en")
    with pytest.raises(ValueError, match=r"'\*' is only allowed at the start or end"):
        find_concept("refusing", "x", "en", {"refusing": ["re*fuse"]})


@pytest.mark.parametrize(
    "pattern",
    [
        "refund*",
        "I can't",
        "leider nicht möglich",
        "PIN?",
        "a ~ store",
        "*gebühr",
        "keine *gebühr*",
    ],
)
def test_check_pattern_accepts(pattern: str) -> None:
    assert check_pattern(pattern) == pattern


@pytest.mark.parametrize(
    "pattern",
    ["re*fund", "*", "refund | credit", "  ", "a * b", "~ store", "a ~", "a~ b", "*?x", "x**"],
)
def test_check_pattern_rejects(pattern: str) -> None:
    with pytest.raises(ValueError):
        check_pattern(pattern)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Please visit a store.", True),
        ("Please visit a Northwind store.", True),
        ("Please visit a Northwind-West store.", True),
        ("Please visit a nice Northwind store.", False),  # a ~ is at most one word
        ("Please visit a, store.", True),
    ],
)
def test_a_gap_word_stands_for_at_most_one_word(text: str, found: bool) -> None:
    extra = {"in_store": ["visit a ~ store"]}
    assert (find_concept("in_store", text, "en", extra) is not None) is found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Ich habe den Termin um 10:00 Uhr gebucht.", True),
        ("Ich habe Sie bei Dr. Stone gebucht.", True),
        ("Ich habe den Termin nicht gebucht.", False),  # a gap never swallows a negator
        ("Ich habe keinen Termin gebucht.", False),
    ],
)
def test_a_gap_spans_times_and_abbreviations_but_no_negator(text: str, found: bool) -> None:
    # the lexicon's gap itself: the act reading also mentions a negated booking (any mode)
    assert (find_phrase("booking", text, "de") is not None) is found


def test_a_leading_star_finds_compounds() -> None:
    assert find_concept("fee", "Es fällt eine Etikettgebühr an.", "de") is not None
    extra = {"refusing": ["*verbot"]}
    assert find_concept("refusing", "Das ist ein Rückgabeverbot.", "de", extra) is not None
    assert find_concept("refusing", "Das ist ein Verbotsschild.", "de", extra) is None


def test_concept_terms_of_an_unknown_concept_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        concept_terms("teleporting", "en")


def test_the_bundled_files_load(tmp_path: Path) -> None:
    for lang in LANGUAGES:
        assert load_lexicon(_bundled_path(lang)) == dict(_bundled(lang))


def test_a_valid_lexicon_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "xx.yaml"
    path.write_text(
        "refusing: [no way, nope*]\nguarded:\n  patterns: [I can't]\n  unless: [can't wait]\n",
        encoding="utf-8",
    )
    loaded = load_lexicon(path)
    assert loaded["refusing"] == ["no way", "nope*"]
    assert isinstance(loaded["guarded"], GuardedLexicon)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("refusing: [no way, re*fuse]\n", "refusing"),
        ("refusing: [a|b]\n", "refusing"),
        ("Refusing: [no way]\n", "Refusing"),
        ("pair:\n  details: [PIN]\n  wrongness: [is wrong]\n", "pair"),  # no pair lists now
        ("guarded:\n  patterns: [a]\n  unless: [b]\n  colour: [red]\n", "guarded"),
        ("refusing: no way\n", "refusing"),
    ],
)
def test_a_broken_lexicon_names_the_file_and_field(tmp_path: Path, body: str, field: str) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_lexicon(path)
    assert str(path) in str(caught.value)
    assert any(p.field.startswith(field) for p in caught.value.problems)


def test_invalid_yaml_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("refusing: [no way\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="not valid YAML"):
        load_lexicon(path)


# --- identity_detail_wrong: the brief's cases -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Your date of birth doesn't match our records", "en"),
        ("Ihr Geburtsdatum ist falsch", "de"),
        ("La date de naissance ne correspond pas", "fr"),
        ("no coincide el PIN", "es"),
        ("The PIN you gave is wrong", "en"),
        ("wrong PIN", "en"),
        ("Name and date of birth are fine.\nThe PIN is wrong though.", "en"),
        ("Ihre Kundennummer stimmt, aber die PIN passt nicht.", "de"),  # no list: "aber"
        ("Der Name passt, aber das Geburtsdatum ist falsch.", "de"),
    ],
)
def test_identity_detail_wrong_found(text: str, lang: str) -> None:
    assert find_concept("identity_detail_wrong", text, lang) is not None


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("The details you gave don't match our records", "en"),
        ("those details don't match our records", "en"),
        ("the information you provided doesn't match", "en"),
        ("Your date of birth is on file. The details don't match.", "en"),
        ("Something went wrong; could you give me your PIN?", "en"),
        ("Kundennummer, Geburtsdatum und PIN stimmen nicht überein.", "de"),
    ],
)
def test_identity_detail_wrong_not_found(text: str, lang: str) -> None:
    assert find_concept("identity_detail_wrong", text, lang) is None


# --- negation --------------------------------------------------------------------------------


def span_of(text: str, part: str) -> Span:
    start = text.index(part)
    return Span(start, start + len(part))


@pytest.mark.parametrize(
    ("text", "part", "lang"),
    [
        ("no hace falta ir en ayunas", "ir en ayunas", "es"),
        ("you don't need to fast", "fast", "en"),
        ("You do not need to come in fasting", "fasting", "en"),
        ("vous ne devez pas jeûner", "jeûner", "fr"),
        ("Vous n’avez pas besoin de jeûner.", "jeûner", "fr"),
        ("Sie müssen nicht nüchtern kommen.", "nüchtern kommen", "de"),
        ("Es ist kein Fasten nötig.", "Fasten", "de"),
        ("Please come without fasting.", "fasting", "en"),
        ("Fasting before the test is not necessary.", "Fasting", "en"),
        ("Ir en ayunas no es necesario.", "Ir en ayunas", "es"),
        ("Nüchtern kommen ist nicht nötig.", "Nüchtern kommen", "de"),
        ("Jeûner n'est pas nécessaire.", "Jeûner", "fr"),
        # offers and questions state nothing done
        ("Would you like a refund or an exchange?", "refund", "en"),
        ("Should I go ahead and refund the duplicate?", "refund", "en"),
        ("Soll ich die doppelte Abbuchung erstatten?", "erstatten", "de"),
        ("¿Quiere que le reembolse el cargo?", "reembolse", "es"),
        ("Voulez-vous que je rembourse le prélèvement ?", "rembourse", "fr"),
        # a waived fee is no fee
        ("The late fee has been waived.", "fee", "en"),
        ("Die Gebühr wird Ihnen erlassen.", "Gebühr", "de"),
        ("La tarifa ha sido anulada.", "tarifa", "es"),
        ("Les frais ont été annulés.", "frais", "fr"),
        ("Nothing has been cancelled yet.", "cancelled", "en"),
        ("I can't cancel and refund it.", "refund", "en"),
    ],
)
def test_negated(text: str, part: str, lang: str) -> None:
    assert negated(text, span_of(text, part), lang)


@pytest.mark.parametrize(
    ("text", "part", "lang"),
    [
        ("tiene que ir en ayunas", "ir en ayunas", "es"),
        ("please fast for 8 hours", "fast", "en"),
        ("No. Please fast for 8 hours.", "fast", "en"),
        ("I can't say exactly. You must fast.", "fast", "en"),
        ("It won't take long, but you must fast.", "fast", "en"),
        ("No, you need to fast.", "fast", "en"),
        ("Not today\nPlease fast beforehand.", "fast", "en"),
        ("No problem at all, I will check everything and then you should fast.", "fast", "en"),
        ("Sie müssen nüchtern kommen.", "nüchtern kommen", "de"),
        ("Ce n'est pas grave. Vous devez jeûner.", "jeûner", "fr"),
        ("Vous pouvez venir n'importe quand, à jeun.", "à jeun", "fr"),
        ("Fasting is required, a referral is not necessary.", "Fasting", "en"),
        ("¿No lo sabía? Tiene que ir en ayunas.", "ir en ayunas", "es"),
        # set phrases with a negator negate nothing
        ("No worries, I've refunded it.", "refunded", "en"),
        ("Don't worry, your order is cancelled.", "cancelled", "en"),
        ("Not a problem, I have cancelled it.", "cancelled", "en"),
        ("Keine Sorge, ich habe es storniert.", "storniert", "de"),
        ("No se preocupe, ya está cancelado.", "cancelado", "es"),
        ("Ne vous inquiétez pas, c'est annulé.", "annulé", "fr"),
        # a cause, or a comma before "I", starts a clause of its own
        ("Your order won't ship, because I've cancelled it.", "cancelled", "en"),
        ("It isn't free anymore, so I've charged the fee.", "fee", "en"),
        ("Ihr Termin findet nicht statt, ich habe ihn abgesagt.", "abgesagt", "de"),
        ("Su pedido no se enviará porque lo he cancelado.", "cancelado", "es"),
        ("Votre commande ne sera pas expédiée, je l'ai annulée.", "annulée", "fr"),
        # a hyphenated word holds no negator; "ne ... que" means "only"
        ("The no-show fee applies.", "fee", "en"),
        ("Cela ne peut se faire qu'en boutique.", "en boutique", "fr"),
    ],
)
def test_not_negated(text: str, part: str, lang: str) -> None:
    assert not negated(text, span_of(text, part), lang)
