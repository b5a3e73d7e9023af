"""The rule path's reading of agent text against the blind statement corpus.

    python benchmarks/bench_reading.py tune            # precision / recall per label and language
    python benchmarks/bench_reading.py tune --errors concept:refunding:en

Prints precision, recall and kappa per (dimension, label) and language, overall micro-averaged,
and the time per statement. Tune rules on ``tune`` only; the ``holdout`` split is for the
figures reported when a change is done (``supportsim judge-eval holdout``).
"""

from __future__ import annotations

import argparse
import time

from supportsim.validate import LANGUAGES, evaluate, load_corpus, table_lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("split", nargs="?", default="tune")
    parser.add_argument("--errors", help="dimension:label:lang whose mistakes to list")
    args = parser.parse_args()
    items = load_corpus(args.split)
    started = time.perf_counter()
    tally = evaluate(items)
    per_ms = (time.perf_counter() - started) / len(items) * 1000
    print("\n".join(table_lines(tally, LANGUAGES)))
    print(f"{len(items)} statements, {per_ms:.2f} ms each")
    if args.errors:
        dimension, label, lang = args.errors.split(":")
        by_id = {s.id: s for s in items}
        for error in tally.by[(dimension, label, lang)].errors:
            item, kind = error.rsplit(":", 1)
            print(f"{kind} {item}: {by_id[item].text}")


if __name__ == "__main__":
    main()
