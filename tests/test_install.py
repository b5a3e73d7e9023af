"""The installed library: ``pip install .`` (not editable) into a fresh virtual environment,
then, from a directory with no scenarios of its own, ``supportsim run --suite smoke`` with
the built-in participants completes on the scenarios shipped inside the wheel, and
``supportsim init`` copies them into a workspace (and refuses to overwrite one).

Offline, and wherever the suite runs (the machine's Python, or a virtual environment as
``.ci/run`` and users make): the wheel is built by this interpreter with its installed
hatchling (``--no-build-isolation``, nothing fetched), and the new venv sees this
interpreter's packages through a ``.pth`` file listing its site-packages folders. A venv's
``--system-site-packages`` would not do: from inside a venv it means the *base* Python's,
which has neither hatchling nor supportsim's dependencies. About half a minute: one wheel
build, one smoke run.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).parents[1]
SHIPPED = ["pyproject.toml", "README.md", "src", "scenarios", "personas", "runs/demo.yaml"]


def _copy_repo(to: Path) -> Path:
    """The files a build reads, copied, so the build leaves the checkout untouched."""
    for name in SHIPPED:
        source, target = REPO / name, to / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(
                source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "_bundled")
            )
        else:
            shutil.copyfile(source, target)
    return to


def _env() -> dict[str, str]:
    """This environment without what would import the checkout instead of the install."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL"))}
    env["COLUMNS"] = "200"
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The venv's bin folder, with supportsim installed from a wheel built from a copy."""
    root = tmp_path_factory.mktemp("install")
    source = _copy_repo(root / "source")
    wheels = root / "wheels"
    built = _pip(sys.executable, "wheel", "--no-deps", "--wheel-dir", str(wheels), str(source))
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = wheels.glob("supportsim-*.whl")
    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    _see_these_packages(bin_dir / "python")
    done = _pip(str(bin_dir / "python"), "install", "--no-deps", "--ignore-installed", str(wheel))
    assert done.returncode == 0, done.stdout + done.stderr
    return bin_dir


def _pip(python: str, *args: str) -> subprocess.CompletedProcess[str]:
    """pip, offline: no index, no build isolation, no cache."""
    offline = ["--no-index", "--no-build-isolation", "--no-cache-dir", "--quiet"]
    command = [python, "-m", "pip", *args[:1], *offline, *args[1:]]
    return subprocess.run(command, env=_env(), capture_output=True, text=True, check=False)


def _see_these_packages(python: Path) -> None:
    """Make this interpreter's packages (pip, the dependencies) importable in the venv of
    ``python``, after its own site-packages: a ``.pth`` file of plain paths, so the
    checkout's editable install (a ``.pth`` of its own) is not pulled in."""
    theirs = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        env=_env(),
    ).stdout.strip()
    ours = dict.fromkeys([*site.getsitepackages(), sysconfig.get_paths()["purelib"]])
    lines = [p for p in ours if Path(p).is_dir() and Path(p) != Path(theirs)]
    (Path(theirs) / "supportsim-test-outer.pth").write_text("\n".join(lines) + "\n")


def _run(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "supportsim"), *args],
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )


def test_the_install_is_not_the_checkout(installed: Path, tmp_path: Path) -> None:
    where = subprocess.run(
        [str(installed / "python"), "-c", "import supportsim; print(supportsim.__file__)"],
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout.strip()
    assert "site-packages" in where
    assert not Path(where).is_relative_to(REPO)
    bundled = Path(where).parent / "_bundled"
    assert (bundled / "scenarios" / "suites.yaml").is_file()
    assert (bundled / "personas" / "angry.yaml").is_file()
    assert (bundled / "runs" / "demo.yaml").is_file()
    # The data-form built-in domains (domain.yaml, policy.md, knowledge/, fixture.json)
    # are package data: every such file of the checkout is in the install.
    source = REPO / "src" / "supportsim" / "domains"
    data = [
        p.relative_to(source)
        for p in sorted(source.rglob("*"))
        if p.suffix in (".yaml", ".json", ".md") and "__pycache__" not in p.parts
    ]
    assert {p.parent.name for p in data if p.name == "domain.yaml"} >= {
        "telecom",
        "retail",
        "appointments",
    }
    installed_domains = Path(where).parent / "domains"
    assert [str(p) for p in data if not (installed_domains / p).is_file()] == []
    # And every other data file of the package (lexicons, the shipped reading tables, tau2's
    # prompts, the statement corpus): one missing is silently rebuilt or breaks a run later.
    package = REPO / "src" / "supportsim"
    files = [
        p.relative_to(package)
        for p in sorted(package.rglob("*"))
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert any(p.name == "shipped_tables.json" for p in files)
    site = Path(where).parent
    assert [str(p) for p in files if not (site / p).is_file()] == []


def test_smoke_suite_runs_from_any_directory(installed: Path, tmp_path: Path) -> None:
    assert not (tmp_path / "scenarios").exists()
    done = _run(installed, "run", "--suite", "smoke", "--run-id", "smoke", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    run_dir = tmp_path / "runs" / "smoke"
    summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    assert summary["run"]["status"] == "completed"
    assert summary["run"]["units_recorded"] == 10  # the smoke suite: ten scenarios
    manifest = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    files = manifest["scenario_files"].values()
    assert all("site-packages" in f and "_bundled" in f for f in files), files


def test_an_unknown_suite_names_the_bundled_suites_file(installed: Path, tmp_path: Path) -> None:
    done = _run(installed, "run", "--suite", "nope", cwd=tmp_path)
    assert done.returncode == 2
    assert "unknown suite 'nope'" in done.stderr and "smoke" in done.stderr
    assert not (tmp_path / "runs").exists()


def test_init_copies_a_workspace_and_never_overwrites(installed: Path, tmp_path: Path) -> None:
    done = _run(installed, "init", "ws", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    ws = tmp_path / "ws"
    assert (ws / "scenarios" / "suites.yaml").is_file()
    assert (ws / "personas" / "angry.yaml").is_file()
    assert (ws / "runs" / "demo.yaml").is_file()
    (ws / "personas" / "angry.yaml").write_text("edited", encoding="utf-8")

    again = _run(installed, "init", "ws", cwd=tmp_path)
    assert again.returncode == 2
    assert "already exists" in again.stderr
    assert (ws / "personas" / "angry.yaml").read_text(encoding="utf-8") == "edited"
