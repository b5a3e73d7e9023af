"""What a run pays for at start-up: a run without a tau2 scenario never imports tau2's
retail package (it builds its 16 tool models at import); a run with one does."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tau2_helpers import PERSONAS

ROOT = Path(__file__).resolve().parents[2]

PROBE = textwrap.dedent(
    """
    import asyncio, sys
    import supportsim

    result = asyncio.run(supportsim.run(
        scenarios=[sys.argv[1]], personas=sys.argv[2], agents=["oracle"],
        customer="scripted", out=sys.argv[3], trials=1,
    ))
    assert result.status == "completed", result.status
    print(sorted(m for m in sys.modules if "tau2.retail" in m))
    """
)


def tau2_modules_of_a_run(scenarios: Path, personas: Path, out: Path) -> str:
    """The tau2 retail modules a fresh process has imported after running ``scenarios``."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(scenarios), str(personas), str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_a_run_without_tau2_never_imports_the_tau2_retail_package(tmp_path: Path):
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    for path in sorted((ROOT / "scenarios" / "appointments").glob("*.yaml"))[:2]:
        (scenarios / path.name).write_bytes(path.read_bytes())
    assert tau2_modules_of_a_run(scenarios, ROOT / "personas", tmp_path / "runs") == "[]"


def test_a_run_with_a_tau2_scenario_imports_it(imported: Path, tmp_path: Path):
    # The probe can fail: the same run over one imported tau2 task (its data found beside
    # the file) shows the package.
    one = sorted(imported.glob("tau2_retail_*.yaml"))[0]
    modules = tau2_modules_of_a_run(one, PERSONAS, tmp_path / "runs")
    assert "'supportsim.tau2.retail'" in modules
