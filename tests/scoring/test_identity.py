"""The identity_detail disclosure by structure: a detail noun and a predicate judging it,
right or wrong, in every language; questions, requests, conditions and withheld verdicts
disclose nothing."""

from __future__ import annotations

import pytest

from supportsim.scoring._reading import read_statement
from supportsim.scoring.text._identity import judged_details, named_detail, wrong_detail

# fmt: off
DISCLOSED = [
    # the two examples, which the phrase pairs let through
    ("the day and month of your birth date may be swapped", "en"),
    ("Your date of birth is fine, it's the client number that's off.", "en"),
    ("The postcode you gave looks a bit off to me.", "en"),
    ("Thanks for the PIN, but it doesn't match.", "en"),
    ("We have a different surname on this account.", "en"),
    ("Your e-mail address is correct; the PIN is not.", "en"),
    ("Ihre Postleitzahl stimmt, aber die Kundennummer nicht.", "de"),
    ("Tag und Monat Ihres Geburtsdatums sind vertauscht.", "de"),
    ("Die Telefonnummer, die Sie genannt haben, weicht leider ab.", "de"),
    ("Su fecha de nacimiento es correcta, pero el PIN no coincide.", "es"),
    ("No coincide el PIN que me ha dado.", "es"),
    ("Esa no es la fecha de nacimiento correcta.", "es"),
    ("Votre adresse e-mail est bien la bonne, c'est le code postal qui ne correspond pas.", "fr"),
    ("Le jour et le mois de votre date de naissance ont été inversés.", "fr"),
    # the predicate before a part of the detail: the part is the detail judged
    ("You may have swapped the day and the month of your date of birth.", "en"),
    ("Creo que ha invertido el día y el mes de su fecha de nacimiento.", "es"),
    ("Vous avez peut-être inversé le jour et le mois de votre date de naissance.", "fr"),
]
NOT_DISCLOSED = [
    # a part link after a detail that is no part: what was sent, not a detail judged
    ("I sent a new code to the phone number of your account.", "en"),
    # a polite refusal to verify, naming no detail
    ("I'm sorry, I couldn't verify your identity with those details.", "en"),
    ("Those details don't match our records, so I can't go further.", "en"),
    ("For security reasons I can't tell you which detail was wrong.", "en"),
    ("I can't confirm whether your date of birth is correct, I'm afraid.", "en"),
    # asking for a detail, saying it was received
    ("Could you give me your date of birth, please?", "en"),
    ("Is the date of birth you gave correct?", "en"),
    ("Please make sure the postcode is correct before you send it.", "en"),
    ("Thanks, I've received your date of birth. One moment while I check.", "en"),
    ("Fine, and now your PIN please.", "en"),
    # a condition, a policy, the Agent's own mistake, another thing judged
    ("If the PIN is wrong three times, the account is locked for a day.", "en"),
    ("Sorry, I was wrong about your customer number, it's all sorted.", "en"),
    ("The parcel went to a wrong address.", "en"),
    ("Leider stimmen Ihre Angaben nicht mit unseren Unterlagen überein.", "de"),
    ("Könnten Sie mir bitte Ihr Geburtsdatum nennen?", "de"),
    ("Bitte nennen Sie mir eine andere Telefonnummer.", "de"),
    ("Lo siento, los datos que me ha facilitado no coinciden con nuestro sistema.", "es"),
    ("¿Me confirma su fecha de nacimiento?", "es"),
    ("Disculpe, me he equivocado al escribir su número de cliente.", "es"),
    ("Les informations transmises ne correspondent pas à notre dossier.", "fr"),
    ("Pourriez-vous m'indiquer votre date de naissance ?", "fr"),
    ("Le colis a été déposé à une adresse qui ne correspond pas à la vôtre.", "fr"),
]
# fmt: on


@pytest.mark.parametrize(("text", "lang"), DISCLOSED)
def test_a_detail_judged_right_or_wrong_is_disclosed(text: str, lang: str) -> None:
    assert named_detail(text, lang) is not None
    assert "identity_detail" in read_statement(text, lang).discloses


@pytest.mark.parametrize(("text", "lang"), NOT_DISCLOSED)
def test_no_single_detail_judged_is_no_disclosure(text: str, lang: str) -> None:
    assert named_detail(text, lang) is None
    assert "identity_detail" not in read_statement(text, lang).discloses


def test_the_verdict_turns_with_a_negator_and_a_right_detail_is_no_mismatch() -> None:
    # "right" alone discloses (the caller learns the rest was wrong) but states no mismatch
    assert [j.wrong for j in judged_details("Your date of birth is correct.", "en")] == [False]
    assert wrong_detail("Your date of birth is correct.", "en") is None
    assert wrong_detail("Your date of birth isn't correct.", "en") is not None
    assert wrong_detail("Ihr Geburtsdatum stimmt leider nicht.", "de") is not None
    assert wrong_detail("La date de naissance ne correspond pas.", "fr") is not None


def test_the_span_covers_the_detail_and_its_predicate_in_the_original_text() -> None:
    text = "Hmm. Your date of birth, sadly, doesn't match."
    span = named_detail(text, "en")
    assert span is not None and text[span.start : span.end] == "date of birth, sadly, doesn't match"


def test_a_list_of_details_names_none_of_them() -> None:
    assert named_detail("The name and date of birth you provided don't match.", "en") is None
    assert named_detail("Kundennummer, Geburtsdatum und PIN stimmen nicht überein.", "de") is None
    # "but" ends the list: the PIN stands alone
    assert named_detail("The name and date of birth are fine, but the PIN is wrong.", "en")
