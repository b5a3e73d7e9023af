"""The README's tutorial, as written, on an empty folder, offline: a newcomer following it
reaches a report of their own ``python:`` Agent on the smoke suite against the mock server.
And the README stays a front door: short, its quickstart the two commands CI runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

from blocks import readme_blocks, run_blocks, unmarked

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
TUTORIAL = ("## Test your own agent in five minutes", "## Read your first failing report")


def section(title: str) -> str:
    return README.split(f"{title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_readme_tutorial_runs_as_written_and_reaches_a_report(tmp_path: Path) -> None:
    blocks = [b for title in TUTORIAL for b in readme_blocks(section(title))]
    assert list(unmarked(blocks)) == []
    assert sum(b.kind == "offline" for b in blocks) == 1  # the real key's run, and only it
    assert [b.title for b in blocks if b.kind == "file"] == ["my_agent.py"]
    reader = run_blocks(blocks, tmp_path)
    assert reader.real_cli  # its first supportsim command ran as a user runs it
    run_dir = reader.work / "my-agent" / "runs" / "first"
    records = [json.loads(line) for line in (run_dir / "conversations.jsonl").open()]
    assert {r["agent"] for r in records} == {"my-agent"}
    assert len(records) == 10 and all(r["status"] == "completed" for r in records)
    # its model calls went to the mock server through the real OpenAI SDK
    assert all(m["role"] != "agent" or m["content"] for r in records for m in r["messages"])
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    assert "my-agent" in html
    assert "checks that fail most often" in reader.outputs[-1]


def test_the_readme_is_a_front_door() -> None:
    assert len(README.splitlines()) <= 250
    quick = section("## Quickstart")
    commands = re.findall(r"```bash\n(.*?)\n```", quick, flags=re.S)
    assert len(commands) == 2  # one installs and runs the demo, one installs and tests
    assert "runs/demo.yaml" in commands[0]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    steps = [s.strip() for s in commands[1].split("&&")]
    at = 0
    for step in steps:  # .ci/run runs the same steps, in the same order
        at = ci.index(step, at) + len(step)
    for link in re.findall(r"\]\((docs/[^)#]+)", README):
        assert (ROOT / link).is_file(), link
