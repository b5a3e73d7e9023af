"""The rule path's reading of agent text against the blind statement corpus.

    python benchmarks/bench_reading.py tune            # precision / recall per label and language
    python benchmarks/bench_reading.py tune --errors concept:refunding:en

Prints precision and recall per (dimension, label) and language, overall micro-averaged,
and the time per statement. Tune rules on ``tune`` only; the ``holdout`` split is for the
figures reported when a change is done (``supportsim judge-eval holdout``).
"""

from __future__ import annotations

import argparse
import time

from supportsim.validate import LANGUAGES, evaluate, load_corpus, rows


def _f(x: object) -> str:
    return "  -  " if x is None else f"{x:5.2f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("split", nargs="?", default="tune")
    parser.add_argument("--errors", help="dimension:label:lang whose mistakes to list")
    args = parser.parse_args()
    items = load_corpus(args.split)
    started = time.perf_counter()
    tally = evaluate(items)
    per_ms = (time.perf_counter() - started) / len(items) * 1000
    head = "  ".join(f"{lang}:P/R     " for lang in LANGUAGES)
    print(f"{'dimension':10} {'label':20} {'P':>5} {'R':>5}   {head}")
    for r in rows(tally, LANGUAGES):
        langs = "  ".join(
            f"{_f(r[f'{lang}_precision'])}/{_f(r[f'{lang}_recall'])}" for lang in LANGUAGES
        )
        print(
            f"{r['dimension']:10} {r['label']:20} {_f(r['precision'])} {_f(r['recall'])}   {langs}"
        )
    print(f"{len(items)} statements, {per_ms:.2f} ms each")
    if args.errors:
        dimension, label, lang = args.errors.split(":")
        by_id = {s.id: s for s in items}
        for error in tally.by[(dimension, label, lang)].errors:
            item, kind = error.rsplit(":", 1)
            print(f"{kind} {item}: {by_id[item].text}")


if __name__ == "__main__":
    main()
