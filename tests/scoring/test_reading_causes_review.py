"""Causes of wrong readings a blind review found, pinned with sentences written for this test.

A row: language | sentence | labels read | labels not read ("-": none). Valid wordings (must
accept) sit beside invalid ones (must reject), so a fix that reads nothing passes neither
half.
"""

from __future__ import annotations

import pytest
from reading_table import check, table

from supportsim.scenario import SayItem
from supportsim.scoring._say import Speech, discloses
from supportsim.scoring.text._acts import mentions
from supportsim.scoring.text._grammar import grammar
from supportsim.scoring.text.facts._read import Fact, FactKind, find_fact

# an accent that carries the mode survives folding: Spanish "sí" (yes) is no condition "si";
# German "würde", "hätte", "wäre" (subjunctive) are not the pasts "wurde", "hatte", "war"
ACCENTS = table(
    """
    es | Sí, ya he reembolsado el cargo. | claim:refunded | -
    es | Sí, le he enviado el enlace por correo. | claim:sent | -
    es | Si lo desea, le reembolso el cargo. | - | claim:refunded
    de | Letzte Woche wurde es erstattet. | claim:refunded | -
    de | Heute Morgen wurde das storniert. | claim:cancelled | -
    de | Dann würde es storniert. | - | claim:cancelled
    de | Mit früherer Anfrage hätte ich Ihnen die Gebühr erlassen. | - | claim:waived
    de | In dem Fall wäre der Termin verschoben. | - | claim:rescheduled
    de | Die Gebühr habe ich Ihnen erlassen. | claim:waived | -
    """
)

# an offer of the Agent's act put as a question asks the go-ahead; a request that the
# customer act, or a question about what they received, does not
ASKING = table(
    """
    en | Want me to cancel both tickets? | concept:asking_confirmation | -
    en | Should I send the invoice to your work address? | concept:asking_confirmation | -
    en | Could you send me a photo of the parcel? | - | concept:asking_confirmation
    de | Sollen wir die Bestellung erstatten? | concept:asking_confirmation | -
    de | Wünschen Sie, dass wir die Buchung stornieren? | concept:asking_confirmation | -
    de | Können Sie mir ein Foto schicken? | - | concept:asking_confirmation
    es | ¿Prefiere que le reembolse el cargo de envío? | concept:asking_confirmation | -
    es | ¿Puede enviarme una foto del paquete? | - | concept:asking_confirmation
    fr | Préférez-vous que je vous rembourse ? | concept:asking_confirmation | -
    fr | Pourriez-vous me transmettre une photo du colis ? | - | concept:asking_confirmation
    """
)


# a condition word after a verb of asking or checking opens an indirect question: asked, so
# no conditional promise of the act; a condition stays conditional
INDIRECT = [
    tuple(part.strip() for part in line.split(" | "))
    for line in """
    en | You asked whether the late fee could be waived, and I am afraid it cannot. | waive | asked
    en | I checked if we could refund the order, but that isn't possible. | refund | asked
    en | If you send the receipt, I will refund the order. | refund | conditional
    de | Sie haben gefragt, ob ich die Bestellung erstatten kann – das geht nicht. | refund | asked
    de | Wenn Sie den Beleg schicken, erstatte ich die Bestellung. | refund | conditional
    es | Me preguntó si podía reembolsar el pedido, pero no es posible. | refund | asked
    es | Si nos envía el recibo, le reembolsaremos el pedido. | refund | conditional
    fr | Vous m'avez demandé si je pouvais rembourser la commande : impossible. | refund | asked
    fr | Si vous envoyez le reçu, nous vous rembourserons la commande. | refund | conditional
    """.strip().splitlines()
]


@pytest.mark.parametrize(("lang", "text", "act", "mode"), INDIRECT)
def test_indirect_question_is_asked_not_conditional(
    lang: str, text: str, act: str, mode: str
) -> None:
    modes = [m.mode for m in mentions(text, lang) if m.act == act]
    assert modes == [mode], f"{text!r}: {act} read in {modes}"


