"""The shipped reading tables are the tables the builders make (``scoring/text/_shipped.py``).

A builder or constant changed without regenerating, or a Babel / num2words upgrade in the
dev environment, fails here: run ``python -m supportsim.scoring.text._shipped_build``.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from typing import Any

import pytest

from supportsim.scoring.text import _shipped
from supportsim.scoring.text.facts import _vocab as _facts_vocab
from supportsim.scoring.text.facts import _words as _facts_words

REGENERATE = "stale: run python -m supportsim.scoring.text._shipped_build"


def _calls() -> list[tuple[str, tuple[Any, ...]]]:
    return [(name, args) for name, table in _shipped.TABLES.items() for args in table.over]


def test_the_shipped_file_is_what_the_builders_make_from_the_installed_packages():
    # In a fresh process: generate() builds every table from Babel and num2words alone
    # (never from the file it replaces).
    fresh = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from supportsim.scoring.text import _shipped_build as s;"
            " sys.stdout.write(s._text(s.generate()))",
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    ).stdout
    shipped = resources.files("supportsim.scoring.text").joinpath(_shipped.FILE).read_text("utf-8")
    assert fresh == shipped, REGENERATE  # one text: sets and dicts are written sorted


def test_the_file_is_used_with_the_installed_versions():
    assert _shipped._shipped.__wrapped__() != {}, REGENERATE  # type: ignore[attr-defined]


def test_every_builder_of_the_matchers_is_shipped():
    assert {
        "_vocab.months",
        "_vocab.currency_symbols",
        "_vocab.currency_words",
        "_vocab.duration_units",
        "_words.cardinals",
    } <= set(_shipped.TABLES)
    assert all(table.over for table in _shipped.TABLES.values())


@pytest.mark.parametrize(("name", "args"), _calls(), ids=lambda v: str(v))
def test_a_shipped_table_reads_back_equal_to_the_built_one(name: str, args: tuple[Any, ...]):
    table = _shipped.TABLES[name]
    built = table.build(*args)
    read = table.lookup(*args)
    assert read == built
    assert type(read) is type(built)
    if isinstance(built, dict):
        for k in built:
            assert type(read[k]) is type(built[k])
    if isinstance(built, tuple):
        assert [type(v) for v in read] == [type(v) for v in built]


def test_arguments_it_was_not_shipped_for_are_built():
    # ("de",) alone is not what languages_for gives: months() builds it from Babel.
    assert ("de",) not in [a for (a,) in _shipped.TABLES["_vocab.months"].over]
    assert _facts_vocab.months(("de",)) == _shipped.TABLES["_vocab.months"].build(("de",))
    assert _facts_vocab.months(("de",))["marz"] == 3


def test_other_package_versions_ignore_the_file(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(_shipped, "versions", lambda: {"babel": "0.0", "num2words": "0.0"})
    assert _shipped._shipped.__wrapped__() == {}  # type: ignore[attr-defined]


def test_a_read_back_cardinal_table_spells_numbers():
    assert _facts_words.cardinals("de")["zweihundertvierundzwanzig"] == 224
    assert _facts_words.cardinals("en")["two hundred forty five"] == 245


def test_a_table_name_declared_twice_is_refused() -> None:
    """Tables are named by module and function; two modules of one last name (``text/_text``
    and ``text/facts/_text``) must not let one table's data serve the other."""
    name = next(iter(_shipped.TABLES))
    module, function = name.split(".", 1)

    def twin() -> dict[str, int]:
        return {}

    twin.__module__ = f"supportsim.elsewhere.{module}"
    twin.__name__ = function
    with pytest.raises(RuntimeError, match="declared twice"):
        _shipped.shipped(over=[()])(twin)
    assert _shipped.TABLES[name].build is not twin  # the first stands
