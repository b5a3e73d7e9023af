"""agreement_summary(run_dir): how far to trust each judge, as one JSON-able dict.

Computed here once; views (terminal, HTML, the report) only render it. A judge's verdict on
a unit is the majority of its samples (a tie fails); the judges' verdict is the majority of
the judges (a tie fails too). Raters are the judges, ``strict`` (the deterministic verdict
of the checks, overall only) and ``human`` (labels given with ``--human``). Every pairwise
statistic uses the units both raters rated; Fleiss' kappa uses the units every judge rated.
Only judgments under the rubric in judges.json, of the unit's latest completed record,
count. Spend counts every judgment ever made (money spent is spent).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from supportsim.judges._agreement import (
    cohen_kappa,
    confusion,
    consistency,
    fleiss_kappa,
    kendall_tau_b,
    majority,
    percent_agreement,
)
from supportsim.judges._records import (
    JudgmentRecord,
    iter_judgments,
    read_human_labels,
    read_judges_manifest,
)
from supportsim.judges._rubric import OVERALL, Rubric
from supportsim.judges._session import completed_records, current
from supportsim.scoring import wilson_interval
from supportsim.store import DOCUMENT_SCHEMA_VERSION, ConversationRecord, latest_records

STRICT = "strict"
HUMAN = "human"
MAJORITY = "majority"
JUSTIFICATION_EXCERPT = 300

# rater -> criterion -> unit -> verdict
Ratings = dict[str, dict[str, dict[str, bool]]]


def _rate(labels: Sequence[bool]) -> dict[str, Any]:
    n, passes = len(labels), sum(labels)
    low, high = wilson_interval(passes, n)
    return {
        "n": n,
        "passes": passes,
        "rate": passes / n if n else None,
        "ci95": [low, high] if n else None,
    }


def _known_sum(values: Iterable[float | None]) -> float | None:
    items = list(values)
    if any(v is None for v in items):
        return None
    return float(sum(v for v in items if v is not None))


def _paired(
    a: Mapping[str, bool], b: Mapping[str, bool]
) -> tuple[list[str], list[bool], list[bool]]:
    units = sorted(set(a) & set(b))
    return units, [a[u] for u in units], [b[u] for u in units]


def _agreement(a: Mapping[str, bool], b: Mapping[str, bool]) -> dict[str, Any]:
    _, x, y = _paired(a, b)
    return {"n": len(x), "agreement": percent_agreement(x, y), "kappa": cohen_kappa(x, y)}


def _votes(judgments: Iterable[JudgmentRecord]) -> dict[str, dict[str, dict[str, dict[int, bool]]]]:
    """judge -> criterion -> unit -> sample -> verdict, over ok judgments (last one wins)."""
    votes: dict[str, dict[str, dict[str, dict[int, bool]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(dict))
    )
    for j in judgments:
        if j.status != "ok":
            continue
        for criterion, found in j.verdicts.items():
            votes[j.judge][criterion][j.unit_id][j.sample] = found.get("verdict") == "pass"
    return votes


def _self_consistency(per_unit: Mapping[str, Mapping[str, dict[int, bool]]]) -> dict[str, Any]:
    overall = {u: list(s.values()) for u, s in per_unit.get(OVERALL, {}).items() if len(s) > 1}
    scores = [consistency(v) or 0.0 for v in overall.values()]
    by_criterion = {}
    for criterion, units in sorted(per_unit.items()):
        values = [consistency(list(s.values())) or 0.0 for s in units.values() if len(s) > 1]
        by_criterion[criterion] = sum(values) / len(values) if values else None
    return {
        "units": len(overall),
        "mean": sum(scores) / len(scores) if scores else None,
        "unanimous": sum(s == 1.0 for s in scores) / len(scores) if scores else None,
        "by_criterion": by_criterion,
    }


def _ranking(
    ratings: Ratings, raters: Sequence[str], agent_of: Mapping[str, str]
) -> dict[str, Any]:
    """Pass rate per agent per rater (overall) and Kendall's tau-b between the rankings."""
    rates: dict[str, dict[str, float]] = {}
    for rater in raters:
        per_agent: dict[str, list[bool]] = defaultdict(list)
        for unit, verdict in ratings.get(rater, {}).get(OVERALL, {}).items():
            per_agent[agent_of[unit]].append(verdict)
        rates[rater] = {a: sum(v) / len(v) for a, v in sorted(per_agent.items())}
    taus = []
    for a, b in combinations(raters, 2):
        agents = sorted(set(rates[a]) & set(rates[b]))
        taus.append(
            {
                "a": a,
                "b": b,
                "agents": len(agents),
                "tau": kendall_tau_b([rates[a][g] for g in agents], [rates[b][g] for g in agents]),
            }
        )
    return {"rates": rates, "tau": taus}


