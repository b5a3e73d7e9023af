"""The run directory: records of finished units, the manifest, the summary."""

from supportsim.store._files import (
    CONVERSATIONS,
    MANIFEST,
    SUMMARY,
    JsonlWriter,
    RecordWriter,
    RunLock,
    final_unit_ids,
    iter_jsonl,
    iter_records,
    latest_records,
    read_json,
    write_json,
)
from supportsim.store._records import (
    SCHEMA_VERSION,
    CheckRecord,
    ConversationRecord,
    LLMCallRecord,
    MessageRecord,
    ToolCallRecord,
    build_record,
)

__all__ = [
    "CONVERSATIONS",
    "MANIFEST",
    "SCHEMA_VERSION",
    "SUMMARY",
    "CheckRecord",
    "ConversationRecord",
    "JsonlWriter",
    "LLMCallRecord",
    "MessageRecord",
    "RecordWriter",
    "RunLock",
    "ToolCallRecord",
    "build_record",
    "final_unit_ids",
    "iter_jsonl",
    "iter_records",
    "latest_records",
    "read_json",
    "write_json",
]
