"""The run directory: records of finished units, the manifest, the summary, and the
verdicts of a rescore (rescored.jsonl).

The rescore (``_rescore``, ``_rescore_command``) is imported on first use of one of its
names: it brings the workspace and the domain folders' loader, which a run does not need.
"""

from typing import TYPE_CHECKING

from supportsim.store._files import (
    CONVERSATIONS,
    MANIFEST,
    SUMMARY,
    JsonlWriter,
    LedgerEntry,
    RecordWriter,
    RunLock,
    StoreError,
    final_unit_ids,
    iter_jsonl,
    iter_ledger,
    iter_records,
    latest_records,
    live_status,
    read_json,
    read_plan,
    rewrite_json_in_place,
    write_json,
    writer_alive,
)
from supportsim.store._judgments import JUDGMENT_SCHEMA_VERSION, JudgmentRecord
from supportsim.store._measurement import (
    MIN_SAMPLES,
    WARN_P99_MS,
    Measurement,
    describe_measurement,
    measurement_from,
    measurement_of,
    saturated,
    with_loop_lag,
)
from supportsim.store._plan import Foreign, ForeignTally, RunPlan, split_planned, unit_key
from supportsim.store._records import (
    SCHEMA_VERSION,
    CallLogRecord,
    CheckRecord,
    ConversationRecord,
    JudgedRecord,
    LLMCallRecord,
    MessageRecord,
    QuoteRecord,
    ToolCallRecord,
    build_record,
    check_record,
    stored_verdict,
)
from supportsim.store._rescored import (
    RESCORE_SCHEMA_VERSION,
    RESCORED,
    Applied,
    PreviousVerdict,
    RescoredRecord,
    apply_rescored,
    read_rescored,
    write_rescored,
)
from supportsim.store._schema_judges import (
    Agreement,
    HumanLabelsDoc,
    JudgeSession,
    JudgesManifest,
)
from supportsim.store._schema_run import SCHEMA_VERSION as DOCUMENT_SCHEMA_VERSION
from supportsim.store._schema_run import AgentRow, RunManifest, SessionEntry, Summary

if TYPE_CHECKING:
    from supportsim.store._rescore import (
        Change,
        Flip,
        NotRescorable,
        RescoreResult,
        rescore_run,
        transcript_from_record,
    )
    from supportsim.store._rescore_command import (
        default_scenario_paths,
        render_rescore,
        rescore_command,
    )
from supportsim.store._schemas import (
    DOCUMENTS,
    RECORDS,
    checked,
    export_schemas,
    json_schemas,
    read_doc,
    run_dir_problems,
    write_doc,
)

__all__ = [
    "CONVERSATIONS",
    "DOCUMENTS",
    "DOCUMENT_SCHEMA_VERSION",
    "JUDGMENT_SCHEMA_VERSION",
    "MANIFEST",
    "MIN_SAMPLES",
    "RECORDS",
    "RESCORED",
    "RESCORE_SCHEMA_VERSION",
    "SCHEMA_VERSION",
    "SUMMARY",
    "WARN_P99_MS",
    "AgentRow",
    "Agreement",
    "Applied",
    "CallLogRecord",
    "Change",
    "CheckRecord",
    "ConversationRecord",
    "Flip",
    "Foreign",
    "ForeignTally",
    "HumanLabelsDoc",
    "JsonlWriter",
    "JudgeSession",
    "JudgedRecord",
    "JudgesManifest",
    "JudgmentRecord",
    "LLMCallRecord",
    "LedgerEntry",
    "Measurement",
    "MessageRecord",
    "NotRescorable",
    "PreviousVerdict",
    "QuoteRecord",
    "RecordWriter",
    "RescoreResult",
    "RescoredRecord",
    "RunLock",
    "RunManifest",
    "RunPlan",
    "SessionEntry",
    "StoreError",
    "Summary",
    "ToolCallRecord",
    "apply_rescored",
    "build_record",
    "check_record",
    "checked",
    "default_scenario_paths",
    "describe_measurement",
    "export_schemas",
    "final_unit_ids",
    "iter_jsonl",
    "iter_ledger",
    "iter_records",
    "json_schemas",
    "latest_records",
    "live_status",
    "measurement_from",
    "measurement_of",
    "read_doc",
    "read_json",
    "read_plan",
    "read_rescored",
    "render_rescore",
    "rescore_command",
    "rescore_run",
    "rewrite_json_in_place",
    "run_dir_problems",
    "saturated",
    "split_planned",
    "stored_verdict",
    "transcript_from_record",
    "unit_key",
    "with_loop_lag",
    "write_doc",
    "write_json",
    "write_rescored",
    "writer_alive",
]

_LAZY = {
    **dict.fromkeys(
        ("Change", "Flip", "NotRescorable", "RescoreResult", "rescore_run"),
        "supportsim.store._rescore",
    ),
    "transcript_from_record": "supportsim.store._rescore",
    **dict.fromkeys(
        ("default_scenario_paths", "render_rescore", "rescore_command"),
        "supportsim.store._rescore_command",
    ),
}


def __getattr__(name: str) -> object:
    # The rescore's names, imported when first asked for (see the docstring).
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
