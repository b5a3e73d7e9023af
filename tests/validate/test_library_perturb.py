"""``validate --perturb`` over the whole bundled library, with statements drawn from the blind
corpus (``tune``): every valid variant must pass and every invalid one be caught by the check
it targets. A variant the rules get wrong today is a measured finding, listed one line each
and counted in ``known_perturb.yaml`` (``expectations.py``); the list may only shrink.

Print the per-scenario counts, the totals and the findings with
``pytest tests/validate/test_library_perturb.py -s``.
"""

from __future__ import annotations

from pathlib import Path

from expectations import Known, compare_known

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.scenario import load_personas, load_scenarios
from supportsim.scoring import CONCEPTS
from supportsim.validate import perturb

ROOT = Path(__file__).resolve().parents[2]
KNOWN = Path(__file__).with_name("known_perturb.yaml")
HEADER = """\
Perturbation variants the rules get wrong today (tests/validate/test_library_perturb.py).
kind valid: a valid variant that fails (a false failure: the checks reject a competent Agent).
kind invalid: an invalid variant not caught by the check it targets (a false pass).
check names the variant (a corpus sentence by its id); why is the verdict.
Every fix removes a line; the test fails when a listed one holds or a new one appears.
"""
MIN_VALID, MIN_INVALID = 8, 6
DOMAINS = builtin_domains()
LIBRARY = load_scenarios(
    [ROOT / "scenarios"],
    catalogue=DomainCatalogue(DOMAINS, CONCEPTS),
    personas=load_personas([ROOT / "personas"]),
)


async def test_every_library_scenario_survives_corpus_perturbation_but_what_is_listed() -> None:
    found: list[Known] = []
    totals = [0, 0, 0, 0, 0]
    thin = []
    for scenario in LIBRARY:
        result = await perturb(DOMAINS[scenario.domain], scenario)
        print(
            f"{scenario.id}: valid {result.valid_passed}/{result.valid}, invalid "
            f"{result.invalid_caught}/{result.invalid}, discarded {result.discarded}"
        )
        for i, n in enumerate(
            (
                result.valid,
                result.valid_passed,
                result.invalid,
                result.invalid_caught,
                result.discarded,
            )
        ):
            totals[i] += n
        if result.valid < MIN_VALID or result.invalid < MIN_INVALID:
            thin.append(scenario.id)
        found += [
            Known(scenario=scenario.id, kind=m.expect, check=m.variant, why=m.why)
            for m in result.misses
        ]
    valid, valid_passed, invalid, caught, discarded = totals
    print(
        f"variants: valid {valid_passed}/{valid} passed, invalid {caught}/{invalid} caught, "
        f"{discarded} not realisable (discarded); {len(found)} listed in {KNOWN.name}"
    )
    for k in sorted(found, key=lambda k: k.key):
        print(f"  {k.scenario} {k.kind} {k.check}: {k.why}")
    assert thin == []  # every scenario is perturbed enough to prove something
    assert compare_known(KNOWN, HEADER, found) == []
