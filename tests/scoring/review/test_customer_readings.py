"""How the customer review reads values in Customer messages: ambiguous dates both ways
round, whole tokens, ids named by the words before bare digits, date requests in any
language or without a question mark."""

from __future__ import annotations

import pytest
from review_helpers import kinds, review, transcript, uses, variant

from supportsim.scoring.review._facts import _NUMBERED, Known, values_in

DOB = variant(goal={"known_facts": {"customer_id": "C-1", "date_of_birth": "1994-03-09"}})
VERIFY = uses("verify_identity", customer_id="C-1", date_of_birth="dob")


def _known(*texts: str) -> Known:
    k = Known()
    for t in texts:
        k.add(t, "en")
    return k


@pytest.mark.parametrize(
    ("text", "known"),
    [("dob 09/03/1994", True), ("dob 03/09/1994", True), ("dob 10/03/1994", False)],
)
def test_a_slashed_date_is_known_when_either_reading_matches(text: str, known: bool) -> None:
    (value,) = values_in(text, "en")
    said = text.split()[-1]
    assert _known("born 1994-03-09").has_said(value, said) is known


@pytest.mark.parametrize(
    ("said", "known"),
    [("ORD-5032", False), ("ORD-50322", True), ("C-100", False), ("C-1009", True)],
)
def test_an_id_is_known_only_as_a_whole_token(said: str, known: bool) -> None:
    (value,) = values_in(f"it is {said}", "en")
    assert _known("order ORD-50322, customer C-1009").has(value) is known


def test_a_state_and_zip_is_known_by_its_zip_not_an_invented_id() -> None:
    (value,) = values_in("billing address Denver, CO 80206", "en")
    assert _known("zip 80206").has(value)
    assert not _known("zip 80207").has(value)


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("my PIN is 1234", "1234"),
        ("meine PIN lautet 2477", "2477"),
        ("order number 55512", "55512"),
        ("account number is 88120034", "88120034"),
    ],
)
def test_bare_digits_named_by_the_words_before_them_are_an_id(text: str, digits: str) -> None:
    assert [(v.kind, v.value) for v in values_in(text, "de")] == [("id", digits)]
    assert _NUMBERED.search("I waited 1234 seconds for the PIN") is None


@pytest.mark.parametrize(
    ("lang", "ask"),
    [
        ("en", "Please give me your date of birth."),
        ("de", "Wie lautet Ihr Geburtsdatum?"),
        ("es", "Por favor, indique su fecha de nacimiento."),
        ("fr", "Quelle est votre date de naissance ?"),
    ],
)
def test_a_wrong_date_of_birth_after_any_date_request_is_critical(lang: str, ask: str) -> None:
    scenario = variant(DOB, language=lang)
    lines = [("customer", "Hi."), ("agent", ask), ("customer", "C-1, 14.09.1986"), VERIFY]
    lines[3] = uses("verify_identity", customer_id="C-1", date_of_birth="1986-09-14")
    assert kinds(
        review(transcript(*lines, calls=("verify_identity",), end_reason="gave_up"), scenario)
    ) == [("invented_fact", 2, True)]
    # the right date, written day first: no finding
    lines[2] = ("customer", "C-1, 09.03.1994")
    assert (
        review(
            transcript(*lines, calls=("verify_identity",), end_reason="gave_up"), scenario
        ).findings
        == ()
    )


def test_that_s_all_i_know_is_not_saying_done() -> None:
    from supportsim.scoring.review._markers import says_done

    assert not says_done("That's all I know, I don't have the order number.", "en")
    assert says_done("That's all, thanks. Bye!", "en")


def test_an_inflection_is_not_a_typo() -> None:
    from supportsim.scoring.review._persona import _one_off

    assert not _one_off("charges", {"charged"})
    assert _one_off("chrage", {"charge"}) or _one_off("chagre", {"charge"})
    assert _one_off("refnud", {"refund"})


def test_a_request_without_a_question_mark_asks_for_the_fact() -> None:
    from supportsim.scoring.review._facts import _asked

    assert _asked("Please give me your customer id and PIN.", "customer_id")
    assert not _asked("Your customer id is on the invoice.", "customer_id")
