"""The customer review's cost per conversation (``supportsim.scoring.review``).

    python benchmarks/bench_customer_review.py            # the bundled library
    python benchmarks/bench_customer_review.py --rounds 5

Holds the oracle's conversation with the scripted Customer on every bundled scenario once,
then reviews each conversation ``--rounds`` times, and prints the review's time per
conversation (first round: cold caches; the others: warm), beside ``score``'s time on the
same conversations, and the model calls the review made (none: every finding is a rule's).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.scenario import load_personas, load_scenarios
from supportsim.scoring import CONCEPTS, oracle_run, reference_state, score
from supportsim.scoring.review import review_customer

ROOT = Path(__file__).resolve().parents[1]


def _ms(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[int(0.9 * (len(values) - 1))]
    mean, p50 = statistics.fmean(values), statistics.median(values)
    return f"mean {mean:.2f} ms, p50 {p50:.2f}, p90 {p90:.2f}, max {values[-1]:.2f}"


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    domains = builtin_domains()
    personas = load_personas([ROOT / "personas"])
    library = load_scenarios(
        [ROOT / "scenarios"], catalogue=DomainCatalogue(domains, CONCEPTS), personas=personas
    )
    held = []
    for s in library:
        transcript, _ = await oracle_run(domains[s.domain], s)
        held.append((s, transcript, await reference_state(domains[s.domain], s)))
    rounds: list[list[float]] = []
    findings = 0
    for _ in range(args.rounds):
        times = []
        for s, transcript, _ in held:
            started = time.perf_counter()
            review = review_customer(s, personas[s.persona], domains[s.domain], transcript)
            times.append((time.perf_counter() - started) * 1000)
            findings += len(review.findings)
        rounds.append(times)
    scoring = []
    for s, transcript, reference in held:
        started = time.perf_counter()
        score(s, domains[s.domain], transcript, reference)
        scoring.append((time.perf_counter() - started) * 1000)
    messages = statistics.fmean(len(t.messages) for _, t, _ in held)
    print(f"{len(held)} conversations, {messages:.1f} messages each on average")
    print(f"review, first round (cold): {_ms(rounds[0])}")
    warm = [t for r in rounds[1:] for t in r]
    if warm:
        print(f"review, rounds 2-{args.rounds} (warm): {_ms(warm)}")
    print(f"score, same conversations (warm): {_ms(scoring)}")
    print(f"findings: {findings} over {args.rounds} rounds; model calls per conversation: 0")


if __name__ == "__main__":
    asyncio.run(main())
