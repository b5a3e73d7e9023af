"""``supportsim run``'s flags are one typed model (``RunFlags``) from argv to the runner:
each is the RunConfig field of the same name, and what the command line gives reaches the
config the run uses."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from supportsim.batch import RunConfig, RunFlags, with_overrides


def test_every_flag_is_the_run_config_field_of_its_name() -> None:
    missing = set(RunFlags.model_fields) - set(RunConfig.model_fields)
    assert not missing  # a flag no config field reads would be dropped silently


def test_a_flag_not_given_leaves_the_config_as_it_is() -> None:
    base = RunConfig(trials=3, concurrency="auto:16", out="nightly")
    assert with_overrides(base, RunFlags()) == base


def test_the_flags_given_win_and_are_read_by_the_configs_own_rules() -> None:
    flags = RunFlags(concurrency="auto:32", deadline_s="30m", trials=2, agents=["a=oracle"])
    config = with_overrides(RunConfig(trials=5), flags)
    assert config.trials == 2 and config.agents == ["a=oracle"]
    assert config.deadline_s == 1800.0  # '30m' read by RunConfig, not by the CLI
    assert config.bounds.ceiling == 32


def test_an_unknown_flag_is_refused_and_a_bad_value_names_the_command_line() -> None:
    with pytest.raises(ValidationError):
        RunFlags.model_validate({"trails": 2})
    with pytest.raises(Exception, match="command line") as caught:
        with_overrides(RunConfig(), RunFlags(trials=0))
    assert "trials" in str(caught.value)


def test_every_run_option_of_the_cli_reaches_its_flag(tmp_path, monkeypatch) -> None:
    """Each ``supportsim run`` option that sets a config field lands in ``RunFlags``
    under that field (the request the runner gets is recorded, nothing is run)."""
    from typer.testing import CliRunner

    import supportsim.app as application
    from supportsim.cli import app

    seen: list[RunFlags] = []

    def record(request, **_: object) -> int:
        seen.append(request.overrides)
        return 0

    monkeypatch.setattr(application, "run_command", record)
    argv = ["run", "--trials", "3", "--concurrency", "auto:4", "--deadline", "30m"]
    argv += ["--agent", "oracle", "--max-turns", "5", "--out", str(tmp_path), "--suite", "smoke"]
    shown = CliRunner().invoke(app, argv)
    assert shown.exit_code == 0, shown.output
    (flags,) = seen
    assert flags.given() == {
        "trials": 3,
        "concurrency": "auto:4",
        "deadline_s": "30m",
        "agents": ["oracle"],
        "max_turns": 5,
        "out": str(tmp_path),
        "suite": "smoke",
    }
