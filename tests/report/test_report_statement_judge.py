"""The report's statement-judge section: agreement of rules and judge per check kind and
language, Cohen's kappa, the disagreements listed (capped in summary.json, the total
always given), model text escaped in the HTML and the terminal."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from report_helpers import make_record
from rich.console import Console

from supportsim.report import render_report, render_summary, summarise
from supportsim.report._statements import DISAGREEMENTS_KEPT
from supportsim.store import ConversationRecord, Summary, checked

PLANTED = "<script>alert(1)</script> refunded [bold]now[/bold]"


def judged(
    check_id: str, kind: str, rule: bool, answer: str, passed: bool, quote: str = "the words"
) -> dict[str, Any]:
    return {
        "id": check_id,
        "kind": "step" if kind == "say" else "forbidden",
        "passed": passed,
        "reason": "judged",
        "rule": rule,
        "judged": {
            "kind": kind,
            "answer": answer,
            "passed": passed,
            "quotes": [{"message": 3, "text": quote}] if answer == "yes" else [],
            "reason": "because",
            "model": "openai:judge-m",
            "request_sha256": "r" * 64,
            "prompt_sha256": "p" * 64,
        },
    }


def record(trial: int, checks: list[dict[str, Any]], language: str = "en") -> ConversationRecord:
    base = make_record("s1", "A", trial, strict=all(c["passed"] for c in checks))
    data = {**base.model_dump(), "language": language, "statement_judge": "openai:judge-m"}
    return ConversationRecord.model_validate({**data, "checks": checks})


def records() -> list[ConversationRecord]:
    tell, other = "step:tell", "forbidden:x"
    return [
        record(
            1, [judged(tell, "say", True, "yes", True), judged(other, "disclose", True, "no", True)]
        ),
        record(
            2,
            [
                judged(tell, "say", False, "yes", True, PLANTED),
                judged(other, "disclose", True, "yes", False),
            ],
        ),
        record(
            3,
            [
                judged(tell, "say", False, "no", False),
                judged(other, "disclose", True, "unclear", False),
            ],
            "de",
        ),
    ]


def test_agreement_per_kind_and_language_and_the_disagreements() -> None:
    section = summarise(records()).document()["statement_judge"]
    assert section["judges"] == ["openai:judge-m"]
    assert (section["checks"], section["agree"], section["unclear"]) == (6, 3, 1)
    rows = {(r["kind"], r["language"]): r for r in section["by_kind"]}
    assert rows[("say", "en")]["checks"] == 2 and rows[("say", "en")]["rule_fail_judge_pass"] == 1
    assert rows[("disclose", "de")]["unclear"] == 1
    assert rows[("say", "en")]["kappa"] is None  # no check both failed: undefined
    assert section["disagreements_total"] == 3
    first = section["disagreements"][0]
    assert (first["check_id"], first["rule"], first["answer"]) == ("step:tell", False, "yes")
    assert first["quote"] == PLANTED and first["message"] == 3
    checked(Summary, summarise(records()).document(), Path("summary.json"))  # fits the schema


def test_a_run_with_no_judged_check_has_no_section() -> None:
    assert "statement_judge" not in summarise([make_record("s1", "A", 1)]).document()


def test_the_list_is_capped_and_the_total_kept() -> None:
    many = [
        record(t, [judged("step:tell", "say", False, "yes", True)])
        for t in range(1, DISAGREEMENTS_KEPT + 11)
    ]
    section = summarise(many).document()["statement_judge"]
    assert len(section["disagreements"]) == DISAGREEMENTS_KEPT
    assert section["disagreements_total"] == DISAGREEMENTS_KEPT + 10


def test_model_text_is_escaped_in_the_html_and_shown_verbatim_in_the_terminal() -> None:
    summary = summarise(records())
    html = render_report(summary, records(), run_id="r", in_progress=False)
    assert 'id="statement-judge"' in html
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html
    buffer = io.StringIO()
    render_summary(summary, Console(file=buffer, width=200, color_system=None))
    text = buffer.getvalue()
    assert "rules and judge disagree" in text and "[bold]now[/bold]" in text