# "taken" rules out a time, a date or a slot that is someone else's, never an amount taken off
TAKEN: list[tuple[FactKind, str | float, str | None, str, str, bool]] = [
    ("money", 25, "EUR", "en", "Good news: the 25 EUR charge is taken off your bill.", True),
    ("money", 12, "EUR", "de", "Die 12 € wurden Ihnen als Gutschrift vergeben.", True),
    ("money", 15, "EUR", "es", "El cargo de 15 € ya no está disponible en su factura.", True),
    ("money", 40, "EUR", "fr", "Les 40 € de frais sont pris en charge par nous.", True),
    ("time", "14:45", None, "en", "Sorry, the 14:45 slot is already taken.", False),
    ("time", "10:30", None, "de", "Der Termin um 10:30 ist leider vergeben.", False),
    ("time", "11:15", None, "es", "La cita de las 11:15 está ocupada.", False),
    ("time", "16:00", None, "fr", "Le créneau de 16:00 est déjà pris.", False),
]


@pytest.mark.parametrize(("kind", "value", "unit", "lang", "text", "stated"), TAKEN)
def test_taken_rules_out_slots_only(
    kind: FactKind, value: str | float, unit: str | None, lang: str, text: str, stated: bool
) -> None:
    span = find_fact(Fact(kind, value, unit), text, lang)
    assert (span is not None) is stated, f"{kind} {value!r} in {text!r}: {span}"


# naming the detail that is wrong says the details do not match, in every language
MISMATCH = table(
    """
    en | The name is fine, but that postcode isn't the one on file. | concept:identity_mismatch | -
    de | Die Postleitzahl ist nicht die hinterlegte. | concept:identity_mismatch | -
    es | El teléfono que me ha dado no coincide con el de la ficha. | concept:identity_mismatch | -
    fr | Ce numéro de téléphone n'est pas celui associé à ce compte. | concept:identity_mismatch | -
    en | Your postcode is correct. | - | concept:identity_mismatch
    es | Su código postal es correcto. | - | concept:identity_mismatch
    """
)


@pytest.mark.parametrize("lang", ["en", "de", "es", "fr"])
def test_a_wrong_detail_implies_a_mismatch_in_every_language(lang: str) -> None:
    assert grammar(lang).identity.details, lang
    assert "identity_detail_wrong" in grammar(lang).implies.get("identity_mismatch", []), lang


CASES = ACCENTS + ASKING + MISMATCH


@pytest.mark.parametrize(("lang", "text", "has", "lacks"), CASES)
def test_reads_what_is_stated_and_only_that(
    lang: str, text: str, has: frozenset[str], lacks: frozenset[str]
) -> None:
    check(lang, text, has, lacks)


@pytest.mark.parametrize(
    ("text", "lang", "promised"),
    [
        ("You asked whether the fee could be waived; I'm afraid it can't be.", "en", False),
        ("Sie fragten, ob wir die Gebühr erlassen können – leider nicht.", "de", False),
        ("Me preguntó si podíamos condonar la tarifa; no es posible.", "es", False),
        (
            "Vous m'avez demandé si je pouvais annuler les frais : ce n'est pas possible.",
            "fr",
            False,
        ),
        ("If you call billing, they'll waive the fee.", "en", True),
        ("Wenn Sie die Buchhaltung anrufen, wird die Gebühr erlassen.", "de", True),
    ],
)
def test_a_refusal_of_an_indirect_question_promises_no_waiver(
    text: str, lang: str, promised: bool
) -> None:
    said = discloses(SayItem(promise="waive"), text, Speech(lang, {})) is not None
    assert said is promised, text


# Found by a review of the indirect-question fix: a verb of checking that ends its own clause
# before a comma does not make the next "if" a question (German alone punctuates "gefragt, ob").
CONDITIONS_AFTER_A_COMMA = table(
    """
en | Once I've verified, if everything matches, I will refund you. | - | promise:refund
en | Let me check, and if the fee applies, I will waive it. | - | promise:waive
es | Lo consulto, y si el equipo está de acuerdo, le reembolsaremos el importe. | - | promise:refund
"""
)


@pytest.mark.parametrize(("lang", "text", "has", "lacks"), CONDITIONS_AFTER_A_COMMA)
def test_a_condition_after_a_checking_clause_stays_a_condition(
    lang: str, text: str, has: frozenset[str], lacks: frozenset[str]
) -> None:
    check(lang, text, has, lacks)
