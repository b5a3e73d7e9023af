"""The rule path's reading of agent text against the blind statement corpus.

    python benchmarks/bench_reading.py tune            # precision / recall per label and language
    python benchmarks/bench_reading.py tune --errors concept:refunding:en
    python benchmarks/bench_reading.py tune --half a   # grow on half a, measure on half b

Prints precision, recall and kappa per (dimension, label) and language, overall micro-averaged,
and the time per statement. Tune rules on ``tune`` only; the ``holdout`` split is for the
figures reported when a change is done (``supportsim judge-eval holdout``).

``--half`` splits a corpus in two by the sha256 of each item's id. The tune/holdout split
already took the digest's parity (every tune id's digest is even), so the halves take the
next bit: ``a`` when ``digest // 2`` is even, ``b`` when it is odd. Grow rules on half ``a``
and measure on half ``b``: the gap between the halves estimates how far the rules were
fitted to the items they were grown from.
"""

from __future__ import annotations

import argparse
import hashlib
import time

from supportsim.validate import LANGUAGES, Statement, evaluate, load_corpus, table_lines


def half(item: Statement) -> str:
    """``a`` when the sha256 of the item's id, halved, is even; ``b`` when it is odd."""
    return "ab"[int(hashlib.sha256(item.id.encode()).hexdigest(), 16) // 2 % 2]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("split", nargs="?", default="tune")
    parser.add_argument("--half", choices=("a", "b"), help="only the items of one half")
    parser.add_argument("--errors", help="dimension:label:lang whose mistakes to list")
    args = parser.parse_args()
    items = load_corpus(args.split)
    if args.half:
        items = [s for s in items if half(s) == args.half]
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
