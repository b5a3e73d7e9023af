"""Baseline agents and ``supportsim validate --baselines``: agents that do nothing useful
score strict 0 everywhere and almost no partial; a scenario one of them passes is named
and fails the command."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from supportsim.cli import app
from supportsim.conversation import AgentContext
from supportsim.domains import TRANSFER_TOOL, DomainCatalogue, builtin_domains
from supportsim.environment import Environment
from supportsim.scenario import Scenario, load_personas, load_scenarios
from supportsim.scoring import CONCEPTS
from supportsim.validate import baselines, run_baselines

ROOT = Path(__file__).parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
FIXTURE = FIXTURES / "scenarios" / "mock_duplicate_refund.yaml"
DOMAINS = builtin_domains()

# A refusal scenario that asks only for "a refusal": a blanket "I can't help" passes it.
LAX_REFUSAL = """\
id: mock-lax-refusal
title: Refuse to refund the original charge
domain: mock
persona: tester
tags: [billing]
failure_mode: refunds the legitimate charge
max_turns: 6
customer:
  reason: You want the original March charge refunded too.
  known_facts: {customer_id: C-1, pin: "4321"}
  will_accept: a refusal
  opening: Please refund CH-1 as well.
workflow:
  - id: refuse
    say: [{concept: refusing}]
    text: I'm sorry, I can't refund CH-1.
    cites: Refund only the charge the customer disputes
forbidden:
  - id: refund-original
    tool: refund_charge
    args: {charge_id: CH-1}
    cites: Refund only the charge the customer disputes
outcome: refused
outcome_cites: Refund only the charge the customer disputes
"""


def load(*paths: Path) -> list[Scenario]:
    return load_scenarios(
        list(paths),
        catalogue=DomainCatalogue(DOMAINS, CONCEPTS),
        personas=load_personas([FIXTURES / "personas"]),
    )


def validate(*args: str) -> Result:
    return CliRunner().invoke(app, ["validate", *args], env={"COLUMNS": "400"})


async def test_each_baseline_does_what_its_name_says() -> None:
    (scenario,) = load(FIXTURE)
    results = {r.name: r for r in await run_baselines(DOMAINS, [scenario])}
    assert list(results) == list(baselines())
    for name, result in results.items():
        (run,) = result.runs
        assert not run.score.strict, name
    transfer = results["baseline:transfer"].runs[0]
    assert transfer.termination == "agent_transfer"
    assert "outcome" in transfer.score.failed()


async def test_baselines_speak_the_scenario_language(tmp_path: Path) -> None:
    text = FIXTURE.read_text().replace("id: mock-duplicate-refund", "id: mock-de")
    text = text.replace("persona: tester", "persona: tester\nlanguage: de")
    (tmp_path / "de.yaml").write_text(text)
    (scenario,) = load(tmp_path / "de.yaml")
    agent = baselines()["baseline:refuse"](scenario, DOMAINS["mock"])
    step = await agent.step(AgentContext("", ()), [])
    assert step.content == "Es tut mir leid, dabei kann ich Ihnen nicht helfen."
    assert not step.tool_calls


async def test_the_transfer_baseline_calls_the_transfer_tool_first() -> None:
    (scenario,) = load(FIXTURE)
    from supportsim.conversation import AgentContext

    env = Environment(DOMAINS["mock"], scenario)
    agent = baselines()["baseline:transfer"](scenario, DOMAINS["mock"])
    step = await agent.step(AgentContext("", tuple(env.schemas())), [])
    assert [c.name for c in step.tool_calls] == [TRANSFER_TOOL]


def test_validate_baselines_names_a_scenario_a_baseline_passes_and_exits_1(
    tmp_path: Path,
) -> None:
    (tmp_path / "lax.yaml").write_text(LAX_REFUSAL)
    result = validate(str(tmp_path), "--personas", str(FIXTURES / "personas"), "--baselines")
    assert result.exit_code == 1, result.output
    assert "1 passed, 0 failed" in result.output  # the oracle passes: only a baseline fails
    assert "baseline:refuse passes mock-lax-refusal strictly (a scenario defect)" in result.output
    assert "baselines failed" in result.output


def test_validate_baselines_json_gives_each_baseline_per_scenario(tmp_path: Path) -> None:
    import orjson

    (tmp_path / "lax.yaml").write_text(LAX_REFUSAL)
    result = validate(
        str(tmp_path), "--personas", str(FIXTURES / "personas"), "--baselines", "--json"
    )
    assert result.exit_code == 1, result.output
    (row,) = orjson.loads(result.output)
    assert row["baselines"]["baseline:refuse"]["strict"] is True
    assert set(row["baselines"]) == set(baselines())
