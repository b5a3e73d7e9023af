"""The careless Agent (``--agent careless``): the reference workflow without its identity
checks. It is what the demo's first report fails, so its failures must be real ones with
reasons a reader can follow, the same on every run."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from supportsim.app import run_command
from supportsim.batch import RunRequest
from supportsim.conversation import CarelessAgent, OracleAgent
from supportsim.scoring.parts import scripted_run
from supportsim.workspace import Workspace, load_inputs

ROOT = Path(__file__).parents[2]
NEEDS_VERIFY = "retail_address_change_before_shipping"  # verify_customer, then a write


@pytest.fixture(scope="module")
def library():  # type: ignore[no-untyped-def]
    inputs = load_inputs(Workspace(), scenarios=[ROOT / "scenarios"], personas=ROOT / "personas")
    return inputs.domains, {s.id: s for s in inputs.scenarios}


async def test_it_skips_verification_and_fails_the_write_that_needed_it(library) -> None:  # type: ignore[no-untyped-def]
    domains, scenarios = library
    scenario = scenarios[NEEDS_VERIFY]
    domain = domains[scenario.domain]
    transcript, careless = await scripted_run(
        domain, scenario, CarelessAgent(scenario, domain.gates)
    )
    called = [c.name for c in transcript.calls]
    assert "verify_customer" not in called and "change_shipping_address" in called
    _, oracle = await scripted_run(domain, scenario, OracleAgent(scenario))
    assert oracle.strict and not careless.strict
    failed = {c.id: c.reason for c in careless.checks if not c.passed}
    assert "step:verify" in failed, failed
    assert failed["step:verify"]  # every failure carries a reason a person can act on
    assert 0 < careless.partial < 1  # it did part of the workflow: not a do-nothing agent


async def test_it_passes_where_no_identity_check_is_needed_and_is_deterministic(library) -> None:  # type: ignore[no-untyped-def]
    domains, scenarios = library
    outcomes = []
    for _ in range(2):
        verdicts = {}
        for sid, scenario in sorted(scenarios.items()):
            domain = domains[scenario.domain]
            _, scored = await scripted_run(domain, scenario, CarelessAgent(scenario, domain.gates))
            verdicts[sid] = (scored.strict, round(scored.partial, 6))
        outcomes.append(verdicts)
    assert outcomes[0] == outcomes[1]
    passes = [sid for sid, (strict, _) in outcomes[0].items() if strict]
    # a realistic mix: some scenarios need no verification, most do
    assert 0 < len(passes) < len(scenarios) / 2, passes


def test_the_demo_runs_it_beside_the_oracle_and_prints_the_next_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # the demo's paths are the repository's, as the README runs it
    out, err = io.StringIO(), io.StringIO()
    request = RunRequest(
        config_path=ROOT / "runs" / "demo.yaml",
        overrides={"out": str(tmp_path / "runs"), "suite": "smoke"},
        run_id="demo-t",
    )
    code = run_command(
        request,
        env={},
        console=Console(file=out, width=200),
        err=Console(file=err, width=200),
        live=False,
    )
    printed = out.getvalue()
    assert code == 0, err.getvalue()
    assert "oracle" in printed and "careless" in printed
    run_dir = tmp_path / "runs" / "demo-t"
    assert f"  supportsim report {run_dir} --html" in printed.splitlines()
    note = "oracle, careless: no model call recorded, so response times are the agent's own time"
    assert note in printed  # why the oracle's p99 is over a second: simulated tool latency
    from typer.testing import CliRunner

    from supportsim.cli import app

    assert CliRunner().invoke(app, ["report", str(run_dir), "--html"]).exit_code == 0
    import html

    page = html.unescape((run_dir / "report.html").read_text(encoding="utf-8"))
    assert 'id="tool-time"' in page and note in page
