"""Human labels as a rater: each judge's (and the rules') agreement with people."""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_helpers import PerUnitJudge, make_run, table_of, unit_id

from supportsim.errors import InputError
from supportsim.judges import HUMAN_LABELS, JUDGMENTS, judge_run, load_human_labels, parse_label
from supportsim.testing import MockLLMServer

AGENTS = ("A", "B")


def labels_csv(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "labels.csv"
    path.write_text("unit_id,criterion,label,note\n" + "\n".join(rows) + "\n")
    return path


async def test_judges_and_rules_against_human_labels(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    # Units A1 A2 B1 B2. rules 1110, j1 1100, j2 1010, humans 1010.
    run = make_run(tmp_path, agents=AGENTS, trials=2, pattern="11 10")
    server.default("j1", PerUnitJudge(table_of("11 00", agents=AGENTS, trials=2)))
    server.default("j2", PerUnitJudge(table_of("10 10", agents=AGENTS, trials=2)))
    human = labels_csv(
        tmp_path,
        [
            f"{unit_id('A', 1)},overall,pass,clear",
            f"{unit_id('A', 2)},overall,FAIL,",
            f"{unit_id('B', 1)},overall,yes,",
            f"{unit_id('B', 2)},overall,0,",
            f"{unit_id('A', 1)},tone,fail,curt",
            "",
        ],
    )
    outcome = await judge_run(
        run, judge_specs=["openai:j1", "openai:j2"], human_path=human, env=env
    )
    s = outcome.summary
    assert s["human"] == {"labels": 5, "units": 4, "source": str(human)}
    vs = s["vs_human"]
    # j1 1100 vs 1010: po 1/2, pe 1/2 -> 0.
    assert vs["openai:j1"]["overall"] == {"n": 4, "agreement": 0.5, "kappa": 0.0}
    assert vs["openai:j2"]["overall"] == {"n": 4, "agreement": 1.0, "kappa": 1.0}
    # rules 1110: po 3/4, pe 3/8 + 1/8 = 1/2 -> 1/2.
    assert vs["strict"]["overall"] == {"n": 4, "agreement": 0.75, "kappa": 0.5}
    # majority of j1, j2 (a tie fails): 1000; po 3/4, pe 1/2 -> 1/2.
    assert vs["majority"]["overall"] == {"n": 4, "agreement": 0.75, "kappa": 0.5}
    assert vs["openai:j1"]["tone"] == {"n": 1, "agreement": 0.0, "kappa": 0.0}
    assert "tone" not in vs["strict"]
    taus = {(t["a"], t["b"]): t["tau"] for t in s["ranking"]["tau"]}
    assert taus[("openai:j2", "human")] is None  # humans pass A and B alike: no ranking


async def test_human_labels_can_be_added_after_judging(
    tmp_path: Path, server: MockLLMServer, env: dict
) -> None:
    run = make_run(tmp_path, agents=AGENTS, trials=1, pattern="10")
    server.default("j1", PerUnitJudge(table_of("10", agents=AGENTS, trials=1)))
    await judge_run(run, judge_specs=["openai:j1"], env=env)
    human = labels_csv(
        tmp_path, [f"{unit_id('A', 1)},overall,pass", f"{unit_id('B', 1)},overall,pass"]
    )
    outcome = await judge_run(run, human_path=human, env={})
    assert outcome.plan is None
    assert (run / HUMAN_LABELS).exists()
    assert outcome.summary["vs_human"]["openai:j1"]["overall"] == {
        "n": 2,
        "agreement": 0.5,
        "kappa": 0.0,
    }


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["nope|A|1,overall,pass"], "labels.csv:2 [unit_id]: no completed unit 'nope|A|1'"),
        ([f"{unit_id('A', 1)},kindness,pass"], "labels.csv:2 [criterion]: unknown criterion"),
        ([f"{unit_id('A', 1)},overall,meh"], "labels.csv:2 [label]: 'meh' is not pass or fail"),
        (
            [f"{unit_id('A', 1)},overall,pass", f"{unit_id('A', 1)},overall,fail"],
            "labels.csv:3 [label]: contradicts an earlier row",
        ),
    ],
)
async def test_bad_labels_name_the_line_and_write_nothing(
    tmp_path: Path, env: dict, rows: list[str], message: str
) -> None:
    run = make_run(tmp_path, agents=("A",), trials=1, pattern="1")
    human = labels_csv(tmp_path, rows)
    with pytest.raises(InputError) as info:
        await judge_run(run, judge_specs=["openai:j1"], human_path=human, env=env)
    assert message in str(info.value)
    assert not (run / HUMAN_LABELS).exists()
    assert not (run / JUDGMENTS).exists()


def test_missing_columns_and_empty_files(tmp_path: Path) -> None:
    path = tmp_path / "h.csv"
    path.write_text("unit,label\nx,pass\n")
    with pytest.raises(InputError, match="missing column\\(s\\) unit_id, criterion"):
        load_human_labels(path, units={"x"}, criteria={"overall"})
    path.write_text("unit_id,criterion,label\n")
    with pytest.raises(InputError, match="no labels"):
        load_human_labels(path, units={"x"}, criteria={"overall"})


def test_label_words() -> None:
    assert [parse_label(w) for w in ("Pass", " true", "1", "fail", "No", "x")] == [
        True,
        True,
        True,
        False,
        False,
        None,
    ]