def _vs_strict(judge: Mapping[str, bool], strict: Mapping[str, bool]) -> dict[str, Any]:
    units, j, s = _paired(judge, strict)
    return {
        "n": len(units),
        "agreement": percent_agreement(j, s),
        "kappa": cohen_kappa(j, s),
        **confusion(j, s),
        "judge_passes_rules_fail": [u for u in units if judge[u] and not strict[u]],
        "judge_fails_rules_pass": [u for u in units if not judge[u] and strict[u]],
    }


def _excerpt(judgments: Sequence[JudgmentRecord], verdict: bool) -> str:
    for j in sorted(judgments, key=lambda j: j.sample):
        found = j.verdicts.get(OVERALL) or {}
        if (found.get("verdict") == "pass") == verdict:
            text = found.get("justification", "")
            if len(text) > JUSTIFICATION_EXCERPT:
                return text[:JUSTIFICATION_EXCERPT] + "…"
            return text
    return ""


def _splits(
    judges: Sequence[str],
    ratings: Ratings,
    criteria: Sequence[str],
    records: Mapping[str, ConversationRecord],
    by_key: Mapping[tuple[str, str], list[JudgmentRecord]],
) -> list[dict[str, Any]]:
    """Conversations where the judges' overall verdicts differ: the human review queue."""
    out = []
    for unit in sorted(records):
        verdicts = {j: ratings[j][OVERALL][unit] for j in judges if unit in ratings[j][OVERALL]}
        if len(verdicts) < 2 or len(set(verdicts.values())) < 2:
            continue
        record = records[unit]
        split_criteria = [
            c
            for c in criteria
            if len({ratings[j][c][unit] for j in judges if unit in ratings[j][c]}) > 1
        ]
        out.append(
            {
                "unit_id": unit,
                "scenario_id": record.scenario_id,
                "agent": record.agent,
                "trial": record.trial,
                "strict": record.strict,
                "verdicts": {j: "pass" if v else "fail" for j, v in verdicts.items()},
                "passes": sum(verdicts.values()),
                "judges": len(verdicts),
                "criteria_split": split_criteria,
                "justifications": {
                    j: _excerpt(by_key.get((unit, j), []), v) for j, v in verdicts.items()
                },
            }
        )
    return out


def _human_ratings(
    document: Mapping[str, Any] | None, units: Mapping[str, Any]
) -> dict[str, dict[str, bool]]:
    """criterion -> unit -> label, for labelled units that are still judgeable."""
    found: dict[str, dict[str, bool]] = defaultdict(dict)
    for row in (document or {}).get("labels", []):
        if row.get("unit_id") in units:
            found[row["criterion"]][row["unit_id"]] = row.get("label") == "pass"
    return dict(found)


def _cost(
    all_judgments: Sequence[JudgmentRecord], latest: Mapping[str, ConversationRecord]
) -> dict[str, Any]:
    per_judge: dict[str, list[float | None]] = defaultdict(list)
    for j in all_judgments:
        if j.attempts:
            per_judge[j.judge].append(j.cost_usd)
    judges = {name: _known_sum(costs) for name, costs in sorted(per_judge.items())}
    total_judges = _known_sum(judges.values()) if judges else 0.0
    conversations = _known_sum(r.cost_usd for r in latest.values()) if latest else 0.0
    return {
        "conversations_usd": conversations,
        "judges_usd": judges,
        "judges_total_usd": total_judges,
        "total_usd": _known_sum([conversations, total_judges]),
    }


