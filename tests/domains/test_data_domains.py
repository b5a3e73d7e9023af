"""A plug-in benchmark's data domain, registered by name (``domains/_data_domains.py``):
built from the folder its import wrote beside the scenarios, its module imported only when
such a folder is there."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from supportsim.domains import _data_domains as data_module
from supportsim.domains import builtin_domains, register_data_domain

PLUGIN = textwrap.dedent(
    """
    from dataclasses import replace

    from supportsim.domains import mock

    def domain_for(paths):
        found = [p for p in paths if (p / "bench_data" / "db.json").is_file()]
        if not found:
            return None
        return replace(mock.domain(), name="bench_" + found[0].name)
    """
)


@pytest.fixture
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A benchmark ``bench`` whose data folder is ``bench_data``; the registration ends with
    the test. Returns the folder for its plug-in module."""
    monkeypatch.setattr(data_module, "_PLUGINS", dict(data_module._PLUGINS))
    modules = tmp_path / "modules"
    modules.mkdir()
    (modules / "bench_domain_plugin.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(modules))
    monkeypatch.delitem(sys.modules, "bench_domain_plugin", raising=False)
    register_data_domain("bench", "bench_data", "bench_domain_plugin:domain_for")
    return modules


def test_without_its_folder_the_domain_is_absent_and_never_imported(
    bench: Path, tmp_path: Path
) -> None:
    scenarios = tmp_path / "plain"
    scenarios.mkdir()
    assert not [n for n in builtin_domains([scenarios]) if n.startswith("bench_")]
    assert "bench_domain_plugin" not in sys.modules


def test_a_folder_carrying_its_data_adds_the_domain(bench: Path, tmp_path: Path) -> None:
    scenarios = tmp_path / "imported"
    (scenarios / "bench_data").mkdir(parents=True)
    (scenarios / "bench_data" / "db.json").write_text("{}")
    assert "bench_imported" in builtin_domains([scenarios])
    assert "bench_domain_plugin" in sys.modules


def test_a_factory_finding_no_usable_data_adds_nothing(bench: Path, tmp_path: Path) -> None:
    scenarios = tmp_path / "empty"
    (scenarios / "bench_data").mkdir(parents=True)  # the folder, but no db.json
    assert not [n for n in builtin_domains([scenarios]) if n.startswith("bench_")]
