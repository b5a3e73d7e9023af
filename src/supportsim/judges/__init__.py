"""LLM judges over a stored run, and how far to trust them (agreement statistics).

``supportsim judge RUN_DIR --judge SPEC ...`` asks each judge for a structured verdict per
rubric criterion on every completed conversation (``judge_run``), appends the judgments to
``judgments.jsonl``, and summarises agreement between judges, with the deterministic strict
verdict and with human labels (``agreement_summary``; ``render_terminal`` shows it).
Judges read records only: a judge failure never re-runs a conversation.
"""

from supportsim.judges._agreement import (
    cohen_kappa,
    confusion,
    consistency,
    fleiss_kappa,
    fleiss_kappa_table,
    kendall_tau_b,
    majority,
    percent_agreement,
)
from supportsim.judges._command import AGREEMENT, JudgeOutcome, judge_command, judge_run
from supportsim.judges._html import render_html
from supportsim.judges._human import load_human_labels, parse_label
from supportsim.judges._judge import Grader, Judge, judge_once
from supportsim.judges._judge_eval import judge_eval_command
from supportsim.judges._prompt import Case, judge_request, transcript_text
from supportsim.judges._records import (
    HUMAN_LABELS,
    JUDGES_MANIFEST,
    JUDGMENTS,
    JudgmentRecord,
    JudgmentWriter,
    iter_judgments,
)
from supportsim.judges._rubric import OVERALL, Criterion, Rubric, default_rubric, load_rubric
from supportsim.judges._session import JudgePlan, JudgeState, execute_judging, plan_judging
from supportsim.judges._summary import agreement_summary
from supportsim.judges._terminal import render_terminal
from supportsim.judges._verdict import TOOL_NAME, parse_verdict, verdict_model, verdict_tool

__all__ = [
    "AGREEMENT",
    "HUMAN_LABELS",
    "JUDGES_MANIFEST",
    "JUDGMENTS",
    "OVERALL",
    "TOOL_NAME",
    "Case",
    "Criterion",
    "Grader",
    "Judge",
    "JudgeOutcome",
    "JudgePlan",
    "JudgeState",
    "JudgmentRecord",
    "JudgmentWriter",
    "Rubric",
    "agreement_summary",
    "cohen_kappa",
    "confusion",
    "consistency",
    "default_rubric",
    "execute_judging",
    "fleiss_kappa",
    "fleiss_kappa_table",
    "iter_judgments",
    "judge_command",
    "judge_eval_command",
    "judge_once",
    "judge_request",
    "judge_run",
    "kendall_tau_b",
    "load_human_labels",
    "load_rubric",
    "majority",
    "parse_label",
    "parse_verdict",
    "percent_agreement",
    "plan_judging",
    "render_html",
    "render_terminal",
    "transcript_text",
    "verdict_model",
    "verdict_tool",
]