def agreement_summary(run_dir: Path) -> dict[str, Any]:
    """Every judge statistic of a run; ``{"available": False, ...}`` when never judged.

    Keys: rubric, judges, units, coverage, pass_rates (agent -> rater -> rate with 95%
    Wilson interval, overall), criteria_pass_rates, self_consistency, pairwise and fleiss
    (per criterion), mean_pairwise_agreement, ranking (rates and Kendall's tau-b),
    vs_strict, human, vs_human, majority, splits, cost. See the module docstring.
    """
    manifest = read_judges_manifest(run_dir)
    if manifest is None or "rubric" not in manifest:
        return {
            "schema_version": DOCUMENT_SCHEMA_VERSION,
            "available": False,
            "reason": "no judgments in this run (supportsim judge)",
        }
    rubric = Rubric.model_validate(manifest["rubric"])
    sha = str(manifest.get("rubric_sha256") or rubric.sha256)
    criteria = rubric.criterion_ids
    latest = latest_records(run_dir)
    records = completed_records(run_dir)
    all_judgments = list(iter_judgments(run_dir))
    counted = [j for j in all_judgments if current(j, records, sha)]
    by_key: dict[tuple[str, str], list[JudgmentRecord]] = defaultdict(list)
    for j in counted:
        if j.status == "ok":
            by_key[(j.unit_id, j.judge)].append(j)
    votes = _votes(counted)
    judges = sorted({j.judge for j in counted})
    ratings: Ratings = {}
    for judge in judges:
        ratings[judge] = {
            c: {
                u: bool(majority(list(samples.values())))
                for u, samples in sorted(votes[judge][c].items())
            }
            for c in criteria
        }
    ratings[STRICT] = {OVERALL: {u: bool(r.strict) for u, r in records.items()}}
    agent_of = {u: r.agent for u, r in records.items()}
    judged_units = sorted({u for j in judges for u in ratings[j][OVERALL]})
    ratings[MAJORITY] = {
        c: {
            u: bool(majority([ratings[j][c][u] for j in judges if u in ratings[j][c]]))
            for u in judged_units
            if any(u in ratings[j][c] for j in judges)
        }
        for c in criteria
    }
    ok_keys = {j.key for j in counted if j.status == "ok"}
    failed_keys = {j.key for j in counted if j.status != "ok"} - ok_keys

    agents = sorted({r.agent for r in records.values()})
    pass_rates = {
        agent: {
            rater: _rate([v for u, v in ratings[rater][OVERALL].items() if agent_of[u] == agent])
            for rater in [STRICT, *judges, MAJORITY]
        }
        for agent in agents
    }
    human_document = read_human_labels(run_dir)
    human = _human_ratings(human_document, records)
    if human:
        ratings[HUMAN] = human
    pairwise = {
        c: [
            {"a": a, "b": b, **_agreement(ratings[a][c], ratings[b][c])}
            for a, b in combinations(judges, 2)
        ]
        for c in criteria
    }
    fleiss = {}
    for c in criteria:
        common = sorted(set.intersection(*(set(ratings[j][c]) for j in judges))) if judges else []
        rows = [[ratings[j][c][u] for j in judges] for u in common]
        fleiss[c] = {
            "n": len(rows),
            "raters": len(judges),
            "kappa": fleiss_kappa(rows) if len(judges) >= 2 else None,
        }
    mean_pairwise = {}
    for c in criteria:
        values = [p["agreement"] for p in pairwise[c] if p["agreement"] is not None]
        mean_pairwise[c] = sum(values) / len(values) if values else None
    ranking_raters = [STRICT, *judges] + ([HUMAN] if OVERALL in human else [])
    return {
        "schema_version": DOCUMENT_SCHEMA_VERSION,
        "available": True,
        "rubric": {"name": rubric.name, "sha256": sha, "criteria": criteria},
        "judges": judges,
        "units": len(records),
        "coverage": {
            j: {
                "units": len(ratings[j][OVERALL]),
                "judgments": sum(1 for k in ok_keys if k[1] == j),
                "samples": max((k[2] for k in ok_keys if k[1] == j), default=0),
                "infra_errors": sum(1 for k in failed_keys if k[1] == j),
            }
            for j in judges
        },
        "pass_rates": pass_rates,
        "criteria_pass_rates": {
            rater: {c: _rate(list(ratings[rater][c].values())) for c in criteria}
            for rater in [*judges, MAJORITY]
        },
        "self_consistency": {j: _self_consistency(votes[j]) for j in judges},
        "pairwise": pairwise,
        "fleiss": fleiss,
        "mean_pairwise_agreement": mean_pairwise,
        "ranking": _ranking(ratings, ranking_raters, agent_of),
        "vs_strict": {j: _vs_strict(ratings[j][OVERALL], ratings[STRICT][OVERALL]) for j in judges},
        "human": {
            "labels": sum(len(v) for v in human.values()),
            "units": len({u for v in human.values() for u in v}),
            "source": (human_document or {}).get("source"),
        }
        if human
        else None,
        "vs_human": {
            rater: {
                c: _agreement(ratings[rater][c], human[c])
                for c in criteria
                if c in human and c in ratings[rater]
            }
            for rater in [*judges, MAJORITY, STRICT]
        }
        if human
        else {},
        "majority": {
            u: {
                "verdict": "pass" if ratings[MAJORITY][OVERALL][u] else "fail",
                "passes": sum(ratings[j][OVERALL].get(u, False) for j in judges),
                "judges": sum(u in ratings[j][OVERALL] for j in judges),
            }
            for u in sorted(ratings[MAJORITY][OVERALL])
        },
        "splits": _splits(judges, ratings, criteria, records, by_key),
        "cost": _cost(all_judgments, latest),
    }
