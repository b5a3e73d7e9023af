"""The customer review end to end: ``supportsim run`` against the mock server, the
simulated Customer a real SDK client given scripted replies that commit one error each
(an invented id, a stop right after "shall I refund it?", accepting a credit its goal
refuses, English in a German conversation). Each error is found at its message, the
strict failure it caused is ``customer_hindered``, and terminal, summary.json and HTML
show it apart from the Agent's failures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from cli_runs import PERSONAS, REFUND, cli

from supportsim.store import ConversationRecord, iter_records, read_rescored
from supportsim.testing import MockLLMServer, call, http_error, reply, say

END = reply(tool_calls=[call("end_conversation", reason="satisfied")])
GAVE_UP = reply(tool_calls=[call("end_conversation", reason="gave_up")])
INSISTS = [END, END]
"""Ends satisfied, and again when told the agent has not acted yet (``LLMCustomer``'s
premature-end nudge): the end stands."""


def scenario(tmp_path: Path, **changes: Any) -> Path:
    """The refund scenario with fields (``customer`` merged) changed, as a file."""
    data = yaml.safe_load(REFUND.read_text())
    data["customer"].update(changes.pop("customer", {}))
    data.update(changes)
    path = tmp_path / "scenarios" / f"{data['id']}.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    return path


def run(
    server: MockLLMServer, tmp_path: Path, path: Path, agent: str, personas: Path = PERSONAS
) -> tuple[Any, Path]:
    """One unit of ``path``: ``agent`` with the model Customer ``openai:cust-m``, no judge."""
    args = ["run", "--scenarios", str(path), "--personas", str(personas), "--agent", agent]
    args += ["--customer", "openai:cust-m", "--statement-judge", "none"]
    args += ["--out", str(tmp_path / "runs"), "--run-id", "r"]
    return cli(server, *args, columns=220), tmp_path / "runs" / "r"


def one(run_dir: Path) -> ConversationRecord:
    (record,) = iter_records(run_dir)
    return record


def found(record: ConversationRecord) -> list[tuple[str, int, bool]]:
    assert record.customer_review is not None
    return [(f.kind, f.message_index, f.critical) for f in record.customer_review.findings]


def report(run_dir: Path, tmp_path: Path) -> tuple[dict[str, Any], str, str]:
    """The summary as ``report --json -`` prints it (rescored verdicts in place), the
    terminal report and the HTML page."""
    shown = cli(None, "report", str(run_dir), columns=220)
    assert shown.exit_code == 0, shown.output
    html = tmp_path / "r.html"
    assert cli(None, "report", str(run_dir), "--html", str(html)).exit_code == 0
    as_json = cli(None, "report", str(run_dir), "--json", "-")
    assert as_json.exit_code == 0, as_json.output
    summary = orjson.loads(as_json.stdout)
    return summary, shown.output, html.read_text()


def test_a_stop_right_after_shall_i_refund_it_is_premature_and_hinders(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    # The oracle asks "Shall I refund it?" (message 5); the Customer ends, satisfied.
    threaded_server.script("cust-m", INSISTS)
    result, run_dir = run(threaded_server, tmp_path, REFUND, "oracle")
    assert result.exit_code == 0, result.output
    record = one(run_dir)
    assert "Shall I refund it?" in record.messages[5].content
    assert found(record) == [("premature_end", 5, True)]
    assert record.status == "completed" and record.strict is False
    assert record.customer_hindered
    assert "agent-attributable" in result.output  # the end of the run shows it apart
    summary, terminal, html = report(run_dir, tmp_path)
    oracle = summary["agents"]["oracle"]
    assert oracle["strict_rate"] == 0.0 and oracle["customer_hindered"] == 1
    assert oracle["agent_attributable"]["n"] == 0  # no failure left that is the Agent's
    review = summary["customer_review"]
    assert review["hindered"] == 1
    assert review["findings"]["premature_end"] == {"found": 1, "critical": 1, "units": 1}
    assert review["by_scenario"]["mock-duplicate-refund"]["premature_end"]["critical"] == 1
    assert "customer review: 1 of 1 scored units customer-hindered" in terminal
    # the failing-checks table marks the failures that are the Customer's doing
    assert {f["hindered"] for f in summary["failing_checks"]} == {1}
    assert "(1 customer-hindered)" in terminal
    assert "premature_end" in terminal
    assert 'id="customer-review"' in html and "trial fail hindered" in html
    assert "customer-hindered" in html


def test_an_invented_id_that_failed_verification_hinders(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    # An Agent that takes the Customer at its word: it verifies the id the Customer gave.
    threaded_server.script(
        "agent-m",
        [
            say("Sure, what is your customer id and PIN?"),
            reply(tool_calls=[call("verify_identity", customer_id="C-9", pin="4321")]),
            say("Sorry, I could not verify you with those details."),
        ],
    )
    threaded_server.script("cust-m", [say("My id is C-9 and my PIN is 4321."), GAVE_UP])
    path = scenario(tmp_path, customer={"opening": "Hi, I was charged twice for March."})
    result, run_dir = run(threaded_server, tmp_path, path, "openai:agent-m")
    assert result.exit_code == 0, result.output
    record = one(run_dir)
    assert record.messages[2].content == "My id is C-9 and my PIN is 4321."
    assert ("invented_fact", 2, True) in found(record)
    assert record.customer_hindered


def test_accepting_a_credit_the_goal_refuses_is_goal_drift_and_hinders(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    threaded_server.script(
        "agent-m",
        [
            say("I can't refund that, but I can add a 30 USD store credit. Is that okay?"),
            say("Great, the store credit is noted."),
        ],
    )
    threaded_server.script("cust-m", [say("Okay, that's fine, thanks."), *INSISTS])
    path = scenario(tmp_path, customer={"refuses": ["store credit"]})
    result, run_dir = run(threaded_server, tmp_path, path, "openai:agent-m")
    assert result.exit_code == 0, result.output
    record = one(run_dir)
    assert record.messages[2].content == "Okay, that's fine, thanks."
    assert ("goal_drift", 2, True) in found(record)
    assert record.customer_hindered


def test_english_in_a_german_conversation_is_persona_drift_found_at_its_message(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    threaded_server.script(
        "agent-m",
        [
            say("Gerne helfe ich Ihnen. Wie lautet Ihre Kundennummer und Ihre PIN?"),
            say("Sure, I can help you with that in English, what is the charge about?"),
        ],
    )
    english = "My id is C-1 and my PIN is 4321, can you please look at the charges?"
    threaded_server.script("cust-m", [say(english), GAVE_UP])
    path = scenario(
        tmp_path,
        language="de",
        customer={"opening": "Hallo, mir wurde der März zweimal berechnet.", "script": []},
    )
    result, run_dir = run(threaded_server, tmp_path, path, "openai:agent-m")
    assert result.exit_code == 0, result.output
    record = one(run_dir)
    assert record.messages[2].content == english
    # The mock domain has no reply-language check: the strict failure (no refund) is not
    # of the kind a language switch explains, so the finding is reported, never hinders
    # (``scoring.review._cause``; the critical case: test_customer_cause.py).
    assert ("persona_drift", 2, False) in found(record)
    assert not record.customer_hindered
    summary, terminal, _ = report(run_dir, tmp_path)
    assert summary["failing_checks"] and {f["hindered"] for f in summary["failing_checks"]} == {0}
    assert "customer-hindered)" not in terminal


@pytest.mark.parametrize("agent", ["oracle"])
def test_a_customer_that_plays_well_hinders_nothing(
    threaded_server: MockLLMServer, tmp_path: Path, agent: str
) -> None:
    threaded_server.script(
        "cust-m",
        [say("My id is C-1 and my PIN is 4321, yes please refund CH-2."), say("Thanks!"), END],
    )
    result, run_dir = run(threaded_server, tmp_path, REFUND, agent)
    assert result.exit_code == 0, result.output
    record = one(run_dir)
    assert record.strict and found(record) == [] and not record.customer_hindered
    summary, _, _ = report(run_dir, tmp_path)
    assert summary["agents"]["oracle"]["agent_attributable"]["strict_rate"] == 1.0


def test_rescore_reviews_again_with_the_current_scenario(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    threaded_server.script("cust-m", INSISTS)
    path = scenario(tmp_path)
    result, run_dir = run(threaded_server, tmp_path, path, "oracle")
    assert result.exit_code == 0, result.output
    assert one(run_dir).customer_hindered
    again = cli(None, "rescore", str(run_dir), "--personas", str(PERSONAS), columns=220)
    assert again.exit_code == 0, again.output
    (line,) = read_rescored(run_dir)
    assert line.customer_review is not None and line.customer_hindered
    assert [f.kind for f in line.customer_review.findings] == ["premature_end"]
    # The refund made optional: no write is pending when the Customer ends, so the end is
    # no longer premature, and the failure (the Agent never said it refunded) is the Agent's.
    data = yaml.safe_load(path.read_text())
    for step in data["workflow"]:
        if step["id"] == "refund":
            step["optional"] = True
    path.write_text(yaml.safe_dump(data))
    again = cli(
        None, "rescore", str(run_dir), "--scenarios", str(path), "--personas", str(PERSONAS),
        columns=220,
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    (line,) = read_rescored(run_dir)
    assert line.strict is False and not line.customer_hindered
    assert line.customer_review is not None and line.customer_review.findings == []
    summary, _, _ = report(run_dir, tmp_path)
    assert summary["agents"]["oracle"]["customer_hindered"] == 0


def test_the_hindered_line_counts_scored_units_not_every_reviewed_one(
    threaded_server: MockLLMServer, tmp_path: Path
) -> None:
    # The Agent's provider refuses: that unit is reviewed (the Customer spoke) but not scored.
    threaded_server.default("agent-m", lambda _r: http_error(401, message="bad key"))
    threaded_server.script("cust-m", INSISTS)
    args = ["run", "--scenarios", str(REFUND), "--personas", str(PERSONAS)]
    args += ["--agent", "oracle", "--agent", "openai:agent-m", "--customer", "scripted"]
    args += ["--statement-judge", "none", "--out", str(tmp_path / "runs"), "--run-id", "r"]
    cli(threaded_server, *args, columns=220)
    run_dir = tmp_path / "runs" / "r"
    records = list(iter_records(run_dir))
    assert sum(r.customer_review is not None for r in records) == 2
    assert sum(r.strict is not None for r in records) == 1
    _, terminal, _ = report(run_dir, tmp_path)
    assert "customer review: 0 of 1 scored units customer-hindered" in terminal
