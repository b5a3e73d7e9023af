"""``supportsim judge``: the command over a mock server (in a thread: the CLI runs its own
event loop), its exit codes, and the terminal view of the agreement."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from judge_helpers import PerUnitJudge, make_run, table_of
from rich.console import Console
from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.judges import (
    AGREEMENT,
    JUDGES_MANIFEST,
    agreement_summary,
    render_html,
    render_terminal,
)
from supportsim.store import read_json
from supportsim.testing import MockLLMServer

STRICT = "1111 1100 1000"


@pytest.fixture
def threaded() -> Iterator[MockLLMServer]:
    server = MockLLMServer()
    server.start_in_thread()
    try:
        yield server
    finally:
        server.stop_thread()


def invoke(server: MockLLMServer | None, *args: str):
    env = {"COLUMNS": "200", "OPENAI_API_KEY": "sk-test-cli"}
    if server is not None:
        env["OPENAI_BASE_URL"] = server.url + "/v1"
    return CliRunner().invoke(app, ["judge", *args], env=env)


def test_judge_prints_agreement_and_writes_the_files(
    tmp_path: Path, threaded: MockLLMServer
) -> None:
    run = make_run(tmp_path, pattern=STRICT)
    threaded.default("j1", PerUnitJudge(table_of("1111 1100 0000")))
    threaded.default("j2", PerUnitJudge(table_of("1111 1111 1111")))
    result = invoke(threaded, str(run), "--judge", "openai:j1", "--judge", "openai:j2")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "judging run1: 24 judgment(s) to make (12 conversations x 2 judges x 1 samples" in out
    assert "[24/24]" in out
    assert "pass rate per agent" in out
    assert "Fleiss' kappa (overall, 12 units, 2 judges): -0.33" in out  # by hand: below
    assert "openai:j2 passes what the rules fail (5)" in out
    assert "judges split on 6 conversation(s)" in out
    assert (run / AGREEMENT).exists()
    assert read_json(run / AGREEMENT) == agreement_summary(run)
    assert read_json(run / JUDGES_MANIFEST)["sessions"][0]["status"] == "completed"
    assert "sk-test-cli" not in "".join(p.read_text() for p in run.iterdir())


def test_fleiss_for_two_judges_by_hand(tmp_path: Path, threaded: MockLLMServer) -> None:
    # j1 passes 6 of 12, j2 all 12: agreeing units (both pass) 6 -> P-bar = 6/12;
    # p(pass) = 18/24 -> Pe = 9/16 + 1/16 = 5/8; kappa = (1/2 - 5/8) / (3/8) = -1/3.
    run = make_run(tmp_path, pattern=STRICT)
    threaded.default("j1", PerUnitJudge(table_of("1111 1100 0000")))
    threaded.default("j2", PerUnitJudge(table_of("1111 1111 1111")))
    assert invoke(threaded, str(run), "--judge", "openai:j1", "--judge", "openai:j2").exit_code == 0
    fleiss = agreement_summary(run)["fleiss"]["overall"]
    assert fleiss["kappa"] == pytest.approx(-1 / 3)


def test_infra_errors_exit_1(tmp_path: Path, threaded: MockLLMServer) -> None:
    run = make_run(tmp_path, agents=("A",), trials=1, pattern="1")
    result = invoke(threaded, str(run), "--judge", "openai:unscripted")
    assert result.exit_code == 1, result.output
    assert "infra_error: provider error: openai:unscripted: HTTP 400" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--judge", "openai:j1", "--rubric", "missing.yaml"], "missing.yaml: cannot read file"),
        (["--judge", "bogus"], "unknown model spec 'bogus'"),
        (["--human", "missing.csv"], "cannot read human labels"),
        ([], "give at least one --judge"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    run = make_run(tmp_path, agents=("A",), trials=1, pattern="1")
    before = sorted(p.name for p in run.iterdir())
    result = invoke(None, str(run), *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert sorted(p.name for p in run.iterdir()) == before


def test_not_a_run_exits_2(tmp_path: Path) -> None:
    result = invoke(None, str(tmp_path), "--judge", "openai:j1")
    assert result.exit_code == 2
    assert "not a run directory" in result.output


def test_the_terminal_view_prints_model_text_verbatim(
    tmp_path: Path, threaded: MockLLMServer
) -> None:
    run = make_run(tmp_path, agents=("A", "[red]B[/red]"), trials=1, pattern="10")
    threaded.default("j1", PerUnitJudge(table_of("11", agents=("A", "[red]B[/red]"), trials=1)))
    threaded.default("j2", PerUnitJudge(table_of("10", agents=("A", "[red]B[/red]"), trials=1)))
    assert invoke(threaded, str(run), "--judge", "openai:j1", "--judge", "openai:j2").exit_code == 0
    console = Console(width=200, record=True)
    console.print(render_terminal(agreement_summary(run)))
    text = console.export_text()
    assert "[red]B[/red]" in text
    assert "judges split on 1 conversation(s)" in text


def test_the_terminal_view_of_an_unjudged_run(tmp_path: Path) -> None:
    run = make_run(tmp_path, agents=("A",), trials=1, pattern="1")
    summary = agreement_summary(run)
    assert summary == {
        "schema_version": 1,
        "available": False,
        "reason": "no judgments in this run (supportsim judge)",
    }
    console = Console(width=100, record=True)
    console.print(render_terminal(summary))
    assert console.export_text().strip() == "no judgments in this run (supportsim judge)"


def test_the_html_section_escapes_model_text(tmp_path: Path, threaded: MockLLMServer) -> None:
    agents = ("A", "<script>x</script>")
    run = make_run(tmp_path, agents=agents, trials=1, pattern="10")
    threaded.default("j1", PerUnitJudge(table_of("11", agents=agents, trials=1)))
    threaded.default("j2", PerUnitJudge(table_of("10", agents=agents, trials=1)))
    assert invoke(threaded, str(run), "--judge", "openai:j1", "--judge", "openai:j2").exit_code == 0
    html = str(render_html(agreement_summary(run)))
    assert "<script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html
    assert "Conversations where the judges split (1)" in html
    assert 'title="Overall not ok."' in html
    assert str(render_html({"available": False, "reason": "none"})).count("<p>none</p>") == 1


def test_report_shows_the_judges_agreement_in_terminal_json_and_html(
    tmp_path: Path, threaded: MockLLMServer
) -> None:
    run = make_run(tmp_path, pattern=STRICT)
    threaded.default("j1", PerUnitJudge(table_of("1111 1100 0000")))
    threaded.default("j2", PerUnitJudge(table_of("1111 1111 1111")))
    assert invoke(threaded, str(run), "--judge", "openai:j1", "--judge", "openai:j2").exit_code == 0
    result = CliRunner().invoke(
        app, ["report", str(run), "--json", "--html"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "Fleiss' kappa (overall, 12 units, 2 judges): -0.33" in result.output
    summary = read_json(run / "summary.json")
    assert summary["judges"]["available"] is True
    assert summary["judges"] == agreement_summary(run)
    html = (run / "report.html").read_text(encoding="utf-8")
    assert '<section class="judges' in html
    assert html.index('<section class="judges') < html.index('<section id="scenarios">')
