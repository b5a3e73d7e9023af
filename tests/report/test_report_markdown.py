"""``report --markdown``: a GitHub job summary, checked structurally with markdown-it-py
(CommonMark plus GitHub's table rule): headings, tables whose every row has the header's
cells, and model text that stays text in its one cell."""

from __future__ import annotations

from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token
from typer.testing import CliRunner

from supportsim.report import load_run, summarise_run
from supportsim.report._markdown import md, render_markdown
from supportsim.store import AgentRow, FailingCheck, Percentiles, ReasonCount, Summary

PARSER = MarkdownIt("commonmark").enable("table").enable("strikethrough")


def _tables(tokens: list[Token]) -> list[list[list[str]]]:
    """Each table as rows of cell texts (header row first), as a reader sees them."""
    tables: list[list[list[str]]] = []
    row: list[str] | None = None
    for i, tok in enumerate(tokens):
        if tok.type == "table_open":
            tables.append([])
        elif tok.type == "tr_open":
            row = []
        elif tok.type in ("th_open", "td_open"):
            inline = tokens[i + 1]
            assert row is not None
            row.append("".join(c.content for c in inline.children or [] if c.type == "text"))
        elif tok.type == "tr_close":
            assert row is not None
            tables[-1].append(row)
    return tables


def _all_types(tokens: list[Token]) -> set[str]:
    found = set()
    for tok in tokens:
        found.add(tok.type)
        found.update(c.type for c in tok.children or [])
    return found


def _headings(tokens: list[Token]) -> list[tuple[str, str]]:
    return [
        (tok.tag, "".join(c.content for c in tokens[i + 1].children or [] if c.type == "text"))
        for i, tok in enumerate(tokens)
        if tok.type == "heading_open"
    ]


def test_a_run_renders_headings_and_regular_tables(v1_dir: Path) -> None:
    run = load_run(v1_dir)
    text = render_markdown(summarise_run(run), run_id=run.run_id)
    tokens = PARSER.parse(text)
    assert _headings(tokens) == [
        ("h2", "supportsim report: v1"),
        ("h3", "Leaderboard"),
        ("h3", "Checks that fail most often"),
    ]
    leaderboard, failing = _tables(tokens)
    header = leaderboard[0]
    assert header[:3] == ["agent", "scored / units", "strict"]
    assert "pass^2" in header and "agent $ / conv" in header
    assert all(len(row) == len(header) for row in leaderboard)
    assert [row[0] for row in leaderboard[1:]] == ["beta", "alpha"]  # best first
    assert leaderboard[2][2] == "50.0%"
    assert leaderboard[2][header.index("agent $ / conv")] == "$0.0030"
    assert all(len(row) == len(failing[0]) == 5 for row in failing)
    assert failing[1][:3] == ["plan_upgrade", "state (state)", "2 / 4"]
    # the reason with rich markup and HTML is plain text in its cell
    reasons = [row[4] for row in failing]
    assert "refund_order was never called" in reasons
    assert "html_inline" not in _all_types(tokens)
    assert "- beta: harness\\_error 1" in text  # the units not scored, per agent


def test_model_text_stays_in_its_cell_as_text() -> None:
    hostile = (
        "a | b\nnew line **bold** [link](http://x.test) ![img](http://x.test/i.png) "
        "<script>alert(1)</script> `code` $x$ # not a heading &amp; \\| _em_ \x1b[31m"
    )
    row = AgentRow.model_construct(  # only what the Markdown shows
        n=1,
        units=1,
        strict_rate=0.0,
        strict_ci95=[0.0, 0.79],
        partial_mean=0.5,
        partial_gap=0.5,
        pass_hat_k={"1": 0.0},
        response_ms=Percentiles(p50=10.0, p90=20.0),
        agent_cost_mean_usd=None,
        cost_mean_usd=None,
        status={"completed": 1},
    )
    failing = FailingCheck(
        scenario_id="s|1",
        check_id="c",
        kind="step",
        failed=1,
        evaluated=1,
        agents={hostile: 1},
        reasons=[ReasonCount(reason=hostile, count=1)],
    )
    summary = Summary.model_construct(
        units=1, trials=1, agents={hostile: row}, failing_checks=[failing]
    )
    tokens = PARSER.parse(render_markdown(summary, run_id="r|1"))
    leaderboard, failing = _tables(tokens)
    assert all(len(row) == len(leaderboard[0]) for row in leaderboard)
    assert all(len(row) == 5 for row in failing)
    shown = " ".join(hostile.replace("\x1b", "\\x1b").split())
    assert leaderboard[1][0] == shown  # exactly the text, on one line, in one cell
    assert failing[1][0] == "s|1"
    assert failing[1][4] == shown
    types = _all_types(tokens)
    for markup in (
        "html_inline",
        "html_block",
        "link_open",
        "image",
        "strong_open",
        "em_open",
        "code_inline",
    ):
        assert markup not in types, markup
    assert _headings(tokens)[0] == ("h2", "supportsim report: r|1")


def test_md_escapes_and_limits() -> None:
    assert md("a|b") == "a\\|b"
    assert md("x\ny") == "x y"
    assert md("<b>") == "&lt;b&gt;"
    assert md("abcdef", 4) == "abc…"
    assert md("plain words 42") == "plain words 42"
    # No mention pings and no autolinks from model text (GFM would make both live).
    assert md("ask @octocat") == "ask &#64;octocat"
    assert md("see https://evil.example/x and www.evil.example") == (
        "see https:&#47;&#47;evil.example/x and www&#46;evil.example"
    )


def test_report_markdown_writes_the_file_with_the_gates(v1_copy: Path, tmp_path: Path) -> None:
    target = tmp_path / "summary.md"
    result = CliRunner().invoke(
        app_(),
        ["report", str(v1_copy), "--markdown", str(target), "--fail-under", "strict=0.55"],
        env={"COLUMNS": "300"},
    )
    assert result.exit_code == 1  # alpha is at 50%
    tokens = PARSER.parse(target.read_text(encoding="utf-8"))
    assert ("h3", "Gates") in _headings(tokens)
    shown = ["".join(c.content for c in t.children or []) for t in tokens if t.type == "inline"]
    items = [text for text in shown if "gate failed" in text]
    assert items == ["gate failed: agent alpha: strict 50.0% < 55.0% (--fail-under strict=0.55)"]


def app_():
    from supportsim.cli import app

    return app


def test_report_markdown_dash_prints_only_markdown_on_stdout(v1_dir: Path) -> None:
    result = CliRunner().invoke(app_(), ["report", str(v1_dir), "--markdown", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("## supportsim report: v1\n")
    assert "leaderboard: quality" not in result.stdout  # the terminal view is on stderr
    assert "leaderboard: quality" in result.stderr
    both = CliRunner().invoke(app_(), ["report", str(v1_dir), "--markdown", "-", "--json", "-"])
    assert both.exit_code == 2
    assert "only one can go to standard output" in both.output
