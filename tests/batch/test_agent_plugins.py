"""Plug-in Agents in a batch: a broken one is its own units' harness_error (with a reason)
while the others complete, run.json is finalised and resume works; a plug-in of the
wrong shape or a bad label is refused before anything is written (exit 2)."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

from batch_helpers import LOOKUP, REFUND, records, request, run
from rich.console import Console

from supportsim.app import run_command
from supportsim.batch import read_manifest
from supportsim.testing import MockLLMServer

AGENTS = "python:contract_batch_agents"


def _command(out: Path, **overrides: object) -> tuple[int, str, str]:
    out_text, err_text = io.StringIO(), io.StringIO()
    code = run_command(
        request(out, run_id="r", **overrides),
        env={},
        console=Console(file=out_text, width=300),
        err=Console(file=err_text, width=300),
    )
    return code, out_text.getvalue(), err_text.getvalue()


async def test_a_broken_agent_is_its_own_harness_error_and_the_run_finishes_and_resumes(
    server: MockLLMServer, out: Path
) -> None:
    agents = [f"{AGENTS}:SdkStyle", f"{AGENTS}:ReturnsText", "oracle"]
    session, _ = await run(server, request(out, agents=agents))
    got = records(session)
    assert Counter((r.agent, r.status) for r in got) == {
        ("sdk-style", "completed"): 2,  # normalised, not failed
        ("returns-text", "harness_error"): 2,
        ("oracle", "completed"): 2,
    }
    lookup = next(r for r in got if r.agent == "sdk-style" and r.scenario_id == LOOKUP)
    assert lookup.strict is True, [c for c in lookup.checks if not c.passed]
    broken = next(r for r in got if r.agent == "returns-text")
    reason = "agent 'returns-text': step must return an AgentStep, got str ('Hello!')"
    assert broken.end_reason == reason
    assert broken.error is not None and broken.error.startswith(reason)
    assert "Traceback" in broken.error
    assert session.status == "completed"
    assert read_manifest(session.run_dir)["status"] == "completed"

    again, _ = await run(server, request(out, agents=agents, resume=True))
    assert (again.status, again.todo) == ("completed", [])
    assert len(records(again)) == 6


def test_a_plugin_of_the_wrong_shape_exits_2_naming_the_spec_and_writes_nothing(
    out: Path,
) -> None:
    code, _, err = _command(out, agents=["oracle", f"{AGENTS}:SyncStep"])
    assert code == 2
    assert f"--agent {AGENTS}:SyncStep: did not return an Agent" in err
    assert "SyncStep.step must be async" in err
    assert not out.exists()


def test_a_label_names_the_agent_in_records_and_the_summary(out: Path) -> None:
    code, printed, _ = _command(out, agents=["gold=oracle", f"{AGENTS}:Polite"])
    assert code == 0, printed
    lines = (out / "r" / "conversations.jsonl").read_text().splitlines()
    assert {json.loads(line)["agent"] for line in lines} == {"gold", "polite"}
    assert {json.loads(line)["unit_id"] for line in lines} >= {f"{REFUND}|gold|1"}
    summary = json.loads((out / "r" / "summary.json").read_text())
    assert set(summary["agents"]) == {"gold", "polite"}


def test_two_agents_with_one_label_exit_2(out: Path) -> None:
    code, _, err = _command(out, agents=["oracle", f"oracle={AGENTS}:Polite"])
    assert code == 2
    assert "two agents are labelled 'oracle'" in err and "LABEL=SPEC" in err
    assert not out.exists()
    # Two runs of one plug-in are fine once each has its own label.
    code, _, _ = _command(out, agents=[f"a={AGENTS}:Polite", f"b={AGENTS}:Polite"])
    assert code == 0


def test_a_label_that_is_not_a_safe_name_exits_2(out: Path) -> None:
    code, _, err = _command(out, agents=["../x=oracle"])
    assert code == 2
    assert "label '../x' is not a usable label" in err
    assert not out.exists()
