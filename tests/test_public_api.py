"""The user contract: ``import supportsim`` and nothing else drives a run from Python."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import supportsim

HERE = Path(__file__).parent
SCENARIOS = HERE / "batch" / "scenarios"
PERSONAS = HERE / "fixtures" / "personas"


def test_every_public_name_resolves_and_is_listed() -> None:
    for name in supportsim.__all__:
        assert getattr(supportsim, name) is not None
    assert set(supportsim.__all__) <= set(dir(supportsim))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = supportsim.nope  # type: ignore[attr-defined]


def test_import_is_cheap_and_loads_nothing_until_used() -> None:
    code = (
        "import sys, supportsim; "
        "print(any(m.startswith(('supportsim.batch', 'langgraph', 'openai')) for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


async def test_run_from_python_returns_a_typed_result(tmp_path: Path) -> None:
    result = await supportsim.run(
        scenarios=[str(SCENARIOS)],
        personas=str(PERSONAS),
        out=str(tmp_path),
        run_id="api",
        trials=2,
    )
    assert isinstance(result, supportsim.RunResult)
    assert result.ok and result.status == "completed"
    assert result.run_dir == tmp_path / "api" and (result.run_dir / "summary.json").exists()
    oracle = result.agents["oracle"]
    assert isinstance(oracle, supportsim.AgentResult)
    assert (oracle.units, oracle.scored) == (4, 4)
    assert oracle.strict_rate == 1.0 and oracle.partial_mean == 1.0
    assert oracle.pass_hat_k == {1: 1.0, 2: 1.0}
    assert {r.scenario_id for r in result.records} == {
        "mock-charge-lookup",
        "mock-duplicate-refund",
    }


async def test_run_accepts_a_config_and_resumes(tmp_path: Path) -> None:
    config = supportsim.RunConfig(
        scenarios=[str(SCENARIOS)], personas=str(PERSONAS), out=str(tmp_path)
    )
    first = await supportsim.run(config, run_id="again")
    again = await supportsim.run(config, run_id="again", resume=True)
    assert first.ok and again.ok
    assert len(again.records) == len(first.records) == 2


async def test_bad_input_raises_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(supportsim.InputError) as caught:
        await supportsim.run(
            scenarios=[str(SCENARIOS)],
            personas=str(PERSONAS),
            out=str(tmp_path / "runs"),
            agents=["python:no_such_module_abc:Agent"],
        )
    assert "no_such_module_abc" in str(caught.value)
    assert not (tmp_path / "runs").exists()


async def test_a_config_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "nightly.yaml"
    path.write_text(
        f"scenarios: [{SCENARIOS}]\npersonas: {PERSONAS}\nout: {tmp_path}\n"
        "ids: [mock-charge-lookup]\n"
    )
    result = await supportsim.run(path, run_id="file")
    assert [r.scenario_id for r in result.records] == ["mock-charge-lookup"]


async def test_a_public_agent_class_runs_through_the_api(tmp_path: Path, monkeypatch) -> None:
    """An Agent written against the public names only (it answers without tools)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "public_agent.py").write_text(
        "import supportsim\n"
        "class Polite:\n"
        "    name = 'polite'\n"
        "    async def step(self, context, history):\n"
        "        return supportsim.AgentStep(content='Sorry, I cannot help with that.')\n"
    )
    result = await supportsim.run(
        scenarios=[str(SCENARIOS)],
        personas=str(PERSONAS),
        out=str(tmp_path / "runs"),
        agents=["python:public_agent:Polite"],
    )
    polite = result.agents["polite"]
    assert polite.scored == 2 and polite.strict_rate == 0.0
    assert 0.0 <= (polite.partial_mean or 0.0) < 1.0
    assert not any(r.strict for r in result.records)


def test_what_an_agent_author_needs_is_importable_from_supportsim() -> None:
    from typing import get_args

    assert set(get_args(supportsim.Role)) == {"customer", "agent", "tool"}
    schema = supportsim.ToolSchema("get_customer", "Look a customer up.", {"type": "object"})
    context = supportsim.AgentContext("policy", (schema,))
    assert context.tools[0].parameters == {"type": "object"}
    message = supportsim.Message("agent", tool_calls=(supportsim.ToolCall("c1", "x", "{}"),))
    assert message.role in get_args(supportsim.Role)
