"""``report --junit``: the file validates against the JUnit XML schema CI systems read
(Jenkins xUnit's junit-10.xsd, in tests/report/schemas) and says what each unit did."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema
from gate_runs import record
from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.report import RunData, load_run
from supportsim.report._junit import junit_outcomes, render_junit

SCHEMA = xmlschema.XMLSchema(str(Path(__file__).parent / "schemas" / "junit-10.xsd"))


def test_the_schema_rejects_what_ci_systems_would_not_read() -> None:
    SCHEMA.validate(
        '<testsuites><testsuite name="a" tests="1"><testcase name="x"/></testsuite></testsuites>'
    )
    for bad in (
        '<testsuites><testsuite name="a" tests="1"><testcase/></testsuite></testsuites>',
        '<testsuites><testsuite tests="1"/></testsuites>',
        '<testsuites><testcase name="x"/></testsuites>',
        '<testsuites><testsuite name="a" tests="1"><testcase name="x"><failure/><skipped/>'
        "</testcase></testsuite></testsuites>",
    ):
        assert not SCHEMA.is_valid(bad), bad


def test_a_finished_run(v1_dir: Path) -> None:
    xml = render_junit(load_run(v1_dir))
    SCHEMA.validate(xml)
    outcomes = junit_outcomes(xml)
    assert len(outcomes) == 12  # one test case per unit
    assert outcomes["refund_duplicate/alpha/1"] == "passed"
    assert outcomes["plan_upgrade/alpha/1"] == "failure"
    assert outcomes["refund_roaming/beta/1"] == "error"  # the harness error
    root = ET.fromstring(xml)
    assert root.get("name") == "supportsim v1"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("12", "5", "1")
    (beta,) = [s for s in root.iter("testsuite") if s.get("name") == "beta"]
    assert (beta.get("tests"), beta.get("failures"), beta.get("errors")) == ("6", "2", "1")
    case = next(c for c in root.iter("testcase") if c.get("name") == "refund_roaming/alpha/1")
    assert case.get("classname") == "alpha" and case.get("time") == "5.000"
    failure = case.find("failure")
    assert failure is not None
    assert failure.get("message") == (
        "2 of 4 checks failed: step:refund: refund_order was never called [bold]<i>x</i>[/bold]"
    )
    assert failure.text is not None
    assert "outcome (outcome): not resolved: the customer gave up" in failure.text
    error = next(c for c in root.iter("testcase") if c.get("name") == "refund_roaming/beta/1").find(
        "error"
    )
    assert error is not None and error.get("message") == "RuntimeError: adapter crashed"
    assert error.text is not None and error.text.startswith("Traceback")


def test_an_interrupted_run_skips_the_units_not_run(v2_dir: Path) -> None:
    xml = render_junit(load_run(v2_dir))
    SCHEMA.validate(xml)
    outcomes = junit_outcomes(xml)
    assert len(outcomes) == 12  # 7 recorded + 5 planned, not run
    assert sorted(k for k, v in outcomes.items() if v == "skipped") == [
        "plan_upgrade/gamma/1",
        "plan_upgrade/gamma/2",
        "refund_duplicate/gamma/2",
        "refund_roaming/gamma/1",
        "refund_roaming/gamma/2",
    ]


def test_unscored_units_are_skipped_and_hostile_text_still_parses(tmp_path: Path) -> None:
    hostile = "bad \x00 byte \x1b[31m red \ud800 </failure><script>x</script> ]]> \u202e"
    # in memory: a lone surrogate cannot even be stored in conversations.jsonl
    records = [
        record("s1", "m", 1, status="infra_error"),
        record("s2", "m", 1, status="simulator_fault"),
        record(
            "s3",
            "m",
            1,
            strict=False,
            partial=0.0,
            checks=[{"id": "leak", "kind": "forbidden", "passed": False, "reason": hostile}],
        ),
        record("s4", "m", 1),
    ]
    xml = render_junit(RunData(tmp_path, "r", None, records, 1))
    SCHEMA.validate(xml)
    assert junit_outcomes(xml) == {
        "s1/m/1": "skipped",
        "s2/m/1": "skipped",
        "s3/m/1": "failure",
        "s4/m/1": "passed",
    }
    failure = next(c for c in ET.fromstring(xml).iter("testcase") if c.get("name") == "s3/m/1")
    message = failure.find("failure").get("message")  # type: ignore[union-attr]
    assert "\\x00" in message and "\\x1b" in message and "\\ud800" in message
    assert "<script>x</script>" in message  # text, escaped by the XML writer
    assert ET.fromstring(xml).find("testsuite").get("skipped") == "2"  # type: ignore[union-attr]


@pytest.mark.parametrize("where", ["junit.xml", "deep/folder/junit.xml"])
def test_report_junit_writes_the_file(v1_copy: Path, tmp_path: Path, where: str) -> None:
    target = tmp_path / where
    result = CliRunner().invoke(
        app, ["report", str(v1_copy), "--junit", str(target)], env={"COLUMNS": "300"}
    )
    assert result.exit_code == 0, result.output
    SCHEMA.validate(str(target))
    assert f"wrote {target}" in result.output
    assert not list(target.parent.glob("*.tmp"))


def test_report_junit_to_a_folder_is_bad_input(v1_copy: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(v1_copy), "--junit", str(tmp_path)])
    assert result.exit_code == 2
    assert "--junit" in result.output and "is a folder" in result.output
