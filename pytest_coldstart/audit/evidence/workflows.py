"""Notebook, workflow, infrastructure and template tools that run the files they are handed
or the files of their folder.

A notebook's code cells run where ``jupyter nbconvert --execute``, ``jupyter execute``,
``papermill``, ``quarto render``, ``marimo run`` or ``jupytext --execute`` is handed it;
``snakemake`` runs its ``Snakefile`` (Python), ``nextflow run`` its ``main.nf``, ``dvc repro``
the ``cmd`` of its ``dvc.yaml``, ``ansible-playbook`` a playbook's ``shell`` tasks and
``lookup('file', …)``, ``act`` the steps of ``.github/workflows``, ``ninja`` its
``build.ninja``, ``mage`` its ``magefile.go``, ``bazel`` a package's ``BUILD`` genrules,
``earthly`` its ``Earthfile``, ``tilt`` its ``Tiltfile`` (``python -m snakemake`` too);
``docker compose`` its ``compose.yaml``, ``hatch``/``pdm``/``poe`` the scripts of
``pyproject.toml``, ``mkdocs`` its hooks, ``hugo`` its layouts' ``readFile``, ``jekyll`` its
plugins, and ``packer``, ``redo``, ``tup``, ``xmake``, ``premake``, ``buck``, ``pants``, ``waf``
their build files. Infrastructure code reads files:
``terraform``/``tofu`` evaluate ``file(…)`` of every ``*.tf`` (``-chdir``), ``helm template``
a chart's ``.Files.Get``, ``kustomize build``/``kubectl apply -k`` a ``configMapGenerator``'s
files, ``pulumi up`` runs its program, ``nix-build``/``nix eval -f`` evaluate
``builtins.readFile``, ``cue``, ``jsonnet`` (``importstr``), ``dhall`` and ``gomplate``
(``file.Read``; a template on stdin too) read what they name, and ``yq --from-file`` runs its
expression (``load(…)``).

``kept_runs.loads`` spells such a segment with these files as a shell's operands, so a kept one
reads as run (a file that only names the oracle counts: fail closed). Each tool's operands count
as files it runs and as folders whose own files it runs (``nextflow run pipeline/``, ``helm
template chart``); a name that is no kept file changes nothing. A command that only shows or
formats (``terraform fmt``, ``nbconvert --to html``) runs none; a notebook converted into a script
(``nbconvert --to script``, ``jupytext``) counts as run (fail closed: the script runs later).
"""

from __future__ import annotations

import re

_NOTEBOOKS = ("*.ipynb", "*.qmd", "*.Rmd", "_quarto.yml")
_TERRAFORM = ("*.tf", "*.tf.json", "*.tfvars", "terragrunt.hcl")
_BAZEL = ("BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", "*.bzl")
_PULUMI = ("Pulumi.yaml", "__main__.py", "index.ts", "index.js", "main.go", "Program.cs", "Main.java")
_NIX = ("default.nix", "flake.nix", "shell.nix")
_COMPOSE = ("compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml")
_KUSTOMIZE = ("kustomization.yaml", "kustomization.yml", "Kustomization")

