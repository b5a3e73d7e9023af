"""What partial says about conversations that are wrong in known ways, old rule against new.

    python benchmarks/bench_partial.py [SCENARIOS_DIR]     # default: the bundled library

Scores, over every scenario: the oracle, the four baseline agents, and every invalid
variant of ``validate --perturb`` (a write dropped, a wrong argument, a write before its
gate, a statement dropped or wrong, evidence never seen, a forbidden call or disclosure,
another customer's data, a transfer dropped or added), grouped by what the variant breaks.
Prints the mean partial under the old rule (the weighted share of all checks passed) and
under the new one (``scoring._partial``: the workflow done, ends in proportion, broken
guardrails taken off). These are the figures the README's "Scoring" section quotes.
"""

from __future__ import annotations

import asyncio
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.scenario import load_personas, load_scenarios
from supportsim.scoring import CONCEPTS, Check, Score, oracle_run
from supportsim.validate import perturb, run_baselines
from supportsim.validate._variant import Variant

ROOT = Path(__file__).resolve().parents[1]


def old_partial(checks: Sequence[Check]) -> float:
    """The rule before issue 22: the weighted share of every check passed."""
    total = sum(c.weight for c in checks)
    return sum(c.weight for c in checks if c.passed) / total if total else 1.0


STATEMENT_VALUES = ("money", "date", "time", "duration", "percent", "id", "phrase", "concept")
CLASSES = (
    ("dropped write", "a write dropped"),
    ("before its gate", "a write before its gate"),
    ("dropped statement", "a statement dropped"),
    ("never looked at", "evidence never looked at"),
    ("forbidden call", "a forbidden call made"),
    ("disclosed", "a forbidden disclosure"),
    ("answered in English", "answered in English"),
    ("identity detail", "the wrong identity detail named"),
    ("another customer", "another customer's data read out"),
    ("dropped the transfer", "a needed transfer dropped"),
    ("unnecessary transfer", "an unneeded transfer added"),
)


def group(name: str) -> str:
    """What an invalid variant breaks, from its name."""
    if name.startswith("wrong "):
        kind = name.split()[1]
        return "a statement with a wrong value" if kind in STATEMENT_VALUES else "a wrong argument"
    return next((label for key, label in CLASSES if key in name), name)


async def main(folder: Path) -> None:
    domains = builtin_domains()
    scenarios = load_scenarios(
        [folder],
        catalogue=DomainCatalogue(domains, CONCEPTS),
        personas=load_personas([ROOT / "personas"]),
    )
    rows: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for scenario in scenarios:
        domain = domains[scenario.domain]
        _, oracle = await oracle_run(domain, scenario)
        rows["oracle"].append((old_partial(oracle.checks), oracle.partial))

        def seen(variant: Variant, score: Score) -> None:
            if variant.expect == "invalid":
                key = "invalid: " + group(variant.name)
                rows[key].append((old_partial(score.checks), score.partial))

        await perturb(domain, scenario, observe=seen)
    for result in await run_baselines(domains, scenarios):
        for run in result.runs:
            rows[result.name].append((old_partial(run.score.checks), run.score.partial))
    print(f"{'conversation':44} {'n':>5} {'old partial':>12} {'new partial':>12}")
    for key in sorted(rows, key=lambda k: (not k.startswith("oracle"), k.startswith("inv"), k)):
        pairs = rows[key]
        old = sum(p[0] for p in pairs) / len(pairs)
        new = sum(p[1] for p in pairs) / len(pairs)
        print(f"{key:44} {len(pairs):5d} {old:12.1%} {new:12.1%}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "scenarios"))
