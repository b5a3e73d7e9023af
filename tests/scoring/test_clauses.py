"""Agent messages split into clauses: what ends a clause, what does not, and what each
clause knows of its sentence (a question, a condition)."""

from __future__ import annotations

import pytest

from supportsim.scoring.text._clauses import clauses, split_word


def texts(message: str, lang: str = "en") -> list[str]:
    return [c.text for c in clauses(message, lang)]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I've cancelled it. Anything else?", ["i have cancelled it", "anything else"]),
        ("No fee applies, and your slot is kept", ["no fee applies", "and your slot is kept"]),
        ("Don't panic: they'll waive it", ["do not panic", "they will waive it"]),
        ("It's done; you're all set", ["it is done", "you are all set"]),
        ("Sorted - the plan is live", ["sorted", "the plan is live"]),
        ("Sorted — the plan is live", ["sorted", "the plan is live"]),
        ("Done ✅ the fee is gone", ["done", "the fee is gone"]),
        ("line one\nline two", ["line one", "line two"]),
        ("I tried, but it failed", ["i tried", "but it failed"]),
        ("It failed because the card expired", ["it failed", "because the card expired"]),
        ("I'll check and we'll call you", ["i will check", "and we will call you"]),
        ("so it is", ["so it is"]),
    ],
)
def test_what_ends_a_clause(message: str, expected: list[str]) -> None:
    assert texts(message) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # numbers keep their separators
        ("See you at 9:15 on 18/03", ["see you at 9:15 on 18/03"]),
        ("That's $1,049.00 in total", ["that is $ 1,049.00 in total"]),
        # a hyphen inside a word, an abbreviation's full stop
        ("Your e-mail and ORD-50387 are fine", ["your e-mail and ord-50387 are fine"]),
        ("Dr. Hale will see you", ["dr hale will see you"]),
        # a heading word's colon
        ("Refund: processed", ["refund processed"]),
        # "before" is a preposition before a noun, a conjunction before a subject
        ("Fasting before the test is optional", ["fasting before the test is optional"]),
        ("Call us before you come in", ["call us", "before you come in"]),
        # "and" before an object joins it
        ("I've waived the fee and the charge", ["i have waived the fee and the charge"]),
    ],
)
def test_what_does_not(message: str, expected: list[str]) -> None:
    assert texts(message) == expected


def test_contractions_and_clitics_are_split_and_keep_the_original_span() -> None:
    message = "I’ve cancelled it, can’t you see?"
    clause = clauses(message, "en")[0]
    assert [t.text for t in clause.tokens[:2]] == ["i", "have"]
    assert {message[t.start : t.end] for t in clause.tokens[:2]} == {"I’ve"}
    assert split_word("won't", "en") == ["will", "not"]
    assert split_word("wouldn't", "en") == ["would", "not"]
    assert split_word("you're", "en") == ["you", "are"]
    assert split_word("daniel's", "en") == ["daniel's"]  # a possessive stays one word


def test_a_question_is_the_last_clause_of_a_question_or_one_that_opens_like_one() -> None:
    asked = [c.question for c in clauses("I've cancelled it, anything else?", "en")]
    assert asked == [False, True]
    split = clauses("Would you like me to refund it, or keep the credit?", "en")
    assert [c.question for c in split] == [True, True]
    assert not any(c.question for c in clauses("I've refunded it. Thanks!", "en"))


def test_a_condition_governs_the_clause_after_its_comma_and_the_one_it_follows() -> None:
    after = clauses("If it's faulty, we refund it. I've logged it.", "en")
    assert [c.conditional for c in after] == [True, True, False]
    before = clauses("I can move it if you like", "en")
    assert [c.conditional for c in before] == [True, True]
    # a dash or a new sentence ends its reach
    dashed = clauses("I've cancelled it - if you need anything, ask", "en")
    assert [c.conditional for c in dashed] == [False, True, True]
    inverted = clauses("Had you called earlier, there would be no fee", "en")
    assert [c.conditional for c in inverted] == [True, True]


def test_a_time_clause_is_marked() -> None:
    split = clauses("Once the item is back, we'll refund you", "en")
    assert [c.kind for c in split] == ["time", "main"]
    assert not any(c.conditional for c in split)


def test_the_earlier_clauses_of_a_sentence_are_known() -> None:
    split = clauses("Would you like, perhaps, a refund?", "en")
    assert split[-1].before == "would you like perhaps"
    assert split[-1].previous == "perhaps"


def test_other_languages_split_with_their_own_words() -> None:
    assert texts("Das ist teuer, aber ich habe es erstattet", "de") == [
        "das ist teuer",
        "aber ich habe es erstattet",
    ]
    assert texts("¿Quiere que lo cancele?", "es") == ["quiere que lo cancele"]
    # a language without data is split with English's
    assert texts("Done: it's cancelled, but no fee", "it") == ["done it is cancelled", "but no fee"]


@pytest.mark.parametrize(
    ("message", "lang", "sentences", "conditional"),
    [
        # an ordinal day before a month's name ends no sentence: the condition holds to the
        # end ("if you pay on 15 April, no extra cost arises" states no waiver)
        ("Wenn Sie am 15. April zahlen, entstehen Ihnen keine Zusatzkosten.", "de", 1, True),
        ("Der Termin ist am 3. Mai. Bitte kommen Sie pünktlich.", "de", 2, False),
        ("Ich habe ihn auf Freitag, den 20.03., verschoben.", "de", 1, False),
        # a number before a word that is no month still ends its sentence
        ("Sie haben 3. Danach prüfe ich es.", "de", 2, False),
    ],
)
def test_a_day_s_full_stop_ends_no_sentence(
    message: str, lang: str, sentences: int, conditional: bool
) -> None:
    found = clauses(message, lang)
    assert len({c.sentence for c in found}) == sentences
    assert found[-1].conditional is conditional
