"""Loading scenario and persona files: the fixture loads; every broken file is named at once."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from supportsim.domains import Domain, DomainCatalogue
from supportsim.errors import InputError, Problem, ScenarioError
from supportsim.scenario import Persona, load_personas, load_scenarios, yaml_files

FIXTURES = Path(__file__).parents[1] / "fixtures"
SCENARIOS = FIXTURES / "scenarios"
PERSONAS = FIXTURES / "personas"
BROKEN = FIXTURES / "broken" / "scenarios"
BROKEN_PERSONAS = FIXTURES / "broken" / "personas"

MOCK_TOOLS = (
    "get_customer, list_charges, refund_charge, search_knowledge_base, transfer_to_human, "
    "update_email, verify_identity"
)
NEEDS_ONE = "a matcher mapping needs exactly one of any, approx, exact, icase, one_of, regex"

# file -> (field, line, message): each broken file is broken exactly one way.
EXPECTED = {
    "bad_matcher.yaml": (
        "workflow[1].args.amount",
        17,
        NEEDS_ONE + " (got ['aprox']); write {exact: {...}} to match a mapping literally",
    ),
    "bad_state.yaml": ("state.customers.C-1.pin", 11, "Input should be a valid string"),
    "bad_syntax.yaml": ("", 6, "invalid YAML: expected ',' or ']', but got ':'"),
    "dup_id_b.yaml": (
        "id",
        1,
        f"duplicate scenario id 'broken-twin' (also in {BROKEN / 'dup_id_a.yaml'})",
    ),
    "duplicate_key.yaml": ("title", 8, "duplicate key"),
    "regex_no_oracle_args.yaml": (
        "workflow[1].args.charge_id",
        16,
        r"matching /CH-\d+/ names no single value: give oracle_args.charge_id",
    ),
    "unknown_after.yaml": ("workflow[2].after[1]", 17, "unknown step id 'verfy'"),
    "unknown_arg.yaml": (
        "workflow[1].args.chrage_id",
        16,
        "refund_charge has no argument 'chrage_id' (amount, charge_id, customer_id)",
    ),
    "unknown_promise.yaml": (
        "forbidden[0].disclose[1].promise",
        16,
        "Input should be 'refund', 'credit', 'waive', 'callback', 'delivery', 'replacement' "
        "or 'fix'",
    ),
    "unknown_domain.yaml": ("domain", 3, "unknown domain 'banking' (known: mock)"),
    "unknown_field.yaml": (
        "forbiden",
        12,
        "unknown field (check the spelling; see scenarios/README.md)",
    ),
    "unknown_persona.yaml": ("persona", 4, "unknown persona 'nobody' (known: tester)"),
    "unknown_tool.yaml": (
        "workflow[1].tool",
        13,
        f"unknown tool 'refund_chrage' (known: {MOCK_TOOLS})",
    ),
    "wrong_type.yaml": (
        "max_turns",
        6,
        "Input should be a valid integer, unable to parse string as an integer",
    ),
}


@pytest.fixture
def catalogue(mock_domain: Domain) -> DomainCatalogue:
    return DomainCatalogue({"mock": mock_domain})


@pytest.fixture
def personas() -> dict[str, Persona]:
    return load_personas([PERSONAS])


# --- the good fixture -----------------------------------------------------------------------


def test_the_fixture_persona_loads_with_its_fields() -> None:
    personas = load_personas([PERSONAS])
    assert list(personas) == ["tester"]
    tess = personas["tester"]
    assert (tess.name, tess.tone, tess.verbosity, tess.patience, tess.volunteers) == (
        "Tess",
        "calm",
        "terse",
        6,
        "some",
    )
    assert tess.behaviours == []


def test_the_fixture_scenario_loads_with_its_source_and_hash(
    catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    [scenario] = load_scenarios([SCENARIOS], catalogue=catalogue, personas=personas)
    path = SCENARIOS / "mock_duplicate_refund.yaml"
    assert scenario.id == "mock-duplicate-refund"
    assert scenario.source == str(path)
    assert scenario.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert scenario.category == "billing"
    assert scenario.tags == ["billing", "identity"]
    assert scenario.max_turns == 8
    assert scenario.context == {"today": "2026-03-14"}
    assert scenario.customer.known_facts == {"customer_id": "C-1", "pin": "4321"}
    assert [s.id for s in scenario.workflow] == ["verify", "lookup", "confirm", "refund", "tell"]
    assert [s.kind for s in scenario.workflow] == ["tool", "tool", "say", "tool", "say"]
    assert [s.optional for s in scenario.workflow] == [False, True, False, False, False]
    refund = scenario.workflow[3]
    assert refund.args["amount"].describe() == "30.0 ± 0.01"
    assert refund.args["charge_id"].matches("CH-2") and not refund.args["charge_id"].matches("CH-1")
    assert [f.id for f in scenario.forbidden] == ["refund-original", "leak-note"]
    assert scenario.outcome == "resolved"
    assert scenario.compare_state == "all"


def test_a_file_path_loads_like_its_directory(
    catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    path = SCENARIOS / "mock_duplicate_refund.yaml"
    [scenario] = load_scenarios([path], catalogue=catalogue, personas=personas)
    assert scenario.source == str(path)


def test_an_unquoted_yaml_date_loads_as_text(
    tmp_path: Path, catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    text = (SCENARIOS / "mock_duplicate_refund.yaml").read_text()
    path = tmp_path / "date.yaml"
    path.write_text(text.replace('today: "2026-03-14"', "today: 2026-03-14"))
    [scenario] = load_scenarios([path], catalogue=catalogue, personas=personas)
    assert scenario.context == {"today": "2026-03-14"}


# --- every broken file at once --------------------------------------------------------------


def test_one_load_names_every_broken_file_field_and_line(
    catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenarios([BROKEN], catalogue=catalogue, personas=personas)
    got = {Path(p.file).name: (p.field, p.line, p.message) for p in info.value.problems}
    assert got == EXPECTED
    assert len(info.value.problems) == len(EXPECTED)
    assert all(p.file == str(BROKEN / Path(p.file).name) for p in info.value.problems)


def test_every_broken_file_is_listed_in_the_expectations() -> None:
    """A new file in the broken folder must be added to EXPECTED (and dup_id_a is valid)."""
    names = {p.name for p in yaml_files([BROKEN])}
    assert names == set(EXPECTED) | {"dup_id_a.yaml"}


def test_the_error_message_lists_one_problem_per_line(
    catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    with pytest.raises(InputError) as info:
        load_scenarios([BROKEN], catalogue=catalogue, personas=personas)
    lines = str(info.value).splitlines()
    assert len(lines) == len(EXPECTED)
    assert (
        f"{BROKEN / 'unknown_arg.yaml'}:16 [workflow[1].args.chrage_id]: "
        "refund_charge has no argument 'chrage_id' (amount, charge_id, customer_id)"
    ) in lines
    assert (
        f"{BROKEN / 'bad_syntax.yaml'}:6: invalid YAML: expected ',' or ']', but got ':'" in lines
    )


def test_the_duplicate_id_error_names_both_files(
    catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenarios(
            [BROKEN / "dup_id_a.yaml", BROKEN / "dup_id_b.yaml"],
            catalogue=catalogue,
            personas=personas,
        )
    [problem] = info.value.problems
    assert problem.file == str(BROKEN / "dup_id_b.yaml")
    assert str(BROKEN / "dup_id_a.yaml") in problem.message


def test_a_good_file_next_to_broken_ones_does_not_hide_them(
    catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenarios(
            [SCENARIOS, BROKEN / "unknown_tool.yaml"], catalogue=catalogue, personas=personas
        )
    assert [(Path(p.file).name, p.field) for p in info.value.problems] == [
        ("unknown_tool.yaml", "workflow[1].tool")
    ]


def test_a_missing_path_is_a_problem_not_a_crash(
    tmp_path: Path, catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(ScenarioError) as info:
        load_scenarios([missing], catalogue=catalogue, personas=personas)
    assert info.value.problems == [Problem(str(missing), "", "no such file or directory")]


def test_an_empty_folder_has_no_scenarios(
    tmp_path: Path, catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenarios([tmp_path], catalogue=catalogue, personas=personas)
    assert info.value.problems == [Problem(str(tmp_path), "", "no scenario files found")]


def test_a_file_that_is_not_a_mapping_is_a_problem(
    tmp_path: Path, catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("- id: a\n- id: b\n")
    with pytest.raises(ScenarioError) as info:
        load_scenarios([path], catalogue=catalogue, personas=personas)
    assert info.value.problems == [
        Problem(str(path), "", "the file must hold a mapping of fields", 1)
    ]


def test_an_empty_file_is_a_problem(
    tmp_path: Path, catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing here yet\n")
    with pytest.raises(ScenarioError) as info:
        load_scenarios([path], catalogue=catalogue, personas=personas)
    assert info.value.problems == [Problem(str(path), "", "the file must hold a mapping of fields")]


def test_a_problem_deep_in_a_nested_field_points_at_its_line(
    tmp_path: Path, catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    text = (SCENARIOS / "mock_duplicate_refund.yaml").read_text()
    text = text.replace("    args: {customer_id: C-1}\n    optional: true", "    optional: maybe")
    path = tmp_path / "nested.yaml"
    path.write_text(text)
    line = text.splitlines().index("    optional: maybe") + 1
    with pytest.raises(ScenarioError) as info:
        load_scenarios([path], catalogue=catalogue, personas=personas)
    assert [(p.field, p.line) for p in info.value.problems] == [("workflow[1].optional", line)]
    assert info.value.problems[0].message.startswith("Input should be a valid boolean")


def test_a_step_after_a_later_step_is_a_problem(
    tmp_path: Path, catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    text = (SCENARIOS / "mock_duplicate_refund.yaml").read_text()
    text = text.replace("  - id: verify\n", "  - id: verify\n    after: [refund]\n")
    path = tmp_path / "order.yaml"
    path.write_text(text)
    line = text.splitlines().index("    after: [refund]") + 1
    assert line == 20
    with pytest.raises(ScenarioError) as info:
        load_scenarios([path], catalogue=catalogue, personas=personas)
    assert [(p.field, p.line, p.message) for p in info.value.problems] == [
        ("workflow[0].after[0]", line, "'refund' must be listed before 'verify'")
    ]


def test_a_fault_on_an_unknown_tool_is_a_problem(
    tmp_path: Path, catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    text = (SCENARIOS / "mock_duplicate_refund.yaml").read_text()
    text += "faults:\n  - {tool: update_mail, fault: timeout}\n"
    path = tmp_path / "faults.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as info:
        load_scenarios([path], catalogue=catalogue, personas=personas)
    assert [(p.field, p.line, p.message) for p in info.value.problems] == [
        ("faults[0].tool", 52, f"unknown tool 'update_mail' (known: {MOCK_TOOLS})")
    ]


def test_steps_must_use_permitted_tools_but_forbidden_rules_need_not(
    tmp_path: Path, catalogue: DomainCatalogue, personas: dict[str, Persona]
) -> None:
    text = (SCENARIOS / "mock_duplicate_refund.yaml").read_text()
    text += "tools: [verify_identity, list_charges, refund_charge, search_knowledge_base]\n"
    text = text.replace(
        "forbidden:\n",
        "forbidden:\n  - id: no-email\n    tool: update_email\n",
    )
    allowed = tmp_path / "allowed.yaml"
    allowed.write_text(text)
    [scenario] = load_scenarios([allowed], catalogue=catalogue, personas=personas)
    assert scenario.tools == [
        "verify_identity",
        "list_charges",
        "refund_charge",
        "search_knowledge_base",
    ]

    withheld = tmp_path / "withheld.yaml"
    withheld.write_text(text.replace("tools: [verify_identity, list_charges,", "tools: ["))
    with pytest.raises(ScenarioError) as info:
        load_scenarios([withheld], catalogue=catalogue, personas=personas)
    assert [(p.field, p.message) for p in info.value.problems] == [
        ("workflow[0].tool", "'verify_identity' is not in this scenario's tools"),
        ("workflow[1].tool", "'list_charges' is not in this scenario's tools"),
    ]


# --- personas -------------------------------------------------------------------------------


def test_broken_personas_are_all_named() -> None:
    with pytest.raises(ScenarioError) as info:
        load_personas([BROKEN_PERSONAS])
    got = {(Path(p.file).name, p.field, p.line, p.message) for p in info.value.problems}
    assert got == {
        (
            "twin_b.yaml",
            "id",
            1,
            f"duplicate persona id 'twin' (also in {BROKEN_PERSONAS / 'twin_a.yaml'})",
        ),
        (
            "unknown_field.yaml",
            "patince",
            4,
            "unknown field (check the spelling; see scenarios/README.md)",
        ),
    }
    assert len(info.value.problems) == 2


def test_scenarios_see_no_personas_when_persona_loading_failed(
    catalogue: DomainCatalogue,
) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenarios([SCENARIOS], catalogue=catalogue, personas={})
    assert [(p.field, p.message) for p in info.value.problems] == [
        ("persona", "unknown persona 'tester' (known: none loaded)")
    ]
