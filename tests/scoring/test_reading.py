"""The rule path's reading of agent text: concepts, claims and promises, in mode.

``reading/en.yaml`` holds, per label, sentences written for these tests that state it and
near misses that must not (a question, an offer, a condition, a negation, a policy, the
customer's act). Each is read as ``read_statement`` reads it, which is what the say steps,
the disclosure rules and the statement corpus's measurement use.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from supportsim.scenario import SayItem
from supportsim.scoring import read_statement
from supportsim.scoring._say import Speech, discloses, states
from supportsim.scoring.text._grammar import grammar
from supportsim.scoring.text._lexicon import concept_terms

CASES = Path(__file__).parent / "reading"


@cache
def cases(lang: str) -> list[tuple[str, bool, str]]:
    """(label, stated, sentence) for every sentence of ``reading/<lang>.yaml``."""
    raw = yaml.safe_load((CASES / f"{lang}.yaml").read_text(encoding="utf-8"))
    out = []
    for label, by in raw.items():
        assert set(by) <= {"stated", "not_stated"}, label
        for kind, text in by.items():
            out += [(label, kind == "stated", s.strip()) for s in text.splitlines() if s.strip()]
    return out


def read(label: str, text: str, lang: str = "en") -> bool:
    dimension, name = label.split(":")
    reading = read_statement(text, lang)
    return (
        name
        in {
            "concept": reading.concepts,
            "claim": reading.claims,
            "promise": reading.promises,
        }[dimension]
    )


@pytest.mark.parametrize(("label", "stated", "sentence"), cases("en"))
def test_english_sentences_are_read_in_mode(label: str, stated: bool, sentence: str) -> None:
    assert read(label, sentence) is stated


def test_every_english_label_has_sentences_both_ways() -> None:
    labels = {(label, stated) for label, stated, _ in cases("en")}
    for label in {label for label, _ in labels}:
        if label in ("promise:credit",):
            continue
        assert (label, True) in labels and (label, False) in labels, label


ACT_CONCEPTS = frozenset(
    {
        "refunding",
        "cancelling",
        "booking",
        "rescheduling",
        "escalating",
        "sending",
        "waiving",
        "fee",
        "offering_goodwill",
    }
)


def fresh() -> list[dict[str, object]]:
    """``reading/en_fresh.yaml``: sentences written after the rules, not from the corpus."""
    return yaml.safe_load((CASES / "en_fresh.yaml").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize("item", fresh(), ids=lambda item: str(item["text"])[:40])
def test_fresh_english_sentences(item: dict[str, object]) -> None:
    reading = read_statement(str(item["text"]), "en")
    want = (
        set(item["concepts"]) & ACT_CONCEPTS,  # type: ignore[call-overload]
        set(item.get("claims", [])),  # type: ignore[call-overload]
        set(item.get("promises", [])),  # type: ignore[call-overload]
    )
    assert (reading.concepts & ACT_CONCEPTS, reading.claims, reading.promises) == want


@pytest.mark.parametrize(
    ("text", "concepts", "claims", "promises"),
    [
        # the issue's cases
        (
            "I've reversed the second one, CH-778: the 35 dollars are back on your account balance",
            {"refunding"},
            {"refunded"},
            set(),
        ),
        ("Done, your debit card ending 4417 is frozen.", {"confirming"}, {"changed"}, set()),
        ("I'm bringing in a supervisor now", {"escalating"}, {"escalated"}, set()),
        ("only Claire can make that request", {"refusing"}, set(), set()),
        ("I can't believe she was charged twice!", {"fee"}, set(), set()),
        (
            "No fee applies, and your appointment is cancelled",
            {"waiving", "cancelling", "confirming"},
            {"cancelled"},
            set(),
        ),
        ("Don't panic: they'll waive it", {"waiving"}, set(), {"waive"}),
        ("Not to worry, I've refunded it.", {"refunding"}, {"refunded"}, set()),
    ],
)
def test_the_issue_s_sentences(
    text: str, concepts: set[str], claims: set[str], promises: set[str]
) -> None:
    reading = read_statement(text, "en")
    assert reading.concepts == concepts
    assert reading.claims == claims
    assert reading.promises == promises


def test_a_say_step_and_a_disclosure_read_the_same_way() -> None:
    speech = Speech("en", {})
    waiving = SayItem(concept="waiving")
    assert states(waiving, "Don't panic: they'll waive it", speech)
    assert discloses(waiving, "Don't panic: they'll waive it", speech) is not None
    assert not states(waiving, "Shall I waive it?", speech)
    assert discloses(waiving, "Shall I waive it?", speech) is None
    # a refusal step counts what is refused ("I can't waive the fee")
    assert states(waiving, "I can't waive the fee.", speech, refusal=True)
    assert not states(waiving, "I can't waive the fee.", speech)


def test_a_scenario_s_own_phrases_still_count_in_mode() -> None:
    speech = Speech("en", {"cancelling": ["call it a day"]})
    item = SayItem(concept="cancelling")
    assert states(item, "Let's call it a day on that order.", speech)
    assert not states(item, "Shall we call it a day on that order?", speech)
    assert not states(item, "We won't call it a day on that order.", speech)


@pytest.mark.parametrize(
    ("concept", "term"),
    [
        (act.concept, e)
        for act in grammar("en").acts.values()
        if act.concept is not None
        for e in act.examples
    ],
)
def test_every_english_example_states_its_concept(concept: str, term: str) -> None:
    assert states(SayItem(concept=concept), term, Speech("en", {}))
    assert term in concept_terms(concept, "en")


def test_english_text_is_not_read_with_english_acts_in_another_language() -> None:
    # a mode is only decided in the text's own grammar: French "en charge" is no fee
    assert "fee" not in read_statement("Votre téléphone est en charge.", "fr").concepts
    assert "fee" in read_statement("Your card was charged 5 USD.", "en").concepts


@pytest.mark.parametrize(
    ("lang", "text", "claims", "promises"),
    [
        # sentences written for this test, read with the bundled acts data of the language
        ("de", "Ich habe Ihnen die 12,50 € bereits zurückerstattet.", {"refunded"}, set()),
        ("de", "Ihr Termin wurde auf Donnerstag verschoben.", {"rescheduled"}, set()),
        ("de", "Storniert ✅ Die Bestätigung kommt per E-Mail.", {"cancelled"}, set()),
        ("de", "Der Betrag wird Ihnen innerhalb von 5 Tagen erstattet.", set(), {"refund"}),
        ("de", "Ich habe die Bestellung noch nicht storniert.", set(), set()),
        ("de", "Soll ich die Bestellung stornieren?", set(), set()),
        ("de", "Falls die Ware defekt ist, wird der Kaufpreis erstattet.", set(), set()),
        ("de", "Würden wir Ihnen den Betrag erstatten, wäre das eine Ausnahme.", set(), set()),
        ("es", "Le he reembolsado los 35 € a su tarjeta.", {"refunded"}, set()),
        ("es", "Su pedido ha sido cancelado.", {"cancelled"}, set()),
        ("es", "Le enviaré el enlace por correo.", set(), set()),
        ("es", "Le reembolsaré el importe mañana.", set(), {"refund"}),
        ("es", "No he cancelado su cita todavía.", set(), set()),
        ("es", "Tiene dos citas reservadas para el martes.", set(), set()),
        ("fr", "J'ai annulé votre commande.", {"cancelled"}, set()),
        ("fr", "Votre rendez-vous a été décalé à jeudi.", {"rescheduled"}, set()),
        ("fr", "Je viens de désactiver l'option.", {"changed"}, set()),
        ("fr", "La différence vous sera remboursée sous 5 jours.", set(), {"refund"}),
        ("fr", "Je ne l'ai pas annulée.", set(), set()),
        ("fr", "Voulez-vous que j'annule la commande ?", set(), set()),
    ],
)
def test_other_languages_claims_and_promises_by_their_data(
    lang: str, text: str, claims: set[str], promises: set[str]
) -> None:
    reading = read_statement(text, lang)
    assert (reading.claims, reading.promises) == (claims, promises)


@pytest.mark.parametrize(
    ("text", "fee"),
    [
        # a policy of refunds cancels no fee, a policy of waiving does; a parenthesis is a
        # clause of its own, so what it waives does not reach the fee before it
        ("Refunds to the card have a 5.99 USD label fee.", True),
        ("Card refunds have a 5.99 USD label fee (it's waived for faulty items).", True),
        ("Label fees are waived for faulty items.", False),
    ],
)
def test_a_fee_stands_beside_a_policy_of_another_act(text: str, fee: bool) -> None:
    assert ("fee" in read_statement(text, "en").concepts) is fee


def test_a_parenthesis_is_a_clause_only_when_it_opens_with_a_subject() -> None:
    # an id in brackets leaves the subject with its verb
    text = "Done: your session on Tuesday at 10:00 (A-5004) is cancelled."
    assert "cancelling" in read_statement(text, "en").concepts
    # a clause in brackets keeps its waiver from the fee before it
    text = "Card refunds have a 5.99 USD label fee (it's waived for faulty items)."
    assert "fee" in read_statement(text, "en").concepts


@pytest.mark.parametrize(
    ("lang", "text", "promises"),
    [
        # sentences written for this test: each commitment the language's acts data reads,
        # beside the near miss it must not (a condition, an offer, a question, a negation,
        # a policy, a completed act)
        ("fr", "Je vous rembourse la différence dès aujourd'hui.", {"refund"}),
        ("fr", "Nous vous rembourserons la différence sous 5 jours.", {"refund"}),
        ("fr", "Vous recevrez votre remboursement d'ici vendredi.", {"refund"}),
        ("fr", "Si l'article arrive endommagé, nous vous rembourserons.", set()),
        ("fr", "Je vous propose de vous rembourser la différence.", set()),
        ("fr", "Voulez-vous que je vous rembourse ?", set()),
        ("fr", "Je ne peux pas vous rembourser.", set()),
        ("fr", "Les remboursements sont effectués sous 5 jours.", set()),
        ("fr", "Je vous rappelle demain à 10 h.", {"callback"}),
        ("fr", "Un conseiller vous recontactera demain matin.", {"callback"}),
        ("fr", "Je vous rappelle que les frais de retour sont à votre charge.", set()),
        ("fr", "Votre colis vous sera livré jeudi.", {"delivery"}),
        ("fr", "Votre colis a été livré hier.", set()),
        ("fr", "Je vous expédie un article de remplacement dès demain.", {"replacement"}),
        ("fr", "Un article de remplacement a été expédié hier.", set()),
        ("fr", "Je ne vous facturerai pas les frais de retard.", {"waive"}),
        ("fr", "Je vous facturerai les frais de retard.", set()),
        ("fr", "Les frais de port vous seront offerts.", {"waive"}),
        ("fr", "Les frais de port sont offerts dès 50 € d'achat.", set()),
        ("fr", "Nous allons corriger l'erreur sur votre facture.", {"fix"}),
        ("fr", "Pouvez-vous corriger l'erreur sur la facture ?", set()),
        ("fr", "Je vais vous accorder un avoir de 10 €.", {"credit"}),
        ("es", "Le reembolso los 8 € ahora mismo.", {"refund"}),
        ("es", "Te lo reembolsamos en la próxima hora.", {"refund"}),
        ("es", "Vamos a reembolsarle el importe completo.", {"refund"}),
        ("es", "Le voy a reintegrar los 37,45 €.", {"refund"}),
        ("es", "Recibirá el reembolso en su tarjeta en 3 días.", {"refund"}),
        ("es", "Le he reembolsado los 35 € a su tarjeta.", set()),
        ("es", "Si el producto llega dañado, se lo reembolsaremos.", set()),
        ("es", "¿Le reembolso el importe?", set()),
        ("es", "No puedo reembolsarle el pedido.", set()),
        ("es", "Reembolsamos el importe en un plazo de 14 días.", set()),
        ("es", "La solicitud de reembolso está en revisión.", set()),
        ("es", "Le llamaré mañana a las 10.", {"callback"}),
        ("es", "Puede llamarnos cuando quiera.", set()),
        ("es", "Le entregarán el paquete el viernes.", {"delivery"}),
        ("es", "El paquete fue entregado ayer.", set()),
        ("es", "Le envío hoy mismo un terminal de reemplazo.", {"replacement"}),
        ("es", "Le hemos enviado un terminal de reemplazo.", set()),
        ("es", "No le vamos a cobrar la comisión.", {"waive"}),
        ("es", "Le cobraremos la comisión de 5 €.", set()),
        ("es", "Le abonaré 10 € como gesto de cortesía.", {"credit"}),
        ("es", "Nuestro equipo solucionará el problema mañana.", {"fix"}),
        ("es", "Podemos solucionar el problema si nos envía una foto.", set()),
        ("de", "Ich erstatte Ihnen die 19,99 € direkt nach Eingang der Retoure.", {"refund"}),
        ("de", "Wir werden Ihnen den Betrag innerhalb von 5 Tagen erstatten.", {"refund"}),
        ("de", "Ich würde Ihnen den Betrag gerne erstatten, aber das geht nicht.", set()),
        ("de", "Ich kann Ihnen den Betrag erstatten, wenn Sie möchten.", set()),
        ("de", "Wir erstatten Rücksendungen innerhalb von 14 Tagen.", set()),
        ("de", "Falls die Ware defekt ist, werden wir den Kaufpreis erstatten.", set()),
        ("de", "Ich habe Ihnen die 12,50 € bereits zurückerstattet.", set()),
        ("de", "Sobald das Lager es bestätigt, buche ich Ihnen die 42 € zurück.", {"refund"}),
        ("de", "Sie bekommen Ihr Geld selbstverständlich zurück.", {"refund"}),
        ("de", "Sie bekommen Ihr Geld leider nicht zurück.", set()),
        ("de", "Sollte der Artikel defekt sein, bekommen Sie Ihr Geld zurück.", set()),
        ("de", "Haben Sie Ihr Geld schon zurückbekommen?", set()),
        ("de", "Die Erstattung erfolgt direkt nach Wareneingang.", {"refund"}),
        ("de", "Die Erstattung wird bei Marktplatz-Artikeln nicht von uns abgewickelt.", set()),
        ("de", "Ein Techniker meldet sich innerhalb von 24 Stunden bei Ihnen.", {"callback"}),
        ("de", "Melden Sie sich gerne jederzeit bei uns.", set()),
        ("de", "Ich rufe Sie morgen um 10 Uhr zurück.", {"callback"}),
        ("de", "Rufen Sie uns gerne an.", set()),
        ("de", "Ihre Bestellung wird morgen zugestellt.", {"delivery"}),
        ("de", "Ihre Bestellung wurde gestern zugestellt.", set()),
        ("de", "Die Lieferung wurde mit einem Zuschlag von 2 € berechnet.", set()),
        ("de", "Ich schicke Ihnen umgehend einen Ersatzartikel zu.", {"replacement"}),
        ("de", "Ich schicke Ihnen keinen Ersatzartikel zu.", set()),
        ("de", "Die Versandkosten übernehmen wir selbstverständlich für Sie.", {"waive"}),
        ("de", "Die Rücksendekosten übernehmen Sie selbst.", set()),
        ("de", "Die Gebühr wird Ihnen nicht berechnet.", {"waive"}),
        ("de", "Die Gebühr wird Ihnen berechnet.", set()),
        ("de", "Wir werden den Fehler bis Freitag beheben.", {"fix"}),
        ("de", "Können Sie den Fehler beheben?", set()),
        ("de", "Ich schreibe Ihnen 10 € gut.", {"credit"}),
    ],
)
def test_promises_outside_english_by_their_data(lang: str, text: str, promises: set[str]) -> None:
    assert read_statement(text, lang).promises == promises


@pytest.mark.parametrize(
    ("text", "promises"),
    [
        # a negator that belongs to another phrase of the clause does not negate the promise
        # (only German, whose negator follows its verb, reads one anywhere after the noun)
        ("The replacement will be shipped today and not next week.", {"replacement"}),
        ("The replacement will not be shipped today.", set()),
    ],
)
def test_a_later_negator_negates_an_english_noun_promise_only_by_its_auxiliary(
    text: str, promises: set[str]
) -> None:
    assert set(read_statement(text, "en").promises) == promises
