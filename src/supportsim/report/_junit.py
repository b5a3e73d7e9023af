"""``report --junit PATH``: the run as JUnit XML, the format CI systems read.

One ``<testsuite>`` per agent and one ``<testcase>`` per unit, named
``scenario/agent/trial`` (classname: the agent). A strict pass passes; a scored
conversation that is not a strict pass is a ``<failure>`` whose message names the failing
checks with their reasons (the body lists every one); a harness error (a bug of ours or of
a plugged-in agent) is an ``<error>`` with its traceback; an infra error or a simulator
fault is not scored and is ``<skipped>``, as is a planned unit with no record yet.
``time`` is the conversation's duration from the record. The layout follows the Jenkins
xUnit plugin's ``junit-10.xsd``, which GitHub, GitLab and Jenkins readers accept.

Model text may hold characters XML 1.0 cannot carry (NUL, ESC, lone surrogates): they are
written as visible escapes, so the file always parses.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from supportsim._printable import printable
from supportsim.report._load import RunData
from supportsim.store import ConversationRecord, unit_key

MESSAGE_CHARS = 500
"""Longest failure message attribute; the element's text holds everything."""
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


def _text(value: object) -> str:
    """Text XML 1.0 can carry: controls and non-characters written as visible escapes."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", printable(value, newlines=True))


def _seconds(record: ConversationRecord) -> float:
    if record.duration_s:
        return record.duration_s
    try:
        started = datetime.fromisoformat(record.started_at)
        ended = datetime.fromisoformat(record.ended_at)
    except ValueError:
        return 0.0
    return max((ended - started).total_seconds(), 0.0)


def _short(text: str) -> str:
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"


def _last_line(text: str | None) -> str:
    """A traceback's last line: the exception and its message."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _failure(record: ConversationRecord) -> tuple[str, str]:
    """(message, body) of a scored conversation that is not a strict pass."""
    failed = [c for c in record.checks if not c.passed]
    lines = [f"{c.id} ({c.kind}): {c.reason}" for c in failed]
    if failed:
        first = failed[0]
        message = f"{len(failed)} of {len(record.checks)} checks failed: {first.id}: {first.reason}"
    else:
        message = f"every check passed but the conversation ended by {record.termination}"
    if record.termination not in ("customer_done", "agent_transfer"):
        lines.append(
            f"ended by {record.termination}"
            + (f": {record.end_reason}" if record.end_reason else "")
        )
    lines.append(f"partial {record.partial:.3f}")
    return message, "\n".join(lines)


def _testcase(parent: ET.Element, record: ConversationRecord, several: bool) -> str:
    """Append the unit's testcase; returns its outcome: passed, failure, error or skipped.
    ``several``: the run has several Customers (the case's name names its Customer)."""
    case = ET.SubElement(
        parent,
        "testcase",
        name=_text(
            _case_name(
                record.scenario_id,
                record.agent,
                record.trial,
                record.customer if several else None,
            )
        ),
        classname=_text(record.agent),
        time=f"{_seconds(record):.3f}",
    )
    if record.status == "harness_error":
        error = ET.SubElement(
            case,
            "error",
            message=_text(_short(_last_line(record.error) or record.end_reason or "harness error")),
            type="harness_error",
        )
        error.text = _text(record.error or record.end_reason or "harness error")
        return "error"
    if record.status != "completed":
        why = record.end_reason or record.error or ""
        ET.SubElement(
            case,
            "skipped",
            message=_text(_short(f"not scored: {record.status}" + (f": {why}" if why else ""))),
        )
        return "skipped"
    if record.strict:
        return "passed"
    message, body = _failure(record)
    failure = ET.SubElement(case, "failure", message=_text(_short(message)), type="checks")
    failure.text = _text(body)
    return "failure"


def _case_name(scenario: str, agent: str, trial: int, customer: str | None) -> str:
    """``scenario/agent/trial``, and ``/customer`` in a run of several Customers."""
    return f"{scenario}/{agent}/{trial}" + ("" if customer is None else f"/{customer}")


def _not_run(
    parent: ET.Element, scenario: str, agent: str, trial: int, customer: str | None
) -> None:
    case = ET.SubElement(
        parent,
        "testcase",
        name=_text(_case_name(scenario, agent, trial, customer)),
        classname=_text(agent),
        time="0.000",
    )
    ET.SubElement(case, "skipped", message="not run: the run ended before this unit")


def _unrecorded(run: RunData) -> dict[str, list[tuple[str, int, str | None]]]:
    """agent -> (scenario, trial, customer) of the units run.json plans that have no
    record (customer: None in a run of one Customer)."""
    recorded = {r.unit_id for r in run.records}
    out: dict[str, list[tuple[str, int, str | None]]] = defaultdict(list)
    if run.plan is None:
        return out
    for scenario, agent, trial, customer in sorted(
        run.plan.units(), key=lambda u: (u[0], u[1], u[2], u[3] or "")
    ):
        if unit_key(scenario, agent, trial, customer) not in recorded:
            out[agent].append((scenario, trial, customer))
    return out


def render_junit(run: RunData) -> str:
    """The JUnit XML document of a loaded run (UTF-8 text with its declaration)."""
    by_agent: dict[str, list[ConversationRecord]] = defaultdict(list)
    for record in sorted(run.records, key=lambda r: (r.agent, r.scenario_id, r.trial)):
        by_agent[record.agent].append(record)
    missing = _unrecorded(run)
    root = ET.Element("testsuites", name=_text(f"supportsim {run.run_id}"))
    totals: dict[str, float] = defaultdict(float)
    for agent in sorted(set(by_agent) | set(missing)):
        suite = ET.SubElement(root, "testsuite", name=_text(agent))
        several = run.plan is not None and run.plan.several_customers
        outcomes = [_testcase(suite, r, several) for r in by_agent[agent]]
        for scenario, trial, customer in missing[agent]:
            _not_run(suite, scenario, agent, trial, customer)
            outcomes.append("skipped")
        seconds = sum(_seconds(r) for r in by_agent[agent])
        counts = {k: outcomes.count(k) for k in ("failure", "error", "skipped")}
        suite.set("tests", str(len(outcomes)))
        suite.set("failures", str(counts["failure"]))
        suite.set("errors", str(counts["error"]))
        suite.set("skipped", str(counts["skipped"]))
        suite.set("time", f"{seconds:.3f}")
        totals["tests"] += len(outcomes)
        totals["failures"] += counts["failure"]
        totals["errors"] += counts["error"]
        totals["time"] += seconds
    for key in ("tests", "failures", "errors"):
        root.set(key, str(int(totals[key])))
    root.set("time", f"{totals['time']:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def junit_outcomes(xml: str) -> dict[str, str]:
    """testcase name -> passed / failure / error / skipped, read back (for tests and
    for anyone checking what a CI system will show)."""
    out = {}
    for case in ET.fromstring(xml).iter("testcase"):
        kinds: Sequence[str] = [
            child.tag for child in case if child.tag in ("failure", "error", "skipped")
        ]
        out[case.get("name", "")] = kinds[0] if kinds else "passed"
    return out
