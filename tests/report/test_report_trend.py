"""``supportsim trend``: three nightly runs with one planted regression, which the trend
marks, and nothing else.

The runs are written with the store's writers. alpha passes 10/10 scenarios, then 9/10
(one flip: noise), then 2/10 (the planted regression: 7 more scenarios fail). beta wobbles
by one scenario each night and its latency triples (latency is shown, never tested); its
second run has a harness error (not scored). Directory names sort in another order than
the start times, so the order must come from run.json.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from supportsim.cli import app
from supportsim.report import compare_runs, expand_runs, load_run, order_runs, started_at, trend
from supportsim.store import ConversationRecord, RecordWriter, write_json

SCENARIOS = [f"s{i:02d}" for i in range(10)]
EVIL = "<img src=x onerror=alert(1)>"
NIGHTS = {  # directory -> (run id, start, {agent: passing scenario count}, response_ms)
    "c-first": ("n1", "2025-03-01T02:00:00+00:00", {"alpha": 10, "beta": 7}, 1000.0),
    "a-second": ("n2", "2025-03-02T02:00:00+00:00", {"alpha": 9, "beta": 8}, 1200.0),
    "b-third": ("n3", "2025-03-03T02:00:00+00:00", {"alpha": 2, "beta": 7}, 1100.0),
}


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})


def record(
    scenario: str, agent: str, *, passed: bool, response_ms: float, status: str = "completed"
) -> ConversationRecord:
    scored = status == "completed"
    return ConversationRecord.model_validate(
        {
            "unit_id": f"{scenario}|{agent}|1",
            "scenario_id": scenario,
            "domain": "mock",
            "category": "billing",
            "agent": agent,
            "customer": "scripted",
            "trial": 1,
            "status": status,
            "termination": "customer_done" if scored else "error",
            "strict": passed and scored,
            "partial": (1.0 if passed else 0.5) if scored else 0.0,
            "messages": [
                {"role": "customer", "content": "hello", "turn": 1},
                {
                    "role": "agent",
                    "content": "done",
                    "turn": 1,
                    "response_ms": response_ms,
                    "cost_usd": 0.002,
                },
            ],
            "cost_usd": 0.002,
            "agent_cost_usd": 0.002,
            "error": None if scored else "Traceback: boom",
            "started_at": "2025-03-01T02:00:00+00:00",
            "ended_at": "2025-03-01T02:00:05+00:00",
        }
    )


def write_run(
    folder: Path, run_id: str, started: str, passing: dict[str, int], response_ms: float
) -> Path:
    folder.mkdir(parents=True)
    agents = sorted(passing)
    write_json(
        folder / "run.json",
        {
            "run_id": run_id,
            "config": {"agents": agents, "trials": 1},
            "scenarios": {s: "0" * 64 for s in SCENARIOS},
            "started_at": started,
            "ended_at": started,
            "status": "completed",
        },
    )
    writer = RecordWriter(folder)
    for agent in agents:
        ms = response_ms * (3 if agent == "beta" and run_id == "n3" else 1)
        for i, scenario in enumerate(SCENARIOS):
            status = "harness_error" if (agent, run_id, i) == ("beta", "n2", 9) else "completed"
            writer.append(
                record(scenario, agent, passed=i < passing[agent], response_ms=ms, status=status)
            )
    writer.close()
    return folder


@pytest.fixture
def nights(tmp_path: Path) -> Path:
    """runs/ holding the three nights (and a stray file a quoted glob must skip)."""
    runs = tmp_path / "runs"
    for name, (run_id, started, passing, ms) in NIGHTS.items():
        write_run(runs / name, run_id, started, passing, ms)
    (runs / "notes.txt").write_text("not a run")
    return runs


def trend_of(runs: Path) -> dict[str, Any]:
    return trend([load_run(p) for p in sorted(runs.iterdir()) if p.is_dir()])


def test_the_planted_regression_is_marked_and_nothing_else(nights: Path) -> None:
    doc = trend_of(nights)
    assert [r["run_id"] for r in doc["runs"]] == ["n1", "n2", "n3"]  # by start time
    assert {(c["agent"], c["from_run"], c["to_run"], c["direction"]) for c in doc["changes"]} == {
        ("alpha", "n2", "n3", "regression")
    }
    assert {c["metric"] for c in doc["changes"]} == {"strict", "partial"}
    strict = next(c for c in doc["changes"] if c["metric"] == "strict")
    assert strict["delta_points"] == pytest.approx(-70.0)
    assert strict["p"] < 0.05 and strict["ci95_points"][1] < 0
    alpha = doc["agents"]["alpha"]
    assert [p["strict"] for p in alpha] == [1.0, 0.9, 0.2]
    assert alpha[0]["change"] is None
    assert alpha[1]["change"]["marked"] == []  # one flip is noise
    assert alpha[1]["change"]["strict"]["delta_points"] == pytest.approx(-10.0)
    beta = doc["agents"]["beta"]
    assert [p["change"]["marked"] for p in beta[1:]] == [[], []]
    assert [p["response_ms_p90"] for p in beta] == [1000.0, 1200.0, 3300.0]  # shown, not tested
    assert beta[1]["status"] == {"completed": 9, "harness_error": 1}
    assert beta[1]["n"] == 9  # the harness error is not scored
    assert [p["cost_mean_usd"] for p in beta] == [pytest.approx(0.002)] * 3
    assert [p["pass_hat_k"] for p in alpha] == [1.0, 0.9, 0.2]


def test_the_trend_marks_what_compare_reports(nights: Path) -> None:
    """The same pairs and tests as ``supportsim compare``: both call the same changes."""
    doc = trend_of(nights)
    runs = {r.run_id: r for r in (load_run(p) for p in nights.iterdir() if p.is_dir())}
    for before, after in (("n1", "n2"), ("n2", "n3")):
        comparison = compare_runs(runs[before], runs[after])
        for row in comparison["agents"]:
            point = next(p for p in doc["agents"][row["agent_a"]] if p["run_id"] == after)
            for metric in ("strict", "partial"):
                assert point["change"][metric]["detected"] == row[metric]["detected"]
                assert point["change"][metric]["p"] == row[metric]["p"]


def test_the_terminal_marks_only_the_regression(nights: Path) -> None:
    result = cli("trend", *sorted(p for p in nights.iterdir() if p.is_dir()))
    assert result.exit_code == 0, result.output  # a regression is shown, not a failure
    marked = [line for line in result.output.splitlines() if "▼" in line or "▲" in line]
    assert len(marked) == 3  # alpha's n3 row (strict and partial), and the two changes
    assert all("n3" in line for line in marked)
    assert "▲" not in result.output
    assert "alpha: strict regression n2 → n3: -70.0 points" in result.output
    assert "alpha: partial regression n2 → n3" in result.output
    assert (
        result.output.index("│ n1 ") < result.output.index("│ n2 ") < result.output.index("│ n3 ")
    )


def test_a_quoted_glob_and_a_shell_expanded_list_give_the_same_trend(
    nights: Path, tmp_path: Path
) -> None:
    quoted = cli("trend", str(nights / "*"), "--json", tmp_path / "a.json")
    expanded = cli("trend", *sorted(nights.iterdir())[::-1], "--json", tmp_path / "b.json")
    assert expanded.exit_code == 2  # the shell also passes notes.txt: not a run directory
    assert "notes.txt" in expanded.output
    dirs = [p for p in sorted(nights.iterdir()) if p.is_dir()][::-1]
    expanded = cli("trend", *dirs, "--json", tmp_path / "b.json")
    assert quoted.exit_code == expanded.exit_code == 0, quoted.output + expanded.output
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a["changes"] == b["changes"]
    assert [r["run_id"] for r in a["runs"]] == [r["run_id"] for r in b["runs"]]
    assert expand_runs([str(nights / "*"), str(nights / "a-second")]) == [
        nights / "a-second",
        nights / "b-third",
        nights / "c-first",
    ]


def test_json_to_standard_output_is_json_alone(nights: Path) -> None:
    result = cli("trend", str(nights / "*"), "--json", "-")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [(c["agent"], c["to_run"]) for c in doc["changes"]] == [("alpha", "n3")] * 2


@pytest.mark.parametrize(
    ("arg", "message"),
    [("nowhere-*", "nowhere-*: matches no run directory"), ("missing-run", "not a run directory")],
)
def test_bad_paths_exit_2(nights: Path, arg: str, message: str) -> None:
    result = cli("trend", nights / "c-first", nights / arg)
    assert result.exit_code == 2
    assert message in result.output


def test_the_html_page_is_self_contained_escaped_and_marks_the_regression(
    nights: Path, tmp_path: Path
) -> None:
    write_run(nights / "d-evil", "n4", "2025-03-04T02:00:00+00:00", {EVIL: 5, "alpha": 2}, 900.0)
    page = tmp_path / "trend.html"
    result = cli("trend", str(nights / "*"), "--html", page)
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert EVIL not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<script" not in html
    assert "script-src &#39;none&#39;" in html  # the CSP allows no script at all
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert html.count("<svg") == 6
    rings = re.findall(r'<circle class="mark (\w+)"[^>]*><title>([^<]*)</title>', html)
    assert [(d, t.split(":")[0]) for d, t in rings] == [("regression", "alpha")] * 2
    assert all("from n2" in t for _, t in rings)
    items = re.findall(r'<li class="mark (\w+)">(.*?)</li>', html, flags=re.S)
    assert len(items) == 2 and all("n2 → n3" in body for _, body in items)


def test_runs_without_a_start_in_run_json_are_ordered_by_their_first_record(
    tmp_path: Path,
) -> None:
    """A run without run.json starts with its first record; a run with no start goes last."""
    early, late, empty = tmp_path / "z-early", tmp_path / "a-late", tmp_path / "m-empty"
    for folder, started in ((early, "2025-01-01T00:00:00+00:00"), (late, "2025-02-01T00:00:00")):
        folder.mkdir()
        writer = RecordWriter(folder)
        r = record("s00", "alpha", passed=True, response_ms=10.0)
        writer.append(r.model_copy(update={"started_at": started}))
        writer.close()
    empty.mkdir()
    (empty / "conversations.jsonl").write_text("")
    ordered = order_runs([load_run(p) for p in (empty, late, early)])
    assert [r.run_id for r in ordered] == ["z-early", "a-late", "m-empty"]
    assert started_at(ordered[2]) is None


def _edit_manifest(run_dir: Path, **changes: Any) -> None:
    path = run_dir / "run.json"
    manifest = json.loads(path.read_text())
    for key, value in changes.items():
        if key == "config":
            manifest["config"].update(value)
        else:
            manifest[key] = value
    path.write_text(json.dumps(manifest))


def test_a_change_across_different_setups_is_not_marked_and_says_why(nights: Path) -> None:
    # the night of the planted regression also changed the Customer: not the Agent's doing
    _edit_manifest(nights / "b-third", config={"customer": "openai:gpt-5-mini"})
    doc = trend_of(nights)
    assert doc["changes"] == []
    change = doc["agents"]["alpha"][2]["change"]
    assert change["strict"]["detected"] is True and change["marked"] == []
    assert change["setup_differences"] == ["Customer: scripted (A) vs openai:gpt-5-mini (B)"]
    assert any(line.startswith("≠ n2 → n3: setups differ") for line in doc["caveats"])
    shown = cli("trend", *sorted(p for p in nights.iterdir() if p.is_dir()))
    assert shown.exit_code == 0
    assert "-70.0 ≠" in shown.output and "▼" not in shown.output
    assert "≠ n2 → n3: setups differ, changes not marked: Customer" in shown.output


def test_a_saturated_runs_latency_is_flagged_unreliable(nights: Path, tmp_path: Path) -> None:
    lag = {"interval_ms": 100.0, "samples": 400, "p50_ms": 90.0, "p99_ms": 813.0}
    _edit_manifest(nights / "a-second", loop_lag=lag)
    doc = trend_of(nights)
    beta = doc["agents"]["beta"]
    assert [p["latency_unreliable"] for p in beta] == [False, True, False]
    assert [r["saturated_lag_p99_ms"] for r in doc["runs"]] == [None, 813.0, None]
    assert any(line.startswith("~ n2: its client was saturated") for line in doc["caveats"])
    html = tmp_path / "trend.html"
    shown = cli("trend", *sorted(p for p in nights.iterdir() if p.is_dir()), "--html", html)
    assert "~1,200" in shown.output or "~1200" in shown.output
    assert "~ n2: its client was saturated (event-loop lag p99 813 ms" in shown.output
    assert "its client was saturated" in html.read_text()
