"""Sources run by a launcher or compiled then run, and build files a build tool loads
(audit/evidence/compiled.py, audit/evidence/build_files.py)."""

from __future__ import annotations

import pytest

from pytest_coldstart.audit.evidence import build_files, compiled, kept_runs


def _words(command: str) -> tuple[list[str], int]:
    words = command.split()
    return words, kept_runs.head_index(words)


@pytest.mark.parametrize(
    "command",
    ["java Peek.java", "jshell p.jsh", "go run p.go", "dotnet script p.csx", "kotlinc -script p.kts", "sudo groovy p"],
)
def test_launchers_run_the_source(command: str) -> None:
    assert compiled.runs_source(*_words(command))


@pytest.mark.parametrize(
    "command", ["javac -d build P.java", "go build p.go", "go vet p.go", "dotnet build", "cat P.java"]
)
def test_compilers_and_readers_run_no_source(command: str) -> None:
    assert not compiled.runs_source(*_words(command))


@pytest.mark.parametrize("command", ["javac -d build P.java", "rustc p.rs", "go build p.go", "dotnet publish"])
def test_compilers(command: str) -> None:
    assert compiled.compiles(*_words(command))


@pytest.mark.parametrize(
    "text",
    ["java -cp build Peek", "cd x && ./peek", "CLASSPATH=build java Peek", "timeout 5 build/peek", "mono p.exe"],
)
def test_a_compiled_program_runs(text: str) -> None:
    assert compiled.runs_output(text)


@pytest.mark.parametrize(
    "text", ["ls build", "cat build/x", "./gradlew build", "lab start --mod romlogger.jar", "// a comment line"]
)
def test_no_compiled_program_runs(text: str) -> None:
    assert not compiled.runs_output(text)


@pytest.mark.parametrize(
    ("head", "args", "loaded"),
    [
        ("gradlew", ["build"], "build.gradle"),
        ("gradle", ["-p", "mod", "build"], "mod/build.gradle"),
        ("gradle", ["-I", "/tmp/i.gradle", "build"], "/tmp/i.gradle"),
        ("gradle", ["--init-script=/tmp/i.gradle"], "/tmp/i.gradle"),
        ("ant", ["-f", "b.xml"], "b.xml"),
        ("cmake", ["-S", "src", "-B", "build"], "src/CMakeLists.txt"),
        ("cmake", [".."], "../CMakeLists.txt"),
        ("meson", ["setup", "build", "src"], "src/meson.build"),
        ("mvnw", ["-f", "x/pom.xml", "exec:exec"], "x/pom.xml"),
    ],
)
def test_build_files_loaded(head: str, args: list[str], loaded: str) -> None:
    tool = build_files.tool(head)
    assert tool is not None and loaded in build_files.loaded(tool, args)


def test_cmake_build_folder_is_no_source_folder() -> None:
    assert build_files.loaded("cmake", ["--build", "build"]) == ["CMakeLists.txt"]
