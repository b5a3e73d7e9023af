"""The commented example in scenarios/README.md is a real, solvable scenario."""

from __future__ import annotations

import re
from pathlib import Path

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.scenario import load_personas, load_scenarios
from supportsim.scoring import oracle_run

ROOT = Path(__file__).resolve().parents[2]


async def test_readme_example_loads_and_the_oracle_passes(tmp_path: Path) -> None:
    text = (ROOT / "scenarios" / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", text, re.DOTALL)
    assert block is not None
    (tmp_path / "example.yaml").write_text(block.group(1), encoding="utf-8")
    domains = builtin_domains()
    personas = load_personas([ROOT / "personas"])
    [scenario] = load_scenarios([tmp_path], catalogue=DomainCatalogue(domains), personas=personas)
    assert scenario.faults[0].fault == "timeout"
    assert [m.name for m in scenario.mock_tools] == ["check_outage"]
    _, score = await oracle_run(domains[scenario.domain], scenario)
    assert score.strict, score.failed()
    assert score.partial == 1.0
