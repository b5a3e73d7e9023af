"""Causes of wrong readings a blind review found, pinned with sentences written for this test.

A row: language | sentence | labels read | labels not read ("-": none). Valid wordings (must
accept) sit beside invalid ones (must reject), so a fix that reads nothing passes neither
half.
"""

from __future__ import annotations

import pytest

from supportsim.scoring import Reading, read_statement
from supportsim.scoring.text._acts import mentions

Case = tuple[str, str, frozenset[str], frozenset[str]]


def _table(text: str) -> list[Case]:
    rows = []
    for line in text.strip().splitlines():
        lang, sentence, has, lacks = (part.strip() for part in line.split(" | "))
        rows.append((lang, sentence, _set(has), _set(lacks)))
    return rows


def _set(labels: str) -> frozenset[str]:
    return frozenset() if labels == "-" else frozenset(labels.split())


def _labels(reading: Reading) -> set[str]:
    return (
        {f"concept:{c}" for c in reading.concepts}
        | {f"claim:{c}" for c in reading.claims}
        | {f"promise:{p}" for p in reading.promises}
    )


# an accent that carries the mode survives folding: Spanish "sí" (yes) is no condition "si";
# German "würde", "hätte", "wäre" (subjunctive) are not the pasts "wurde", "hatte", "war"
ACCENTS = _table(
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

CASES = ACCENTS


@pytest.mark.parametrize(("lang", "text", "has", "lacks"), CASES)
def test_reads_what_is_stated_and_only_that(
    lang: str, text: str, has: frozenset[str], lacks: frozenset[str]
) -> None:
    labels = _labels(read_statement(text, lang))
    assert has <= labels, f"missed {sorted(has - labels)} in {text!r}: read {sorted(labels)}"
    assert not lacks & labels, f"over-read {sorted(lacks & labels)} in {text!r}"


# a condition word after a verb of asking or checking opens an indirect question: asked, so
# no conditional promise of the act; a condition stays conditional
INDIRECT = [
    (
        "en",
        "You asked whether the late fee could be waived, and unfortunately it cannot.",
        "waive",
        "asked",
    ),
    ("en", "I checked if we could refund the order, but that isn't possible.", "refund", "asked"),
    ("en", "If you send the receipt, I will refund the order.", "refund", "conditional"),
    (
        "de",
        "Sie haben gefragt, ob ich die Bestellung erstatten kann – das geht leider nicht.",
        "refund",
        "asked",
    ),
    ("de", "Wenn Sie den Beleg schicken, erstatte ich die Bestellung.", "refund", "conditional"),
    ("es", "Me preguntó si podía reembolsar el pedido, pero no es posible.", "refund", "asked"),
    ("es", "Si nos envía el recibo, le reembolsaremos el pedido.", "refund", "conditional"),
    (
        "fr",
        "Vous m'avez demandé si je pouvais rembourser la commande, mais ce n'est pas possible.",
        "refund",
        "asked",
    ),
    (
        "fr",
        "Si vous envoyez le reçu, nous vous rembourserons la commande.",
        "refund",
        "conditional",
    ),
]


@pytest.mark.parametrize(("lang", "text", "act", "mode"), INDIRECT)
def test_indirect_question_is_asked_not_conditional(
    lang: str, text: str, act: str, mode: str
) -> None:
    modes = [m.mode for m in mentions(text, lang) if m.act == act]
    assert modes == [mode], f"{text!r}: {act} read in {modes}"
