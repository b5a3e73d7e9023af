"""The packages form a pipeline: each imports only supportsim packages before it.

    errors -> _yaml -> _printable -> scenario -> domains -> environment -> llm
    -> conversation -> scoring -> tau2 -> validate -> importers -> authoring -> workspace
    -> store -> rescore -> batch -> judges -> report -> export -> view -> app

``tau2`` is a plug-in benchmark (its conversation rules): nothing before it imports it, and
the core reaches it only by name when a scenario uses it (``conversation/_rules.py``).
``importers`` (other benchmarks' tasks into scenarios) sits below ``authoring``, which
re-exports the tau2 importer's names.

``_yaml`` (the one YAML reader), ``_printable`` (terminal-safe text) and ``_tables``
(terminal tables that never cut a value) are base modules, as is ``_early_workers``
(worker processes the ``run`` command starts before its heavy imports).
``llm`` imports only ``errors``, ``_yaml`` and ``_tracing``: it is the one model-access
layer, so it must not depend on what calls models (a conversation's time budget is handed
to its pool as an ``llm.TimeBudget``, not imported); ``_tracing`` is a base module that
imports nothing of supportsim, and the pool's caller is where a model call's span opens
(``traced_model_call``, the identity when tracing is off). ``app`` (a run end to end:
``supportsim.run`` and ``supportsim run``) sits above them all; ``cli`` and ``testing`` may
import anything, and nothing in the package imports ``testing`` (only tests, the cli and
benchmarks do). Packages not written yet are skipped.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "supportsim"
ORDER = [
    "errors",
    "_yaml",
    "_printable",
    "_tables",
    "_imports",
    "_tracing",
    "_early_workers",
    "scenario",
    "domains",
    "environment",
    "llm",
    "conversation",
    "scoring",
    "tau2",
    "validate",
    "importers",
    "authoring",
    "workspace",
    "store",
    "rescore",
    "batch",
    "judges",
    "report",
    "export",
    "view",
    "app",
]
ONLY = {"llm": {"errors", "_yaml", "_tracing"}}
FREE = {"cli", "testing", "__main__"}  # __main__ is `python -m supportsim`: the cli


def top_level(name: str) -> str | None:
    """The supportsim package a dotted module name belongs to (None: not supportsim)."""
    parts = name.split(".")
    if parts[0] != "supportsim":
        return None
    return parts[1] if len(parts) > 1 else ""


def files_of(package: str) -> list[Path]:
    folder = SRC / package
    if folder.is_dir():
        return sorted(folder.rglob("*.py"))
    module = SRC / f"{package}.py"
    return [module] if module.exists() else []


def module_name(path: Path, root: Path = SRC.parent) -> list[str]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def import_sources(path: Path, root: Path = SRC.parent) -> list[tuple[str, list[str], int]]:
    """Every import statement of a file under ``root``, anywhere in it (module level, in a
    function, under ``if TYPE_CHECKING:``): ``(source, names, line)`` with ``source`` the
    absolute dotted module (relative imports resolved) and ``names`` the imported names
    (empty for ``import x``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = module_name(path, root)
    is_package = path.name == "__init__.py"
    out: list[tuple[str, list[str], int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.append((alias.name, [], node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here if is_package else here[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            out.append((source, [a.name for a in node.names], node.lineno))
    return out


def imported_packages(path: Path) -> dict[str, int]:
    """supportsim packages a file imports (anywhere in it), with the first line."""
    found: dict[str, int] = {}

    def add(dotted: str, line: int) -> None:
        package = top_level(dotted)
        if package:
            found.setdefault(package, line)

    for source, names, line in import_sources(path):
        if not names:
            add(source, line)
        elif source == "supportsim":
            for name in names:  # from supportsim import scoring
                add(f"supportsim.{name}", line)
        else:
            add(source, line)
    return found


def allowed(package: str) -> set[str]:
    if package in ONLY:
        return ONLY[package] | {package}
    return set(ORDER[: ORDER.index(package) + 1])


EXISTING = [p for p in ORDER if files_of(p)]


def test_the_pipeline_packages_that_exist_are_found() -> None:
    for package in ("errors", "scenario", "domains", "environment", "llm", "scoring"):
        assert package in EXISTING


def test_every_package_has_a_place_in_the_pipeline() -> None:
    """A new package must be given a place in ORDER (or be FREE), so none escapes the check."""
    found = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    found |= {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    assert found - set(ORDER) - FREE == set()


@pytest.mark.parametrize("package", EXISTING)
def test_a_package_imports_only_packages_before_it(package: str) -> None:
    wrong = []
    for path in files_of(package):
        for imported, line in imported_packages(path).items():
            if imported not in allowed(package):
                wrong.append(f"{path.relative_to(SRC)}:{line} imports supportsim.{imported}")
    assert wrong == []


def private_imports(path: Path, root: Path = SRC.parent) -> list[str]:
    """``from supportsim.other._private import ...`` in a file of another package: a
    package's private modules are its own (the others use its public names)."""
    own = top_level(".".join(module_name(path, root)))
    found = []
    for source, _, line in import_sources(path, root):
        parts = source.split(".")
        if (
            top_level(source) not in (None, own)
            and len(parts) > 2
            and any(part.startswith("_") and part != "__init__" for part in parts[2:])
        ):
            found.append(f"{path.relative_to(root / 'supportsim')}:{line}: {source}")
    return found


def test_no_package_imports_another_packages_private_modules() -> None:
    found = [hit for p in sorted(SRC.rglob("*.py")) for hit in private_imports(p)]
    assert not found, "\n".join(found)


def test_the_private_import_check_sees_one(tmp_path: Path) -> None:
    probe = tmp_path / "supportsim" / "report" / "_probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from supportsim.scoring.text._text import fold\n", encoding="utf-8")
    assert private_imports(probe, tmp_path) == ["report/_probe.py:1: supportsim.scoring.text._text"]
    probe.write_text("from supportsim.report._format import pct\n", encoding="utf-8")
    assert private_imports(probe, tmp_path) == []  # its own package's


def test_reading_text_knows_no_check() -> None:
    """``scoring/text`` (facts, lexicons, negation, language) is read by the checks, never
    the reverse: it imports nothing of scoring outside itself."""
    text = SRC / "scoring" / "text"
    found = [
        f"{path.relative_to(SRC)}:{line}: {source}"
        for path in sorted(text.rglob("*.py"))
        for source, names, line in import_sources(path)
        for dotted in (
            [source] if source != "supportsim.scoring" else [f"{source}.{n}" for n in names]
        )
        if dotted.startswith("supportsim.scoring")
        and not dotted.startswith("supportsim.scoring.text")
    ]
    assert not found, "\n".join(found)


def test_nothing_in_the_package_imports_testing_but_the_cli() -> None:
    wrong = []
    for path in sorted(SRC.rglob("*.py")):
        package = path.relative_to(SRC).parts[0].removesuffix(".py")
        if package in FREE:
            continue
        line = imported_packages(path).get("testing")
        if line is not None:
            wrong.append(f"{path.relative_to(SRC)}:{line}")
    assert wrong == []


def test_the_import_walk_sees_relative_and_nested_imports() -> None:
    """The checker itself: relative, function-level and ``from supportsim import x`` forms."""
    sample = SRC / "scoring" / "_score.py"
    found = imported_packages(sample)
    assert {"conversation", "domains", "environment", "scenario"} <= set(found)
    cli = imported_packages(SRC / "cli" / "_validate.py")
    assert "validate" in cli  # imported inside a function
    llm_init = imported_packages(SRC / "llm" / "__init__.py")
    assert set(llm_init) == {"llm"}  # ``from ._anthropic import ...`` stays inside llm


def module_graph(src: Path = SRC) -> dict[str, dict[str, int]]:
    """Each module of the package at ``src`` (dotted; a package is its ``__init__``) with
    the modules of that package it imports and the line of the first such import; what
    counts is ``test_no_import_loops``'s rule."""
    root = src.parent
    files = {".".join(module_name(p, root)): p for p in sorted(src.rglob("*.py"))}
    graph: dict[str, dict[str, int]] = {}
    for name, path in files.items():
        edges: dict[str, int] = {}
        for source, names, line in import_sources(path, root):
            # ``from pkg import x``: the submodule pkg.x when x is one, else pkg's __init__
            targets = [f"{source}.{n}" if f"{source}.{n}" in files else source for n in names]
            for target in targets or [source]:
                if target in files and target != name:
                    edges.setdefault(target, line)
        graph[name] = edges
    return graph


def import_loops(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted,
    each as ``a -> b (line)`` lines of its own edges."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    loops: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while (w := stack.pop()) != v:
                component.append(w)
            component.append(v)
            if len(component) > 1:
                members = set(component)
                loops.append(
                    [
                        f"{a} -> {b} (line {line})"
                        for a in sorted(members)
                        for b, line in graph[a].items()
                        if b in members
                    ]
                )

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return loops


def test_no_import_loops() -> None:
    """No module of supportsim reaches itself through the modules it imports.

    The graph has an edge A -> B for every import in A of a supportsim module B, wherever
    it stands in A: at module level, inside a function, or under ``if TYPE_CHECKING:``. A
    lazy import defers the cost of a dependency, not the dependency (two modules that need
    each other are one concept cut in two, or a third one hiding in both), and a
    TYPE_CHECKING import is one the types need. So an import moved into a function or
    under TYPE_CHECKING does not answer this test: move what both sides need to a module
    below them (``batch/_context.py`` holds what the driver and the workers share).

    ``from supportsim.pkg import name`` is an edge to ``supportsim.pkg.name`` when that is
    a module, else to ``supportsim.pkg`` (its ``__init__``, which imports its submodules
    like any module), so a module importing its own package's ``__init__`` is in a loop:
    it imports the submodule itself. Importing ``a.b.c`` adds no edge to ``a`` or ``a.b``:
    their ``__init__`` running first is the import system's order, not the module's
    dependency. A loop is a strongly connected component of more than one module; the
    failure lists each with its edges.
    """
    loops = import_loops(module_graph())
    assert not loops, "import loops:\n" + "\n\n".join("\n".join(edges) for edges in loops)


def test_the_loop_check_sees_lazy_type_only_and_own_package_imports(tmp_path: Path) -> None:
    """The checker itself, on a planted package: a loop closed by a function-level import,
    one closed by a TYPE_CHECKING import, and one through the package's own __init__."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from pkg._c import C\nfrom pkg._f import F\n",
        "_a.py": "from pkg._b import b\n",
        "_b.py": "def b():\n    from pkg._a import a\n",
        "_c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub.d import D\n",
        "sub/__init__.py": "",
        "sub/d.py": "from pkg import _c\n",
        "_e.py": "import pkg.sub\nfrom pkg import C\n",
        "_f.py": "from pkg import C\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    graph = module_graph(pkg)
    assert graph["pkg._e"] == {"pkg.sub": 1, "pkg": 2}  # import pkg.sub: no edge to pkg
    assert graph["pkg.sub.d"] == {"pkg._c": 1}  # from pkg import _c: the submodule
    assert sorted(import_loops(graph)) == [
        ["pkg -> pkg._f (line 2)", "pkg._f -> pkg (line 1)"],
        ["pkg._a -> pkg._b (line 1)", "pkg._b -> pkg._a (line 2)"],
        ["pkg._c -> pkg.sub.d (line 3)", "pkg.sub.d -> pkg._c (line 1)"],
    ]
