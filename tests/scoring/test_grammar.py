"""The language data format (``lexicons/<lang>.acts.yaml``): the bundled files load, a bad
file is an error naming the file and the field, and a language's acts are added by data
alone, German, Spanish and French alike (the reading's code knows no language)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from supportsim.errors import ScenarioError
from supportsim.scoring import read_statement
from supportsim.scoring.text import (
    _acts,
    _grammar,
)
from supportsim.scoring.text._grammar import Trigger, grammar, inflect, load_grammar


def _clear() -> None:
    """Clear every cache of the reading (each ``functools`` cache of a module under
    ``supportsim.scoring``): one built from a test's language files must not outlive it (a
    hand-kept list missed the caches added since and left later tests reading its data)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("supportsim.scoring") or module is None:
            continue
        for value in vars(module).values():
            if callable(value) and hasattr(value, "cache_clear"):
                value.cache_clear()


@pytest.fixture
def language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder whose ``<lang>.acts.yaml`` files replace the bundled ones for the test."""
    bundled = _grammar.grammar_path

    def path(lang: str):  # type: ignore[no-untyped-def]
        mine = tmp_path / f"{lang}.acts.yaml"
        return mine if mine.is_file() else bundled(lang)

    monkeypatch.setattr(_grammar, "grammar_path", path)
    _clear()
    yield tmp_path
    monkeypatch.undo()
    _clear()


def test_the_bundled_files_load() -> None:
    for lang in ("en", "de", "es", "fr"):
        assert load_grammar(_grammar.grammar_path(lang)) == grammar(lang)
    assert grammar("en").acts["refund"].claim == "refunded"


def test_no_on_and_off_are_words_not_booleans(tmp_path: Path) -> None:
    path = tmp_path / "xx.acts.yaml"
    path.write_text(
        "negation: {noun_negators: [no]}\nacts: {x: {verbs: [{word: call, particle: [off, on]}]}}\n"
    )
    g = load_grammar(path)
    assert g.negation.noun_negators == ["no"]
    assert g.acts["x"].verbs[0] == Trigger(word="call", particle=["off", "on"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("acts: {x: {claim: refundered}}", "acts.x.claim"),
        ("acts: {x: {verbs: [{word: a, colour: red}]}}", "acts.x.verbs.0"),
        ("negation: {negators: ['(unclosed']}", "negation.negators.0"),
        ("acts: {x: {negated_as: nothing}}", "acts.x.negated_as"),
        ("modes: {bogus: [a]}", "modes.bogus"),
    ],
)
def test_a_bad_file_names_the_file_and_the_field(tmp_path: Path, body: str, field: str) -> None:
    path = tmp_path / "xx.acts.yaml"
    path.write_text(body + "\n")
    with pytest.raises(ScenarioError) as err:
        load_grammar(path)
    assert str(path) in str(err.value)
    assert field in str(err.value)


def test_paradigms_inflect_and_a_verb_s_own_forms_win() -> None:
    en = grammar("en").paradigms
    assert inflect(Trigger(word="apply"), en)["participle"] == {"applied"}
    assert inflect(Trigger(word="reverse"), en)["gerund"] == {"reversing"}
    assert inflect(Trigger(word="fix"), en)["present"] == {"fixes"}
    assert inflect(Trigger(word="refund"), en)["past"] == {"refunded"}
    sent = inflect(Trigger(word="send", forms={"past": ["sent"]}), en)
    assert sent["past"] == {"sent"} and sent["gerund"] == {"sending"}


GERMAN = """
clauses: {contrast: [aber]}
negation: {negators: [nicht, nie], noun_negators: ["kein\\\\w*"]}
questions: [soll ich]
modes:
  future: [werde, wird, werden]
  perfect: [habe, hat, haben]
  past: [wurde, wurden]
  passive: [worden]
  ability: [kann]
  specific: [ihre, ihr, die, der, das]
bare: {participle: done}
paradigms:
  - ending: ieren
    forms: {base: [ieren], present: [iere, iert], participle: [iert]}
acts:
  cancel:
    concept: cancelling
    claim: cancelled
    verbs: [stornieren]
"""


@pytest.mark.parametrize(
    ("text", "claims", "mode"),
    [
        ("Ich habe Ihre Bestellung storniert.", {"cancelled"}, "done"),
        ("Ihre Bestellung wurde storniert.", {"cancelled"}, "done"),
        ("Storniert: Ihr Termin am Montag.", {"cancelled"}, "done"),
        ("Ich werde die Bestellung stornieren.", set(), "committed"),
        ("Soll ich die Bestellung stornieren?", set(), "asked"),
        ("Ich habe die Bestellung nicht storniert.", set(), "negated"),
        ("Ich kann die Bestellung stornieren.", set(), "offered"),
        ("Das ist teuer, aber ich habe es storniert.", {"cancelled"}, "done"),
    ],
)
def test_german_acts_by_data_alone(language: Path, text: str, claims: set[str], mode: str) -> None:
    (language / "de.acts.yaml").write_text(GERMAN)
    assert read_statement(text, "de").claims == claims
    assert {m.mode for m in _acts.mentions(text, "de")} == {mode}


SPANISH = """
negation: {negators: ["no", nunca]}
modes: {perfect: [he, ha, hemos, han]}
bare: {participle: done, future: committed, present: doing}
paradigms:
  - ending: ar
    forms:
      {base: [ar], present: [o, amos], participle: [ado, ada, ados, adas], future: [are, aremos]}
acts:
  refund:
    concept: refunding
    claim: refunded
    promise: refund
    verbs: [reembolsar]
"""


@pytest.mark.parametrize(
    ("text", "claims", "promises"),
    [
        ("Le he reembolsado los 35 euros.", {"refunded"}, set()),
        ("Le reembolsaré el importe mañana.", set(), {"refund"}),
        ("Le reembolso ahora mismo el importe.", {"refunded"}, set()),
        ("No le he reembolsado nada todavía.", set(), set()),
    ],
)
def test_spanish_slots_by_data_alone(
    language: Path, text: str, claims: set[str], promises: set[str]
) -> None:
    (language / "es.acts.yaml").write_text(SPANISH)
    reading = read_statement(text, "es")
    assert (reading.claims, reading.promises) == (claims, promises)


FRENCH = """
tokens: {prefixes: {"j'": [je], "l'": [le], "n'": [ne]}}
negation: {negators: [ne, pas, jamais]}
modes: {perfect: [ai, avons, a]}
bare: {participle: done}
paradigms:
  - ending: er
    forms: {base: [er], participle: [e, ee, es, ees]}
acts:
  cancel:
    concept: cancelling
    claim: cancelled
    verbs: [annuler]
"""


def test_french_elision_by_data_alone(language: Path) -> None:
    (language / "fr.acts.yaml").write_text(FRENCH)
    assert read_statement("J'ai annulé votre commande.", "fr").claims == {"cancelled"}
    assert read_statement("Je ne l'ai pas annulée.", "fr").claims == set()
