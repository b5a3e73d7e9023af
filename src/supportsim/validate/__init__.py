"""Proofs that the checks are right: the blind statement corpus and how a reader of agent
text (the rule path, a statement judge) agrees with it; the library conversations written
blind and their replay through the real runtime and scorer; ``validate``'s verdict on each
scenario (the oracle run and the perturbation proof, whose statements come from the
corpus); baseline agents that do nothing useful, which no scenario may reward
(``validate --baselines``)."""

from supportsim.validate._baselines import (
    FLOOR_AGENT,
    MAX_MEAN_PARTIAL,
    BaselineResult,
    BaselineRun,
    ClaimDoneAgent,
    Floor,
    baselines,
    do_nothing_floor,
    run_baselines,
)
from supportsim.validate._conversations import (
    Action,
    Conversation,
    ConversationFile,
    ConversationKind,
    Turn,
    by_scenario,
    load_conversations,
    read_conversations,
    scenario_problems,
    violated_checks,
)
from supportsim.validate._corpus import (
    CLAIMS,
    CONCEPTS,
    DISCLOSURES,
    LANGUAGES,
    PROMISES,
    SPLITS,
    FactLabel,
    Statement,
    corpus_files,
    load_corpus,
)
from supportsim.validate._evaluate import Reader, evaluate, rule_reader, same_fact
from supportsim.validate._judge_reading import (
    READING_TOOL,
    JudgeReadings,
    judge_readings,
    reading_request,
)
from supportsim.validate._metrics import Counts, Tally, rows, table_lines
from supportsim.validate._perturb import Miss, PerturbResult, perturb, tune_corpus
from supportsim.validate._replay import ReplayAgent, ReplayCustomer, Replayed, ReplayTally, replay
from supportsim.validate._scenarios import ScenarioVerdict, state_hash, validate_scenarios

__all__ = [
    "CLAIMS",
    "CONCEPTS",
    "DISCLOSURES",
    "FLOOR_AGENT",
    "LANGUAGES",
    "MAX_MEAN_PARTIAL",
    "PROMISES",
    "READING_TOOL",
    "SPLITS",
    "Action",
    "BaselineResult",
    "BaselineRun",
    "ClaimDoneAgent",
    "Conversation",
    "ConversationFile",
    "ConversationKind",
    "Counts",
    "FactLabel",
    "Floor",
    "JudgeReadings",
    "Miss",
    "PerturbResult",
    "Reader",
    "ReplayAgent",
    "ReplayCustomer",
    "ReplayTally",
    "Replayed",
    "ScenarioVerdict",
    "Statement",
    "Tally",
    "Turn",
    "baselines",
    "by_scenario",
    "corpus_files",
    "do_nothing_floor",
    "evaluate",
    "judge_readings",
    "load_conversations",
    "load_corpus",
    "perturb",
    "read_conversations",
    "reading_request",
    "replay",
    "rows",
    "rule_reader",
    "run_baselines",
    "same_fact",
    "scenario_problems",
    "state_hash",
    "table_lines",
    "tune_corpus",
    "validate_scenarios",
    "violated_checks",
]
