"""Tools that run a configuration file of their folder as code.

A JavaScript tool loads its ``*.config.js`` (``eslint``, ``jest``, ``vite``, ``webpack`` ...:
JavaScript with every file access node has), Bundler evaluates the ``Gemfile`` (Ruby),
CocoaPods the ``Podfile``, Vagrant the ``Vagrantfile``, direnv sources ``.envrc``, Sphinx
executes its ``conf.py``, Jupyter and IPython their ``*_config.py``, a PEP 517 build the
``setup.py``/``hatch_build.py`` beside it. ``kept_runs.loads`` spells such a segment with these
files as a shell's operands, so a kept one reads as run. ``npx``, ``bunx``, ``pnpm exec``,
``yarn``/``pnpm``/``bun`` + a tool name, and ``node_modules/.bin/x`` run the tool they name;
``pytest -p peek`` imports the plugin module ``peek``, and so does an ``addopts = -p peek`` of
the ini file pytest reads (``pytest.ini``, ``tox.ini``, ``setup.cfg``, ``pyproject.toml``:
``ini_plugins``; any kept one, wherever it is - which one pytest picks is not followed).
"""

from __future__ import annotations

import re

from pytest_coldstart.audit.evidence.shell_words import program_name

_JS = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")


def _js(*stems: str) -> tuple[str, ...]:
    return tuple(f"{stem}{suffix}" for stem in stems for suffix in _JS)


#: each tool, the configuration files it runs as code
CONFIGS: dict[str, tuple[str, ...]] = {
    "eslint": _js("eslint.config", ".eslintrc"),
    "jest": _js("jest.config", "jest.setup"),
    "vitest": _js("vitest.config", "vite.config", "vitest.setup", "vitest.workspace"),
    "vite": _js("vite.config"),
    "webpack": _js("webpack.config"),
    "webpack-cli": _js("webpack.config"),
    "rollup": _js("rollup.config"),
    "babel": _js("babel.config", ".babelrc"),
    "prettier": _js("prettier.config", ".prettierrc"),
    "next": _js("next.config"),
    "nuxt": _js("nuxt.config"),
    "astro": _js("astro.config"),
    "svelte-kit": _js("svelte.config"),
    "tailwindcss": _js("tailwind.config"),
    "postcss": _js("postcss.config"),
    "playwright": _js("playwright.config"),
    "cypress": _js("cypress.config"),
    "mocha": _js(".mocharc"),
    "karma": _js("karma.conf"),
    "gulp": _js("gulpfile"),
    "grunt": ("Gruntfile.js", "Gruntfile.coffee"),
    "ava": _js("ava.config"),
    "nyc": _js("nyc.config", ".nycrc"),
    "stylelint": _js("stylelint.config", ".stylelintrc"),
    "commitlint": _js("commitlint.config"),
    "tsup": _js("tsup.config"),
    "eleventy": _js(".eleventy", "eleventy.config"),
    "esbuild": (),
    "bundle": ("Gemfile", "gems.rb"),
    "bundler": ("Gemfile", "gems.rb"),
    "pod": ("Podfile",),
    "fastlane": ("Fastfile", "fastlane/Fastfile"),
    "vagrant": ("Vagrantfile",),
    "danger": ("Dangerfile",),
    "direnv": (".envrc",),
    "sphinx-build": ("conf.py", "docs/conf.py", "source/conf.py"),
    "sphinx-autobuild": ("conf.py", "docs/conf.py", "source/conf.py"),
    "jupyter": ("jupyter_notebook_config.py", "jupyter_server_config.py", "jupyter_lab_config.py"),
    "ipython": ("ipython_config.py",),
    "pyproject-build": ("setup.py", "hatch_build.py"),
    "alembic": ("env.py", "alembic/env.py", "migrations/env.py"),
}
NAMES = frozenset(name.lower().rpartition("/")[2] for names in CONFIGS.values() for name in names)
#: programs that run the tool named by their next word
_WRAPPERS = frozenset(["npx", "bunx", "pnpx"])
_EXECS = {"pnpm": ("exec", "dlx"), "yarn": ("exec", "dlx"), "bun": ("x",), "npm": ("exec",)}
HINT = (
    r"\b(?:"
    + "|".join(sorted(CONFIGS, key=len, reverse=True))
    + r"|npx|bunx|pnpx|pytest)\b|-m\s+build\b|PYTEST_PLUGINS="
)
_HINT_BYTES = HINT.encode()


#: the files pytest takes its ini options from
PYTEST_INIS = frozenset(["pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml"])
_ADDOPTS = re.compile(r"^[ \t]*addopts[ \t]*=(.{0,4096})$", re.MULTILINE)
_RUNS_PYTEST = re.compile(r"(?<![\w.-])py\.?test(?![\w./-])")  # not pytest.ini
_MAX_PLUGINS = 16


def runs_pytest(text: str) -> bool:
    """Cheap: ``text`` may run pytest (its ini options then apply)."""
    return "test" in text and _RUNS_PYTEST.search(text) is not None


def ini_plugins(ini: str) -> list[str]:
    """The plugin files the ``addopts`` of an ini text makes pytest import (``-p peek``: peek.py)."""
    if "addopts" not in ini:
        return []
    args = [w.strip("\"'[],") for m in _ADDOPTS.finditer(ini) for w in m.group(1).split()][: _MAX_PLUGINS * 8]
    return _plugins([w for w in args if w])[:_MAX_PLUGINS]


def _plugins(args: list[str]) -> list[str]:
    plugins = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg == "-p" and not args[i + 1].startswith("no:")]
    plugins += [arg[2:] for arg in args if arg.startswith("-p") and len(arg) > 2 and not arg.startswith("-p=no:")]
    return [f"{plugin.lstrip('=').replace('.', '/')}.py" for plugin in plugins]


def loaded(head: str, args: list[str]) -> list[str]:
    """The configuration files (and plugins) a program ``head`` run with ``args`` runs as code
    (``npx jest`` runs jest's; ``pytest -p peek`` imports peek.py)."""
    if head in ("pytest", "py.test") or (head.startswith("python") and args[:2] == ["-m", "pytest"]):
        return _plugins(args)
    if head.startswith("python") and args[:2] == ["-m", "build"]:
        return list(CONFIGS["pyproject-build"])
    if head in CONFIGS:
        return list(CONFIGS[head])
    words = [arg for arg in args if arg[:1] != "-"]
    if head in _WRAPPERS or (head in _EXECS and words[:1] and words[0] in _EXECS[head]):
        words = words[1:] if head in _EXECS else words
    elif head not in ("yarn", "pnpm", "bun"):  # yarn jest: a binary of the package
        return []
    named = program_name(words[0]) if words else ""
    return list(CONFIGS.get(named, ()))


def env_plugins(assignments: list[str]) -> list[str]:
    """The plugin modules a ``PYTEST_PLUGINS=a,b.c`` assignment before a command makes pytest import."""
    values = [word.partition("=")[2] for word in assignments if word.startswith("PYTEST_PLUGINS=")]
    return [f"{name.strip().replace('.', '/')}.py" for value in values for name in value.split(",") if name.strip()]


def hints(lowered: set[str]) -> list[bytes]:
    """What a call's lowercased text must hold to run one of the kept files ``lowered``."""
    return [_HINT_BYTES] if NAMES & lowered or PYTEST_INIS & lowered else []