#: each tool, the files of its folder (or of a folder operand) it runs
FOLDER: dict[str, tuple[str, ...]] = {
    "snakemake": ("Snakefile", "snakefile", "workflow/Snakefile", "*.smk", "rules/*.smk", "workflow/rules/*.smk"),
    "nextflow": ("main.nf", "nextflow.config", "*.nf", "modules/*.nf"),
    "dvc": ("dvc.yaml",),
    "act": (".github/workflows/*.yml", ".github/workflows/*.yaml"),
    "ninja": ("build.ninja",),
    "mage": ("magefile.go", "magefiles/*.go"),
    "bazel": _BAZEL,
    "earthly": ("Earthfile",),
    "tilt": ("Tiltfile",),
    "terraform": _TERRAFORM,
    "helm": ("templates/*", "Chart.yaml", "values.yaml"),
    "kustomize": _KUSTOMIZE,
    "kubectl": _KUSTOMIZE,
    "pulumi": _PULUMI,
    "nix": _NIX,
    "nix-build": _NIX,
    "nix-shell": _NIX,
    "nix-instantiate": _NIX,
    "cue": ("*.cue",),
    "quarto": _NOTEBOOKS,
    "ansible-playbook": (),
    "jupyter": (),
    "papermill": (),
    "marimo": (),
    "jupytext": (),
    "jsonnet": (),
    "dhall": (),
    "gomplate": (),
    "yq": (),
    "mustache": (),
    "ipython": (),
    "jupyter-execute": (),
    "mkdocs": ("mkdocs.yml", "mkdocs.yaml", "main.py", "*.py", "hooks/*.py"),  # hooks, macros
    "hugo": ("layouts/*", "layouts/_default/*", "layouts/partials/*", "layouts/shortcodes/*"),  # readFile
    "jekyll": ("_plugins/*.rb", "_config.yml"),
    "hatch": ("pyproject.toml", "hatch.toml", "hatch_build.py"),  # scripts of hatch run, build hooks
    "pdm": ("pyproject.toml", "pdm_build.py"),
    "poe": ("pyproject.toml", "poe_tasks.toml"),
    "docker-compose": _COMPOSE,
    "docker": _COMPOSE,
    "podman": _COMPOSE,
    "packer": ("*.pkr.hcl", "*.pkr.json"),
    "redo": ("*.do",),
    "tup": ("Tupfile", "Tuprules.tup"),
    "xmake": ("xmake.lua",),
    "premake5": ("premake5.lua", "premake4.lua"),
    "buck2": ("BUCK", "BUCK.v2", "*.bzl"),
    "pants": ("BUILD", "BUILD.pants", "pants.toml"),
    "waf": ("wscript",),
}
_ALIASES = {"tofu": "terraform", "terragrunt": "terraform", "bazelisk": "bazel", "jupyter-nbconvert": "jupyter"}
_ALIASES |= {"buck": "buck2", "premake4": "premake5", "podman-compose": "docker-compose", "poethepoet": "poe"}
_ALIASES |= {"ipython3": "ipython", "go-jsonnet": "jsonnet", "jrsonnet": "jsonnet"}
#: the subcommands after which a tool runs nothing of its files (the rest run, fail closed)
_SHOWING: dict[str, frozenset[str]] = {
    "terraform": frozenset(["fmt", "version", "providers", "workspace", "login", "logout", "-version", "-help"]),
    "helm": frozenset(["repo", "search", "version", "env", "plugin", "registry", "pull", "push", "list", "status"]),
    "dvc": frozenset(["init", "add", "push", "pull", "status", "remote", "config", "dag", "version", "gc", "diff"]),
    "pulumi": frozenset(["stack", "config", "login", "logout", "version", "whoami", "plugin", "new", "cancel"]),
    "marimo": frozenset(["new", "tutorial", "--version", "env"]),
    "kubectl": frozenset(["get", "describe", "logs", "delete", "version", "config", "exec", "port-forward"]),
    "cue": frozenset(["fmt", "version", "mod", "help"]),
    "nix": frozenset(["flake", "profile", "store", "hash", "search", "registry", "--version", "path-info"]),
    "dhall": frozenset(["format", "lint", "freeze", "version"]),
    "bazel": frozenset(["version", "info", "clean", "shutdown", "help"]),
}
#: the options whose value is a file the tool runs, or a folder it runs the files of
_FILE_OPTIONS = frozenset(["-s", "--snakefile", "-f", "--file", "-W", "--workflows", "-t", "--template"])
_FILE_OPTIONS |= frozenset(["--from-file", "--execute-file", "-c", "--config", "-J", "--jpath", "-k", "--kustomize"])
_FOLDER_OPTIONS = frozenset(["-d", "--directory", "-C", "--cwd", "--chdir", "-chdir", "--input-dir", "-i"])
#: tools whose operands are data or targets (``yq '.a' x.yaml``): only what their options name runs
_DATA = frozenset(["yq", "gomplate", "kubectl", "ninja", "act", "tilt", "mage"])
_IMPORT = re.compile(r"\bimport(?:str|bin)?\s*[\"']?([^\"'\s]{1,256})")
_WORD = re.compile(r"^[\w./:+@~*?-]+$")  # a name, not a code string (``jsonnet -e '…'`` names nothing here)
_HINT_NAMES = sorted({*FOLDER, *_ALIASES}, key=len, reverse=True)
#: a cheap necessary condition of ``loaded`` naming a file (``kept_runs`` hints with it)
HINT = r"\b(?:" + "|".join(name.replace("-", r"\-") for name in _HINT_NAMES) + r")\b"
_HINT_BYTES = HINT.encode()
#: the kept names one of these tools may run: a call naming such a tool gets the full look
_SUFFIXES: tuple[str, ...] = (".ipynb", ".qmd", ".rmd", ".smk", ".nf", ".ninja", ".tf", ".tfvars", ".bzl", ".nix")
_SUFFIXES += (".cue", ".jsonnet", ".libsonnet", ".dhall", ".tmpl", ".tpl", ".gotmpl", ".mustache", ".yq")
_SUFFIXES += (".yml", ".yaml", ".toml", ".html", ".rb", ".do", ".lua", ".hcl")  # templates, plugins, task tables
_NAMES = frozenset(
    ["snakefile", "dvc.yaml", "build.ninja", "magefile.go", "build", "build.bazel", "workspace", "earthfile"]
    + [
        "tupfile",
        "wscript",
        "buck",
        "main.py",
        "tiltfile",
        "pulumi.yaml",
        "__main__.py",
        "kustomization.yaml",
        "kustomization.yml",
        "chart.yaml",
    ]
)


