"""Write ``shipped_tables.json``: every shipped table built from the installed Babel and
num2words (``python -m supportsim.scoring.text._shipped_build``; see ``_shipped``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from supportsim.scoring.text import _shipped
from supportsim.scoring.text.facts import _vocab as _facts_vocab
from supportsim.scoring.text.facts import _words as _facts_words

BUILDERS = (_facts_vocab, _facts_words)
"""The modules whose tables are shipped (each registers its tables with ``_shipped``)."""


def _plain(value: Any) -> Any:
    """``value`` as JSON: tuples as lists, sets as sorted lists, dicts sorted by key.

    Sorted, the file is one text whatever the hash seed of the process that wrote it (some
    builders fill a dict from a set). No reader depends on a table's order: the matchers
    look words up or join them into alternations of literals ordered by length, where two
    different words of one length cannot match at the same place."""
    if isinstance(value, dict):
        return {k: _plain(value[k]) for k in sorted(value)}
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def generate() -> dict[str, Any]:
    """Every table built from the installed packages, as the file holds them (the tables a
    builder reads are built too, never read from the file being replaced). For a process
    of its own: afterwards the process builds every table, as if nothing were shipped."""
    _shipped._shipped.cache_clear()
    for table in _shipped.TABLES.values():
        table.lookup.cache_clear()
    _shipped._BYPASS.append(True)
    return {
        "versions": _shipped.versions(),
        "tables": {
            name: {_shipped.key(args): _plain(table.build(*args)) for args in table.over}
            for name, table in _shipped.TABLES.items()
        },
    }


def _text(data: dict[str, Any]) -> str:
    """The file's text: one line per table entry (one per word of a dict table), so a
    changed name shows as a changed line in review."""

    def compact(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    lines = ['{"versions":' + compact(data["versions"]) + ',"tables":{']
    for i, (name, calls) in enumerate(data["tables"].items()):
        lines.append(("," if i else "") + compact(name) + ":{")
        for j, (call, value) in enumerate(calls.items()):
            lead = ("," if j else "") + compact(call) + ":"
            if isinstance(value, dict):
                items = [compact(k) + ":" + compact(v) for k, v in value.items()]
                lines.append(lead + "{\n" + ",\n".join(items) + "}")
            else:
                lines.append(lead + compact(value))
        lines.append("}")
    lines.append("}}")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Write ``shipped_tables.json`` beside this module."""
    out = Path(__file__).with_name(_shipped.FILE)
    text = _text(generate())
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out} ({len(text):,} characters)")


if __name__ == "__main__":
    main()
