"""Notebook, workflow, infrastructure and template tools that run files (audit/evidence/workflows.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.audit.evidence import kept_runs, workflows

#: a command, and a file it runs
_RUNS = [
    ("jupyter nbconvert --to notebook --execute nb.ipynb", "nb.ipynb"),
    ("jupyter-nbconvert --execute --to html w/nb.ipynb", "w/nb.ipynb"),
    ("jupyter execute nb.ipynb", "nb.ipynb"),
    ("papermill in.ipynb out.ipynb -p n 3", "in.ipynb"),
    ("jupytext --to notebook --execute nb.py", "nb.py"),
    ("quarto render", "*.qmd"),
    ("snakemake -c1", "Snakefile"),
    ("snakemake --snakefile=wf.smk -c1", "wf.smk"),
    ("nextflow run pipe/", "pipe/main.nf"),
    ("dvc repro", "dvc.yaml"),
    ("ansible-playbook -i hosts play.yml", "play.yml"),
    ("act push", ".github/workflows/*.yml"),
    ("ninja -C b", "b/build.ninja"),
    ("bazel build //pkg:a", "pkg/BUILD"),
    ("earthly ./e+a", "./e/Earthfile"),
    ("terraform -chdir=infra apply", "infra/*.tf"),
    ("tofu plan", "*.tf"),
    ("helm template rel ./ch", "./ch/templates/*"),
    ("kubectl apply -k k/", "k/kustomization.yaml"),
    ("kustomize build overlay", "overlay/kustomization.yaml"),
    ("pulumi up -y -C p", "p/__main__.py"),
    ("nix-build", "default.nix"),
    ("nix eval -f x.nix", "x.nix"),
    ("jsonnet -J lib x.jsonnet", "x.jsonnet"),
    ("gomplate < t.tmpl", "t.tmpl"),
    ("yq eval -n --from-file q.yq", "q.yq"),
]


@pytest.mark.parametrize("command, runs", _RUNS)
def test_a_tool_runs_its_files(command: str, runs: str) -> None:
    spelled = kept_runs.loads(command) if kept_runs.may_load(command) else ""
    assert f"sh {runs}" in spelled.split(" && ")[1:] or f"sh {runs} " in spelled


@pytest.mark.parametrize(
    "command",
    [
        "jupyter nbconvert --to html nb.ipynb",
        "terraform fmt",
        "kubectl get pods",
        "kubectl apply -f x.yaml",
        "dvc add data.csv",
        "helm repo add x https://example.org",
        "yq '.a' cfg.yaml",
        "docker run --rm alpine true",
        "hatch version",
    ],
)
def test_nothing_is_run(command: str) -> None:
    head, *args = command.split()
    runner = workflows.tool(head, args)
    assert runner is not None
    assert not [name for name in workflows.loaded(*runner) if name in ("nb.ipynb", "cfg.yaml", "x.yaml")]
    assert "sh nb.ipynb" not in kept_runs.loads(command)


def test_a_code_string_is_no_file_but_its_imports_are() -> None:
    assert workflows.loaded("jsonnet", ["-e", 'importstr "x"; 1']) == ["x"]
    assert workflows.loaded("jsonnet", ["-e", "{a: 1}"]) == []


def test_hints_cover_the_kept_names() -> None:
    assert workflows.hints({"nb.ipynb"}) and workflows.hints({"snakefile"}) and workflows.hints({"main.tf"})
    assert not workflows.hints({"notes.md"})


@given(st.lists(st.text(max_size=12), max_size=12), st.sampled_from(sorted(workflows.FOLDER)))
def test_loaded_never_raises_and_is_bounded(args: list[str], name: str) -> None:
    out = workflows.loaded(name, args)
    assert len(out) <= len(args) * 2 + 9 * 9 * len(workflows.FOLDER[name]) + 9