def tool(head: str, args: list[str]) -> tuple[str, list[str]] | None:
    """The tool of this module the program ``head`` is (``python -m snakemake`` too), and its arguments."""
    if head.startswith("python") and args[:1] == ["-m"] and len(args) > 1:
        head, args = args[1], args[2:]
    name = _ALIASES.get(head, head)
    return (name, args) if name in FOLDER else None


def loaded(name: str, args: list[str]) -> list[str]:
    """The files the tool ``name`` run with ``args`` runs: those its options and operands name,
    and its own files of its folder and of each folder operand."""
    words = [arg for arg in args if arg[:1] != "-"]
    if words[:1] and words[0] in _SHOWING.get(name, frozenset()):
        return []
    if not _runs(name, args, words):
        return []
    named: list[str] = []
    folders: list[str] = []
    skip: str | None = None
    for arg in args:
        option, equals, value = arg.partition("=")
        if skip is not None:
            (folders if skip in _FOLDER_OPTIONS else named).append(arg)
            skip = None
        elif equals and option in _FILE_OPTIONS | _FOLDER_OPTIONS:
            (folders if option in _FOLDER_OPTIONS else named).append(value)
        elif arg in _FILE_OPTIONS or arg in _FOLDER_OPTIONS or arg == "<":
            skip = arg
        elif arg[:1] == "<" and arg[1:2] not in ("<", "(", ""):
            named.append(arg[1:])  # gomplate < t.tmpl, dhall < x.dhall
        elif arg[:1] not in ("-", ">") and not arg[:1].isdigit() and _WORD.match(arg) and name not in _DATA:
            named.append(arg)
    named += [_package(word) for word in named if "//" in word or "+" in word]  # bazel //pkg:x, earthly ./d+t
    if name == "jsonnet" and "import" in " ".join(args):  # -e 'import "x.libsonnet"': in each -J folder too
        imported = _IMPORT.findall(" ".join(args))[:8]
        named += [f"{where}{file}" for where in ["", *(f"{f.rstrip('/')}/" for f in named[:8])] for file in imported]
    where = [folder.rstrip("/") + "/" for folder in folders[:8]] or [""]
    places = [*where, *(f"{base}{word.rstrip('/')}/" for base in where for word in named[:8])]
    return [*named, *(f"{place}{file}" for place in dict.fromkeys(places) for file in FOLDER[name])]


def _runs(name: str, args: list[str], words: list[str]) -> bool:
    """Whether the command runs code at all: ``nbconvert`` only with ``--execute`` or into a
    script (``--to script``, which a later ``python nb.py`` runs), not into a page."""
    if name == "jupytext":  # a conversion makes a script that runs later: which one is not followed
        return True
    if name == "jupyter":
        scripted = bool({"script", "python", "--to=script", "--to=python"} & set(args))
        return "--execute" in args or scripted or words[:1] in (["execute"], ["run"])
    if name in ("docker", "podman"):  # their other commands: ``containers``
        return words[:1] == ["compose"]
    if name == "hatch" or name == "pdm":
        return words[:1] != [] and words[0] not in ("version", "env", "config", "show", "list", "info", "self")
    if name == "kubectl":
        return bool({"-k", "--kustomize", "kustomize"} & set(args)) or any(a.startswith("--kustomize=") for a in args)
    return True


def _package(word: str) -> str:
    """The folder a bazel target (``//pkg:x``) or an Earthly target (``./dir+t``) names."""
    if "//" in word:
        return word.partition("//")[2].partition(":")[0] or "."
    return word.partition("+")[0] or "."


def hints(lowered: set[str]) -> list[bytes]:
    """What a call's lowercased text must hold to run one of the kept files ``lowered``."""
    return [_HINT_BYTES] if _NAMES & lowered or any(name.endswith(_SUFFIXES) for name in lowered) else []
