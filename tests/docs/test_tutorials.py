"""Every code block of every tutorial is run, offline, against the mock server (see
``blocks.py`` for how a block is marked). A block that cannot run offline is marked
``.offline`` and counted here, so one is never left out by accident."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from blocks import docs_blocks, run_blocks, unmarked

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
OFFLINE = {
    "tutorials/your-agent.md": 1,  # a real OpenAI key
    "tutorials/your-domain.md": 0,
    "tutorials/overnight-runs.md": 1,  # real keys
    "tutorials/ci-gates.md": 1,  # the workflow file runs on a CI service
    "tutorials/tau2.md": 2,  # cloning tau2-bench; a run with real models
    "tutorials/latency.md": 1,  # real keys
}
"""Each tutorial page -> how many of its blocks cannot run offline."""


def test_every_tutorial_page_is_listed() -> None:
    pages = {str(p.relative_to(DOCS)) for p in (DOCS / "tutorials").glob("*.md")}
    assert pages <= set(OFFLINE)


@pytest.mark.parametrize("page", sorted(OFFLINE))
def test_every_block_is_marked_and_the_offline_ones_counted(page: str) -> None:
    blocks = docs_blocks((DOCS / page).read_text(encoding="utf-8"))
    assert blocks, page
    bad = [(b.line, b.lang) for b in unmarked(blocks)]
    assert bad == [], f"{page}: mark each block .run, .file or .offline (lines {bad})"
    assert sum(b.kind == "offline" for b in blocks) == OFFLINE[page]
    assert all(b.title for b in blocks if b.kind == "file")


def run_page(page: str, folder: Path):  # type: ignore[no-untyped-def]
    reader = run_blocks(docs_blocks((DOCS / page).read_text(encoding="utf-8")), folder)
    assert reader.real_cli, f"{page}: no supportsim command ran as a child process"
    return reader


def records(run_dir: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in (run_dir / "conversations.jsonl").open()]


def test_your_agent(tmp_path: Path) -> None:
    reader = run_page("tutorials/your-agent.md", tmp_path)
    runs = reader.work / "my-agent" / "runs"
    assert (runs / "first" / "report.html").is_file()
    for run in ("first", "with-model-customer", "second"):
        assert {r["agent"] for r in records(runs / run)} == {"my-agent"}, run
    assert "no detectable difference" in reader.outputs[-1]


def test_your_domain(tmp_path: Path) -> None:
    reader = run_page("tutorials/your-domain.md", tmp_path)
    printed = "".join(reader.outputs)
    assert "1 passed, 0 failed" in printed
    assert "verify_identity was never called" in printed  # careless, as the page says


def test_overnight_runs(tmp_path: Path) -> None:
    reader = run_page("tutorials/overnight-runs.md", tmp_path)
    run = reader.work / "evals" / "runs" / "night"
    units = {r["unit_id"] for r in records(run)}
    assert len(units) == 10 * 2 * 2  # smoke x two agents x two trials, once each
    assert json.loads((run / "run.json").read_text())["status"] == "completed"


def test_ci_gates(tmp_path: Path) -> None:
    reader = run_page("tutorials/ci-gates.md", tmp_path)
    work = reader.work / "ci"
    assert (work / "junit.xml").is_file() and (work / "summary.md").is_file()
    printed = "".join(reader.outputs)
    assert "gate failed" in printed and "regression" in printed


def test_tau2(tau2_tutorial: Path) -> None:
    # run once for this test and tests/tau2/test_import.py's proof (tests/conftest.py), with
    # what the offline block would clone: tau2-bench's retail data, as the tests carry it
    assert list((tau2_tutorial / "tau2" / "scenarios" / "tau2_retail").glob("tau2_retail_*.yaml"))


def test_latency(tmp_path: Path) -> None:
    reader = run_page("tutorials/latency.md", tmp_path)
    printed = "".join(reader.outputs)
    assert "fast" in printed and "slow" in printed
