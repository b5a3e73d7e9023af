"""``supportsim import tau2``: every train task imported verbatim and proved by ``validate``;
malformed or unsupported tasks listed by id and reason, with nothing written."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from tau2_helpers import DATA, EXPECTED, PERSONAS, RETAIL, TASKS, CliImport, data_dir, task
from typer.testing import CliRunner, Result

from supportsim._yaml import read_yaml
from supportsim.authoring import Tau2ImportError, import_tau2
from supportsim.cli import app
from supportsim.conversation import Transcript
from supportsim.domains import builtin_domains
from supportsim.errors import InputError, ScenarioError
from supportsim.scenario import Scenario, Tau2Task
from supportsim.tau2 import tau2_data_dir


def cli(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "400"})


def scenario_file(out: Path, task_id: str) -> dict[str, Any]:
    doc, problems = read_yaml(out / f"tau2_retail_{task_id}.yaml")
    assert doc is not None and not problems
    return doc.data


# --- the train split, end to end ------------------------------------------------------------


def test_cli_imports_all_74_train_tasks_with_the_data_the_run_needs(cli_import: CliImport) -> None:
    out = cli_import.out  # the session's one import through the CLI (conftest.py)
    assert cli_import.exit_code == 0, cli_import.output
    assert "imported 74 tau2 tasks" in cli_import.output
    assert len(list(out.glob("tau2_retail_*.yaml"))) == 74
    data = out / "tau2_data"
    assert (data / "db.json").read_bytes() == (RETAIL / "db.json").read_bytes()
    assert (data / "policy.md").read_bytes() == (RETAIL / "policy.md").read_bytes()
    assert "MIT License" in (data / "LICENSE").read_text()  # the attribution travels
    record = json.loads((data / "import.json").read_text())
    assert (
        record["source"]["tasks_sha256"]
        == hashlib.sha256((RETAIL / "tasks.json").read_bytes()).hexdigest()
    )
    assert record["source"]["split"] == "train"
    assert not [p for p in out.parent.rglob(".tau2_retail.*")], "temporary folder left behind"


def test_user_instructions_and_criteria_are_carried_verbatim(imported: Path) -> None:
    for raw in TASKS:
        data = scenario_file(imported, raw["id"])
        tau2 = Tau2Task.model_validate(data["tau2"])
        instructions = raw["user_scenario"]["instructions"]
        assert tau2.instructions.model_dump() == instructions  # type: ignore[union-attr]
        criteria = raw["evaluation_criteria"]
        assert tau2.reward_basis == criteria["reward_basis"]
        assert tau2.nl_assertions == (criteria["nl_assertions"] or [])
        assert tau2.communicate_info == criteria["communicate_info"]
        assert [a.model_dump(exclude_defaults=True) for a in tau2.actions] == [
            {k: v for k, v in a.items() if v is not None} for a in criteria["actions"]
        ]
        assert tau2.source.split == "train" and tau2.source.path.endswith("tasks.json")
        assert data["customer"]["reason"] == instructions["reason_for_call"]


def test_gold_actions_that_raise_are_recorded_as_ignored_with_tau2s_error(
    imported: Path,
) -> None:
    total = 0
    for raw in TASKS:
        tau2 = Tau2Task.model_validate(scenario_file(imported, raw["id"])["tau2"])
        errors = EXPECTED["tasks"][raw["id"]]["gold_action_errors"]
        actions = raw["evaluation_criteria"]["actions"]
        expected = [(actions[e["index"]]["action_id"], e["error"]) for e in errors]
        assert [(a.action_id, a.reason) for a in tau2.ignored_actions] == expected
        assert tau2.gold_db_sha256 == EXPECTED["tasks"][raw["id"]]["final_db_sha256"]
        total += len(expected)
    assert total > 0, "the fixture has gold actions that raise"


def test_validate_json_proves_every_task_with_tau2s_hashes(tau2_tutorial: Path) -> None:
    # the tau2 tutorial's own `supportsim validate scenarios/tau2_retail --json > tasks.json`
    # of the train split it imported (a failing exit fails the page's block), run once for
    # both tests (tests/conftest.py)
    rows = json.loads((tau2_tutorial / "tau2" / "tasks.json").read_text(encoding="utf-8"))
    assert len(rows) == 74
    for row in rows:
        task_id = row["id"].removeprefix("tau2_retail_")
        assert row["oracle_passed"], row["problems"]
        assert row["state_sha256"] == EXPECTED["tasks"][task_id]["final_db_sha256"], task_id
        assert row["initial_state_sha256"] == EXPECTED["initial_db_sha256"]
    unscored = [r["id"] for r in rows if r["unscored"]]
    with_assertions = [t["id"] for t in TASKS if t["evaluation_criteria"]["nl_assertions"]]
    assert len(unscored) == len(with_assertions) > 0  # no judge in validate: said, not passed


def test_validate_tells_a_scenario_that_no_longer_reproduces_tau2(
    imported: Path, tmp_path: Path
) -> None:
    """The invalid cases of the proof: a changed state gives another hash than tau2's, and
    a task the oracle cannot satisfy (tau2 never matches a COMMUNICATE string with a comma,
    since it removes commas from the message only) fails validate."""
    folder = tmp_path / "tau2_retail"
    folder.mkdir()
    (folder / "tau2_data").symlink_to(imported / "tau2_data")
    data = scenario_file(imported, "0")
    data["state"] = {"orders": {"#W2378156": {"status": "pending"}}}  # exchange now refused
    (folder / "tau2_retail_0.yaml").write_bytes(orjson.dumps(data))
    comma = scenario_file(imported, "1")
    comma["tau2"]["reward_basis"] = ["DB", "COMMUNICATE"]
    comma["tau2"]["communicate_info"] = ["1,000.00"]
    (folder / "tau2_retail_1.yaml").write_bytes(orjson.dumps(comma))
    result = cli("validate", str(folder), "--personas", str(PERSONAS), "--json")
    assert result.exit_code == 1, result.output
    changed, unmatched = json.loads(result.output)
    assert changed["oracle_passed"]
    assert changed["state_sha256"] != EXPECTED["tasks"]["0"]["final_db_sha256"]
    assert changed["initial_state_sha256"] != EXPECTED["initial_db_sha256"]
    assert not unmatched["oracle_passed"]
    assert any("reward:COMMUNICATE" in p and "1,000.00" in p for p in unmatched["problems"])


# --- the domain is found beside the scenarios -----------------------------------------------


def test_the_domain_is_registered_for_a_folder_carrying_tau2_data(imported: Path) -> None:
    assert "tau2_retail" not in builtin_domains()
    assert "tau2_retail" in builtin_domains([imported])
    assert "tau2_retail" in builtin_domains([imported / "tau2_retail_0.yaml"])
    assert "tau2_retail" in builtin_domains([imported.parent])  # a parent folder: found below
    assert tau2_data_dir([imported]) == (imported / "tau2_data").resolve()


def test_two_imports_with_different_databases_are_refused(imported: Path, tmp_path: Path) -> None:
    other = tmp_path / "other" / "tau2_data"
    other.mkdir(parents=True)
    (other / "db.json").write_text("{}")
    (other / "policy.md").write_text("another policy")
    with pytest.raises(ScenarioError, match="tau2 data differs"):
        builtin_domains([imported, tmp_path / "other"])


# --- bad input: listed by id and reason, nothing written ------------------------------------


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ({"user_scenario": None}, "user_scenario"),
        ({"evaluation_criteria": {"reward_basis": ["DB", "VIBES"]}}, "unknown reward component"),
        ({"evaluation_criteria": {"reward_basis": ["ENV_ASSERTION"]}}, "ENV_ASSERTION is not"),
        ({"evaluation_criteria": {"reward_basis": []}}, "reward_basis is empty"),
        ({"initial_state": {"initialization_actions": []}}, "initial_state is not supported"),
        (
            {
                "evaluation_criteria": {
                    "actions": [{"action_id": "a", "name": "fly", "arguments": {}}]
                }
            },
            "unknown tool 'fly'",
        ),
        (
            {"evaluation_criteria": {"actions": [{"action_id": "a", "name": "calculate"}]}},
            "arguments",
        ),
        ({"evaluation_criteria": {"nl_assertions": "one string"}}, "nl_assertions"),
    ],
)
def test_a_malformed_or_unsupported_task_is_listed_and_nothing_written(
    tmp_path: Path, bad: dict[str, Any], reason: str
) -> None:
    broken = task("broken")
    for key, value in bad.items():
        if key == "evaluation_criteria":
            broken[key] = {**broken[key], **value}
        else:
            broken[key] = value
    data = data_dir(tmp_path, [task("good"), broken])
    out = tmp_path / "out"
    result = cli("import", "tau2", str(data), "--out", str(out))
    assert result.exit_code == 2, result.output
    assert "'broken'" in result.output and reason in result.output
    assert "'good'" not in result.output
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["data"], "nothing half-written"


def test_a_task_that_is_not_an_object_is_listed(tmp_path: Path) -> None:
    data = data_dir(tmp_path, [task("1"), None, "text"])
    with pytest.raises(Tau2ImportError) as caught:
        import_tau2(data, out=tmp_path / "out")
    assert [p.field for p in caught.value.problems] == ["task 1", "task 2"]
    assert not (tmp_path / "out").exists()


def test_the_same_task_twice_is_refused(tmp_path: Path) -> None:
    data = data_dir(tmp_path, [task("1"), task("1")])
    with pytest.raises(Tau2ImportError, match="duplicate scenario id tau2_retail_1"):
        import_tau2(data, out=tmp_path / "out")


def test_a_well_formed_task_of_another_shape_imports(tmp_path: Path) -> None:
    """Plain-text instructions, a persona, COMMUNICATE and ACTION, unknown top-level keys."""
    other = task("x/1", reward_basis=["DB", "COMMUNICATE", "ACTION"], communicate_info=["42"])
    other["user_scenario"] = {"persona": "Terse.", "instructions": "Exchange the keyboard."}
    other["annotations"] = {"note": "dropped"}
    out = tmp_path / "out"
    done = import_tau2(data_dir(tmp_path, [other]), out=out, persona="tester")
    assert done.scenario_ids == ["tau2_retail_x_1"]
    scenario = Scenario.model_validate(scenario_file(out, "x_1"))
    assert scenario.tau2 is not None
    assert scenario.tau2.instructions == "Exchange the keyboard."
    assert (
        scenario.tau2.persona == "Terse." and scenario.customer.reason == "Exchange the keyboard."
    )
    assert scenario.tau2.source.split is None


def test_splits_select_tasks_and_unknown_ones_are_refused(tmp_path: Path) -> None:
    data = data_dir(tmp_path, [task("1"), task("2")], {"train": ["1"], "test": ["2"]})
    assert import_tau2(data, split="test", out=tmp_path / "a").scenario_ids == ["tau2_retail_2"]
    assert len(import_tau2(data, split="base", out=tmp_path / "b").scenario_ids) == 2
    with pytest.raises(ScenarioError, match="no such split"):
        import_tau2(DATA, split="test", out=tmp_path / "c")  # the fixture holds train only
    missing = data_dir(tmp_path / "m", [task("1")], {"test": ["1", "9"]})
    with pytest.raises(ScenarioError, match=r"task ids not in tasks\.json: 9"):
        import_tau2(missing, split="test", out=tmp_path / "d")
    assert not (tmp_path / "c").exists() and not (tmp_path / "d").exists()


def test_an_import_replaces_an_earlier_one_but_no_other_folder(tmp_path: Path) -> None:
    data = data_dir(tmp_path, [task("1")])
    out = tmp_path / "out"
    import_tau2(data, out=out)
    (out / "stale.yaml").write_text("id: stale\n")
    import_tau2(data, out=out)
    assert not (out / "stale.yaml").exists()
    mine = tmp_path / "mine"
    mine.mkdir()
    with pytest.raises(InputError, match="not an earlier tau2 import"):
        import_tau2(data, out=mine)


def test_a_missing_data_directory_exits_2(tmp_path: Path) -> None:
    result = cli("import", "tau2", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert "not a tau2 data directory" in result.output
    bad_split = cli("import", "tau2", str(DATA), "--split", "dev", "--out", str(tmp_path / "o"))
    assert bad_split.exit_code == 2 and "--split 'dev'" in bad_split.output


def test_a_task_id_too_long_for_a_file_name_is_named_not_a_traceback(tmp_path: Path) -> None:
    data = data_dir(tmp_path, [task("good"), task("9" * 5001)])
    out = tmp_path / "out"
    result = cli("import", "tau2", str(data), "--out", str(out))
    assert result.exit_code == 2, result.output
    assert "[task 1]: id: String should have at most 100 characters" in result.output
    assert "Traceback" not in result.output and "9" * 200 not in result.output
    assert not out.exists()


def test_a_task_id_that_is_a_5001_digit_number_is_named(tmp_path: Path) -> None:
    data = data_dir(tmp_path, [task("good")])
    tasks = data / "domains" / "retail" / "tasks.json"
    tasks.write_text(tasks.read_text().replace('"id": "good"', '"id": ' + "9" * 5001, 1))
    result = cli("import", "tau2", str(data), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert "[task 0]: id: Input should be a valid string" in result.output
    assert "Traceback" not in result.output


def test_a_tasks_file_that_is_not_utf8_names_the_file(tmp_path: Path) -> None:
    data = data_dir(tmp_path, [task("good")])
    tasks = data / "domains" / "retail" / "tasks.json"
    tasks.write_bytes(b"\xff\xfe" + tasks.read_bytes())
    result = cli("import", "tau2", str(data), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert f"{tasks}: not UTF-8 text (byte 0" in result.output
    assert "Traceback" not in result.output


def test_unknown_keys_are_ignored_as_tau2_ignores_them(tmp_path: Path) -> None:
    """A task of a newer format (an extra key on an action or the criteria) imports."""
    newer = task("newer")
    newer["evaluation_criteria"]["actions"][0]["hint"] = "not a field tau2 1.0 knows"
    newer["evaluation_criteria"]["weights"] = {"DB": 1}
    newer["user_scenario"]["notes"] = "ignored"
    out = tmp_path / "out"
    import_tau2(data_dir(tmp_path, [newer]), out=out)
    data = scenario_file(out, "newer")
    assert "hint" not in json.dumps(data)


def test_null_gold_actions_count_db_as_met_as_tau2_does(tmp_path: Path) -> None:
    """tau2: actions and env_assertions both null -> DB reward 1 (nothing to compare);
    an empty list is a gold path of no writes, compared as usual."""
    from supportsim.scoring import score

    null = task("null", actions=None, reward_basis=["DB"])
    empty = task("empty", actions=[], reward_basis=["DB"])
    out = tmp_path / "out"
    import_tau2(data_dir(tmp_path, [null, empty]), out=out, persona="tester")
    domains = builtin_domains([out])
    loaded = {s.id: s for s in load_scenarios_for(out, domains)}
    tau2 = domains["tau2_retail"]
    assert loaded["tau2_retail_null"].tau2.db_criteria is False
    assert loaded["tau2_retail_empty"].tau2.db_criteria is True
    changed = asyncio.run(changed_state(tau2, loaded["tau2_retail_null"]))
    fresh = tau2.initial_state({}).model_dump(mode="json")
    for sid, met in (("tau2_retail_null", True), ("tau2_retail_empty", False)):
        transcript = Transcript(termination="customer_done", final_state=changed)
        result = score(loaded[sid], tau2, transcript, fresh)
        assert result.strict is met, sid


def load_scenarios_for(out: Path, domains: dict) -> list[Scenario]:
    from supportsim.domains import DomainCatalogue
    from supportsim.scenario import load_personas, load_scenarios
    from supportsim.scoring import CONCEPTS

    personas = load_personas([PERSONAS])
    return load_scenarios([out], catalogue=DomainCatalogue(domains, CONCEPTS), personas=personas)


async def changed_state(domain: Any, scenario: Scenario) -> dict[str, Any]:
    """The database after one write the gold path never made."""
    from supportsim.environment import Environment

    env = Environment(domain, scenario)
    user = next(iter(env.snapshot()["users"]))
    address = {
        "address1": "1 Main St",
        "address2": "",
        "city": "Austin",
        "state": "TX",
        "country": "USA",
        "zip": "78701",
    }
    result = await env.call("modify_user_address", {"user_id": user, **address}, "w")
    assert not result.is_error, result.content
    return env.snapshot()
