"""Declarative mock tools cannot silently miss: a ``when`` key that is no parameter, a
value no argument can equal, a result outside ``returns`` and a ``set`` the state cannot
take are load errors naming the file, the line and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.domains import Domain, DomainCatalogue
from supportsim.errors import ScenarioError
from supportsim.scenario import Scenario, load_personas, load_scenarios

FIXTURES = Path(__file__).parents[1] / "fixtures"
BASE = (FIXTURES / "scenarios" / "mock_duplicate_refund.yaml").read_text()

GOOD = """
mock_tools:
  - name: check_outage
    description: Look up network outages at a ZIP code.
    parameters:
      zip: {type: string}
      radius: {type: integer, required: false}
      level: {type: string, enum: [street, city], required: false}
    returns:
      type: object
      properties: {outage: {type: boolean}, eta_hours: {type: number}}
      required: [outage]
    responses:
      - when: {zip: "98101", radius: 5, level: city}
        result: {outage: true, eta_hours: 3}
      - when: {zip: {one_of: ["98102", 98103]}}
        result: {outage: false}
      - error: no such ZIP
  - name: note_email
    description: Record a new email address.
    kind: write
    parameters: {email: {type: string}}
    responses:
      - set: {customers.C-1.email: new@example.com}
        result: {saved: true}
"""


def _load(tmp_path: Path, mock_domain: Domain, extra: str) -> list[Scenario]:
    path = tmp_path / "s.yaml"
    path.write_text(BASE + extra)
    return load_scenarios(
        [path],
        catalogue=DomainCatalogue({"mock": mock_domain}),
        personas=load_personas([FIXTURES / "personas"]),
    )


def test_mock_tools_that_can_match_and_fit_load(tmp_path: Path, mock_domain: Domain) -> None:
    [scenario] = _load(tmp_path, mock_domain, GOOD)
    assert [m.name for m in scenario.mock_tools] == ["check_outage", "note_email"]
    assert scenario.mock_tools[0].returns is not None


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        (
            'when: {zip: "98101", radius: 5, level: city}',
            'when: {zipcode: "98101"}',
            "mock_tools[0].responses[0].when.zipcode",
            "check_outage has no parameter 'zipcode' (parameters: level, radius, zip)",
        ),
        (
            'when: {zip: "98101", radius: 5, level: city}',
            "when: {zip: 98101}",
            "mock_tools[0].responses[0].when.zip",
            "can never match: 98101 is not of type string",
        ),
        (
            'when: {zip: "98101", radius: 5, level: city}',
            'when: {zip: "98101", level: town}',
            "mock_tools[0].responses[0].when.level",
            "can never match: 'town' is not one of its enum values ['street', 'city']",
        ),
        (
            'when: {zip: "98101", radius: 5, level: city}',
            'when: {zip: "98101", radius: true}',
            "mock_tools[0].responses[0].when.radius",
            "can never match: True is not of type integer",
        ),
        (
            'when: {zip: {one_of: ["98102", 98103]}}',
            "when: {zip: {one_of: [98102, 98103]}}",
            "mock_tools[0].responses[1].when.zip",
            "can never match: 98102 is not of type string",
        ),
        (
            "result: {outage: true, eta_hours: 3}",
            'result: {outage: "yes", eta_hours: 3}',
            "mock_tools[0].responses[0].result",
            "does not fit returns: outage: 'yes' is not of type 'boolean'",
        ),
        (
            "result: {outage: false}",
            "result: {eta_hours: 2}",
            "mock_tools[0].responses[1].result",
            "does not fit returns: the result: 'outage' is a required property",
        ),
        (
            "      required: [outage]",
            "      required: outage",
            "mock_tools[0].returns",
            "not a JSON Schema: 'outage' is not of type 'array'",
        ),
        (
            "set: {customers.C-1.email: new@example.com}",
            "set: {customers.C-1.pin: 1234}",
            "mock_tools[1].responses[0].set.customers.C-1.pin",
            "cannot set customers.C-1.pin: Input should be a valid string",
        ),
        (
            "    kind: write\n",
            "    kind: read\n",
            "mock_tools[1].responses[0].set",
            "a read tool cannot change state (kind: write)",
        ),
    ],
)
def test_a_mock_tool_that_could_silently_miss_is_a_load_error(
    tmp_path: Path, mock_domain: Domain, old: str, new: str, field: str, message: str
) -> None:
    assert old in GOOD
    with pytest.raises(ScenarioError) as caught:
        _load(tmp_path, mock_domain, GOOD.replace(old, new, 1))
    (problem,) = caught.value.problems
    assert (problem.field, problem.message) == (field, message)
    assert problem.file == str(tmp_path / "s.yaml") and problem.line is not None
