"""compare_state paths must start at a real state field: a typo must not pass silently."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.domains import DomainCatalogue, mock
from supportsim.errors import ScenarioError
from supportsim.scenario import load_personas, load_scenarios

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_a_misspelt_compare_state_path_is_an_error_naming_field_and_line(tmp_path: Path) -> None:
    text = (FIXTURES / "scenarios" / "mock_duplicate_refund.yaml").read_text()
    (tmp_path / "s.yaml").write_text(text + "compare_state: [customers.C-1, custmers]\n")
    personas = load_personas([FIXTURES / "personas"])
    with pytest.raises(ScenarioError) as caught:
        load_scenarios(
            [tmp_path], catalogue=DomainCatalogue({"mock": mock.domain()}), personas=personas
        )
    [problem] = caught.value.problems
    assert problem.field == "compare_state[1]"
    assert problem.line == text.count("\n") + 1
    assert problem.message.startswith("no state field 'custmers' (known: customers, extra,")
