"""Tools that run a configuration file of their folder as code (audit/evidence/tool_configs.py)."""

from __future__ import annotations

import pytest

from pytest_coldstart.audit.evidence import kept_runs, tool_configs


@pytest.mark.parametrize(
    "command, runs",
    [
        ("npx eslint .", "eslint.config.js"),
        ("npx --yes jest --ci", "jest.config.js"),
        ("pnpm exec vitest run", "vitest.config.ts"),
        ("yarn jest", "jest.config.js"),
        ("bunx vite build", "vite.config.ts"),
        ("webpack --mode production", "webpack.config.js"),
        ("bundle install", "Gemfile"),
        ("direnv allow", ".envrc"),
        ("sphinx-build docs out", "docs/conf.py"),
        ("python3 -m build", "setup.py"),
        ("pytest -p peek tests", "peek.py"),
        ("python -m pytest -p pkg.plug", "pkg/plug.py"),
        ("PYTEST_PLUGINS=a,b.c pytest", "b/c.py"),
    ],
)
def test_a_tool_runs_its_config(command: str, runs: str) -> None:
    assert kept_runs.may_load(command)
    assert f" {runs}" in kept_runs.loads(command)


@pytest.mark.parametrize("command", ["npm ls", "pytest -p no:cacheprovider", "node x.js", "python3 -m pytest tests"])
def test_no_config_is_run(command: str) -> None:
    assert not tool_configs.loaded(command.split()[0], command.split()[1:])


@pytest.mark.parametrize(
    "ini, plugins",
    [
        ("[pytest]\naddopts = -q -p peek\n", ["peek.py"]),
        ('[tool.pytest.ini_options]\naddopts = "-p pkg.plug -pother"\n', ["pkg/plug.py", "other.py"]),
        ('[tool.pytest.ini_options]\naddopts = ["-p", "peek"]\n', ["peek.py"]),
        ("[tool:pytest]\naddopts = -p no:cacheprovider -q\n", []),
        ("[pytest]\ntestpaths = tests\n", []),
        ("[pytest]\n; addopts is documented elsewhere\n", []),
    ],
)
def test_an_ini_addopts_names_the_plugins_pytest_imports(ini: str, plugins: list[str]) -> None:
    assert tool_configs.ini_plugins(ini) == plugins


def test_only_a_pytest_run_takes_the_ini_options() -> None:
    assert tool_configs.runs_pytest("cd w && python3 -m pytest -q")
    assert tool_configs.runs_pytest("py.test") and tool_configs.runs_pytest(".venv/bin/pytest -x")
    assert not tool_configs.runs_pytest("cat pytest.ini.bak; ls tests")
    assert tool_configs.hints({"pytest.ini"}) and not tool_configs.hints({"notes.md"})
