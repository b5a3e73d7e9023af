"""ConversationRules as an extension point: a benchmark's rules, registered by name, are
imported only when a scenario uses them and change how the orchestrator holds it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from supportsim.conversation import (
    SUPPORTSIM_RULES,
    AgentContext,
    CustomerStep,
    CustomerTurn,
    Message,
    OracleAgent,
    SupportsimRules,
    Termination,
    register_rules,
    rules_for,
    rules_name,
    run_conversation,
)
from supportsim.conversation import _rules as rules_module
from supportsim.domains import mock
from supportsim.environment import Environment, ToolResult
from supportsim.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "scenarios" / "mock_duplicate_refund.yaml"
PLUGIN = textwrap.dedent(
    """
    from supportsim.conversation import SupportsimRules

    def rules():
        return SupportsimRules(name="bench", greeting="Welcome to bench.")
    """
)


def scenario() -> Scenario:
    return Scenario.model_validate(yaml.safe_load(FIXTURE.read_text()))


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registrations made by a test end with it."""
    monkeypatch.setattr(rules_module, "_PLUGINS", dict(rules_module._PLUGINS))


def test_registered_rules_are_imported_only_for_the_scenarios_they_claim(
    plugins: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bench_rules_plugin.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "bench_rules_plugin", raising=False)
    plain = scenario()
    claimed = replace_id(plain, "bench_task_1")
    register_rules("bench", "bench_rules_plugin:rules", lambda s: s.id.startswith("bench_"))

    assert rules_for("auto", plain) is SUPPORTSIM_RULES
    assert rules_name("auto", plain) == "supportsim"
    assert "bench_rules_plugin" not in sys.modules

    rules = rules_for("auto", claimed)
    assert (rules.name, rules.greeting) == ("bench", "Welcome to bench.")
    assert "bench_rules_plugin" in sys.modules
    assert rules_for("bench", plain).name == "bench"  # a forced mode holds every scenario
    assert rules_for("supportsim", claimed) is SUPPORTSIM_RULES


def replace_id(s: Scenario, new_id: str) -> Scenario:
    return s.model_copy(update={"id": new_id})


@dataclass(frozen=True, slots=True)
class Bench(SupportsimRules):
    """Rules of a made-up benchmark: it greets, marks tool texts, stops after 4 steps."""

    name: str = "bench"
    greeting: str | None = "Welcome to bench."

    def tool_text(self, result: ToolResult) -> str:
        return "BENCH " + result.content

    def over_bounds(self, steps: int, errors: int) -> tuple[Termination, str] | None:
        return ("max_turns", f"bench: {steps} steps") if steps >= 4 else None


class Talker:
    name = "talker"

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    async def step(self, turn: CustomerTurn) -> CustomerStep:
        self.seen = [(v.role, v.content) for v in turn.view]
        return CustomerStep(content="I was charged twice for order A-1.")


async def test_the_orchestrator_holds_a_conversation_by_the_rules_it_is_given() -> None:
    s = scenario()
    customer = Talker()
    transcript = await run_conversation(
        Environment(mock.domain(), s), OracleAgent(s), customer, AgentContext("", ()), rules=Bench()
    )

    first: Message = transcript.messages[0]
    assert (first.role, first.content) == ("agent", "Welcome to bench.")
    assert customer.seen[0] == ("agent", "Welcome to bench.")  # the Customer saw the greeting
    # the rules' bound, checked after a step that does not call tools (here: tool results)
    assert transcript.termination == "max_turns"
    assert transcript.end_reason in {"bench: 4 steps", "bench: 5 steps"}
    tools = [m for m in transcript.messages if m.role == "tool"]
    assert tools and all(m.content.startswith("BENCH ") for m in tools)


async def test_our_rules_are_the_default_and_the_customer_opens() -> None:
    s = scenario()
    transcript = await run_conversation(
        Environment(mock.domain(), s),
        OracleAgent(s),
        Talker(),
        AgentContext("", ()),
    )
    assert transcript.messages[0].role == "customer"
    tools = [m for m in transcript.messages if m.role == "tool"]
    assert tools and not any(m.content.startswith("BENCH ") for m in tools)


PROBE = textwrap.dedent(
    """
    import asyncio, sys
    import supportsim

    result = asyncio.run(supportsim.run(
        scenarios=[sys.argv[1]], personas=sys.argv[2], agents=["oracle"],
        customer="scripted", out=sys.argv[3], trials=1,
    ))
    assert result.status == "completed", result.status
    plugged = ("supportsim.tau2", "supportsim.importers")
    print(sorted(m for m in sys.modules if m.startswith(plugged)))
    """
)


def test_a_run_without_a_tau2_scenario_never_imports_the_tau2_package(tmp_path: Path) -> None:
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    for path in sorted((ROOT / "scenarios" / "appointments").glob("*.yaml"))[:2]:
        (scenarios / path.name).write_bytes(path.read_bytes())
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(scenarios), str(ROOT / "personas"), str(tmp_path / "r")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"
