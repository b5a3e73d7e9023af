"""What a plain run pays for at start-up: a run with the oracle Agent and the scripted
Customer (no model, in-process tools) never imports the provider SDKs, the MCP SDK, Babel,
num2words (the reading tables are shipped, ``scoring/text/_shipped.py``), jsonschema (only a
domain folder with a JSON Schema state or a declarative mock tool needs it), the rescore,
or the workspace's domain-folder loader; importing ``supportsim.batch`` does not import
``validate`` (the do-nothing floor is scored after the run)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

NEVER = (
    "openai",
    "anthropic",
    "mcp",
    "uvicorn",
    "babel",
    "num2words",
    "jsonschema",
    "supportsim.rescore",
    "supportsim.rescore._command",
)

PROBE = textwrap.dedent(
    """
    import asyncio, json, sys
    import supportsim.batch
    before = sorted(sys.modules)
    import supportsim

    result = asyncio.run(supportsim.run(
        scenarios=[sys.argv[1]], personas=sys.argv[2], agents=["oracle"],
        customer="scripted", out=sys.argv[3], trials=1,
    ))
    assert result.status == "completed", result.status
    assert all(r.strict for r in result.records), [r.checks for r in result.records]
    print(json.dumps({"batch": before, "run": sorted(sys.modules)}))
    """
)


def _modules(scenarios: Path, out: Path) -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(scenarios), str(ROOT / "personas"), str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def _loaded(modules: list[str], package: str) -> bool:
    return any(m == package or m.startswith(package + ".") for m in modules)


def test_a_plain_run_imports_no_sdk_babel_num2words_jsonschema_or_rescore(tmp_path: Path):
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    # English and German: the reading tables of both (and, for the other-customer check,
    # of every language) are read, none built.
    for name in ("appt_booking_german.yaml", "appt_cancel_timeout_retry.yaml"):
        (scenarios / name).write_bytes((ROOT / "scenarios" / "appointments" / name).read_bytes())
    modules = _modules(scenarios, tmp_path / "runs")
    assert [p for p in NEVER if _loaded(modules["run"], p)] == []
    assert not _loaded(modules["batch"], "supportsim.validate")


def test_the_probe_sees_a_package_a_run_does_import(tmp_path: Path):
    # The probe can fail: the same run shows the packages it does use.
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    name = "appt_booking_german.yaml"
    (scenarios / name).write_bytes((ROOT / "scenarios" / "appointments" / name).read_bytes())
    modules = _modules(scenarios, tmp_path / "runs")
    assert _loaded(modules["run"], "langgraph")
    assert _loaded(modules["run"], "supportsim.scoring.text._shipped")
