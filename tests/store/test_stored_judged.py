"""``store.with_stored_judged``: which of a record's judged customer findings ``rescore``
keeps, by the questions they answer (``judged_prompts``)."""

from __future__ import annotations

from supportsim.store import CustomerReviewRecord, with_stored_judged

RULES = CustomerReviewRecord.model_validate(
    {
        "persona": "p",
        "findings": [{"kind": "repeating", "message_index": 4, "detail": "r", "critical": False}],
    }
)


def stored(prompts: list[str]) -> CustomerReviewRecord:
    judged = {"kind": "persona_drift", "message_index": 2, "detail": "j", "critical": False}
    return CustomerReviewRecord.model_validate(
        {
            "persona": "p",
            "findings": [{**judged, "source": "judge", "judge": "openai:j"}],
            "judged_unclear": 1,
            "judged_prompts": prompts,
        }
    )


def test_the_same_questions_keep_the_judged_findings() -> None:
    kept = with_stored_judged(RULES, stored(["b", "a"]), ["a", "b"])
    assert kept is not None
    assert [f.source for f in kept.findings] == ["judge", "rule"]  # in message order
    assert kept.judged_unclear == 1 and kept.judged_prompts == ["b", "a"]


def test_other_questions_drop_them() -> None:
    assert with_stored_judged(RULES, stored(["a", "b"]), ["a"]) == RULES
    assert with_stored_judged(RULES, stored(["a"]), ["c"]) == RULES


def test_a_record_without_prompts_keeps_them() -> None:
    kept = with_stored_judged(RULES, stored([]), ["c"])
    assert kept is not None and len(kept.findings) == 2 and kept.judged_unclear == 1
