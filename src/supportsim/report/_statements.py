"""Rules against the statement judge: agreement per check kind and language, and the
checks they decided differently (``summary.json`` ``statement_judge``).

Every communication check a statement judge decided also keeps the rules' verdict
(``CheckRecord.rule``), so every judged run measures the rules: a disagreement is a lexicon
gap (the judge read a statement the rules missed) or a rule that reads too much, or a
judge mistake, and the list says which check, where, and the words the judge relied on.
Agreement counts the checks' results (pass or fail), not the raw answers: a say step both
read as stated but placed before its dependency fails under both. ``unclear`` answers count
as the judge's fail and are counted apart. Cohen's kappa treats the two as raters of
pass/fail (``validate.Counts``: undefined, null, when neither ever fails).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from supportsim.report._facts import UnitFacts
from supportsim.store import JudgeAgreementRow, JudgeDisagreement, StatementJudgeSection
from supportsim.validate import Counts

DISAGREEMENTS_KEPT = 500
"""Disagreements listed in summary.json (the total is always given)."""
DISAGREEMENTS_SHOWN = 20
"""Disagreements the terminal and HTML views list."""


def statement_agreement(records: Sequence[UnitFacts]) -> StatementJudgeSection | None:
    """The section, over completed units; None when no check was judged."""
    scored = [r for r in records if r.status == "completed"]
    judged_units = [r for r in scored if r.judged]
    if not judged_units:
        return None
    cells: dict[tuple[str, str], Counts] = defaultdict(Counts)
    unclear: dict[tuple[str, str], int] = defaultdict(int)
    disagreements: list[JudgeDisagreement] = []
    for r in sorted(judged_units, key=lambda r: (r.scenario_id, r.agent, r.trial)):
        for j in r.judged:
            key = (j.kind, r.language)
            cell = cells[key]
            # tp: both pass, tn: both fail; fp: the judge passes what the rules fail
            if j.rule and j.judged:
                cell.tp += 1
            elif not j.rule and not j.judged:
                cell.tn += 1
            elif j.judged:
                cell.fp += 1
            else:
                cell.fn += 1
            unclear[key] += j.answer == "unclear"
            if j.rule != j.judged:
                disagreements.append(
                    JudgeDisagreement(
                        unit_id=r.unit_id,
                        scenario_id=r.scenario_id,
                        agent=r.agent,
                        check_id=j.check_id,
                        kind=j.kind,
                        language=r.language,
                        rule=j.rule,
                        answer=j.answer,
                        judged=j.judged,
                        quote=j.quote,
                        message=j.message,
                    )
                )
    rows = [_row(kind, lang, c, unclear[(kind, lang)]) for (kind, lang), c in sorted(cells.items())]
    total = Counts()
    for c in cells.values():
        total.add(c)
    checks = total.tp + total.tn + total.fp + total.fn
    agree = total.tp + total.tn
    return StatementJudgeSection(
        judges=sorted({r.statement_judge for r in judged_units if r.statement_judge}),
        checks=checks,
        agree=agree,
        agreement=agree / checks if checks else None,
        unclear=sum(unclear.values()),
        not_judged=sum(r.rules_only for r in judged_units),
        by_kind=rows,
        disagreements=disagreements[:DISAGREEMENTS_KEPT],
        disagreements_total=len(disagreements),
    )


def _row(kind: str, lang: str, c: Counts, unclear: int) -> JudgeAgreementRow:
    n = c.tp + c.tn + c.fp + c.fn
    return JudgeAgreementRow(
        kind=kind,
        language=lang,
        checks=n,
        agree=c.tp + c.tn,
        agreement=(c.tp + c.tn) / n if n else None,
        kappa=c.kappa,
        rule_pass_judge_fail=c.fn,
        rule_fail_judge_pass=c.fp,
        unclear=unclear,
    )
