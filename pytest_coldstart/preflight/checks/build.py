"""build_install: a real JDK >= build.min_java compiles, packages and installs a probe jar.

JDK candidates: ``build.java`` when set (then it is the only one: the harness is pinned to it),
otherwise ``$COLDSTART_JAVA`` and then ``javac`` on PATH, the first new enough one winning.
A JDK below ``min_java`` fails on purpose.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import zipfile
from pathlib import Path
from typing import Any

from pytest_coldstart.preflight.checks.base import CheckResult
from pytest_coldstart.preflight.context import Context
from pytest_coldstart.run.hashing import sha256_file

PROBE_CLASS = "ColdstartProbe"
_JAVAC_VERSION = re.compile(r"javac\s+(\d+)(?:\.(\d+))?")


def parse_major(text: str) -> int | None:
    """'javac 17.0.15' -> 17, 'javac 1.8.0_392' -> 8, 'javac 25-ea' -> 25."""
    match = _JAVAC_VERSION.search(text)
    if not match:
        return None
    major = int(match.group(1))
    return int(match.group(2)) if major == 1 and match.group(2) else major


def candidates(context: Context) -> list[tuple[str, str]]:
    configured = (context.config.get("build.java") or "").strip()
    if configured:
        return [("build.java", configured)]
    found = []
    if context.environ.get("COLDSTART_JAVA", "").strip():
        found.append(("$COLDSTART_JAVA", context.environ["COLDSTART_JAVA"].strip()))
    found.append(("PATH", "javac"))
    return found


def sibling(path: Path, tool: str) -> Path:
    """The ``tool`` next to ``path`` (keeping a Windows .exe suffix)."""
    return path.with_name(tool + (".exe" if path.suffix.lower() == ".exe" else ""))


def resolve_javac(value: str, context: Context) -> str | None:
    """A java/javac executable, or a JDK home, to the javac it implies."""
    path = Path(value) if os.sep in value else None
    if path is not None and not path.is_absolute():
        path = context.cwd / path
    if path is not None and path.is_dir():
        for inner in (path / "bin" / "javac", path / "javac"):
            if inner.is_file():
                return str(inner)
        return None
    found = context.which(str(path) if path is not None else value)
    if found is None:
        return None
    name = Path(found).name.lower()
    if name.startswith("java") and not name.startswith("javac"):
        javac = sibling(Path(found), "javac")
        return str(javac) if javac.is_file() else None
    return found


class BuildInstall:
    id = "build_install"
    proves = "a JDK >= build.min_java compiles and packages a probe jar, and the installed bytes hash-match"

    def run(self, context: Context) -> CheckResult:
        minimum = int(context.config.get("build.min_java") or 0)
        evidence: list[dict[str, Any]] = []
        tried: list[str] = []
        chosen: tuple[str, str, int] | None = None
        for origin, value in candidates(context):
            javac = resolve_javac(value, context)
            if javac is None:
                tried.append(f"{origin} {value}: no javac found")
                continue
            probe = context.command(
                self.id, "javac-version", [javac, "-version"], timeout=context.config.timeout("command")
            )
            evidence.append(probe.evidence)
            major = parse_major(probe.output) if probe.ok else None
            tried.append(
                f"{origin} {javac}: " + (f"javac {major}" if major is not None else f"no version ({probe.describe()})")
            )
            if major is not None and major >= minimum:
                chosen = (origin, javac, major)
                break
        versions: dict[str, Any] = {"min_java": minimum, "candidates": tried}
        if chosen is None:
            return CheckResult.failed(f"no JDK >= {minimum} found ({'; '.join(tried)})", evidence, **versions)
        origin, javac, major = chosen
        versions.update(java=javac, java_origin=origin, javac_major=major)
        return self._build(context, Path(javac), evidence, versions)

    def _build(
        self, context: Context, javac: Path, evidence: list[dict[str, Any]], versions: dict[str, Any]
    ) -> CheckResult:
        jar_tool = sibling(javac, "jar") if sibling(javac, "jar").is_file() else context.which("jar")
        java = sibling(javac, "java") if sibling(javac, "java").is_file() else context.which("java")
        if jar_tool is None or java is None:
            return CheckResult.failed(
                f"the JDK at {javac} has no {'jar' if jar_tool is None else 'java'} tool", evidence, **versions
            )
        build = context.workdir("build")
        nonce = f"coldstart-probe-{secrets.token_hex(6)}"
        source = build / "src" / f"{PROBE_CLASS}.java"
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(
            f"public final class {PROBE_CLASS} {{\n    public static void main(String[] args) {{\n"
            f'        System.out.println("{nonce}");\n    }}\n}}\n',
            encoding="utf-8",
        )
        timeout = context.config.timeout("build")
        jar = build / "coldstart-probe.jar"
        installed = build / "install" / jar.name
        steps = [
            ("javac", [str(javac), "-d", str(build / "classes"), str(source)]),
            ("jar", [str(jar_tool), "cf", str(jar), "-C", str(build / "classes"), "."]),
        ]
        for step, argv in steps:
            run = context.command(self.id, step, argv, timeout=timeout)
            evidence.append(run.evidence)
            if not run.ok:
                return CheckResult.failed(f"{step} failed ({run.describe()})", evidence, **versions)
        with zipfile.ZipFile(jar) as archive:
            if f"{PROBE_CLASS}.class" not in archive.namelist():
                return CheckResult.failed(f"{jar.name} does not contain {PROBE_CLASS}.class", evidence, **versions)
        installed.parent.mkdir(exist_ok=True)
        shutil.copyfile(jar, installed)
        built_sha, size = sha256_file(jar, follow_symlinks=True)  # build outputs: not run files
        installed_sha, _ = sha256_file(installed, follow_symlinks=True)
        evidence.append(
            {
                "kind": "install",
                "built": jar.relative_to(context.out).as_posix(),
                "installed": installed.relative_to(context.out).as_posix(),
                "sha256": built_sha,
                "installed_sha256": installed_sha,
                "size": size,
            }
        )
        versions.update(jar_sha256=built_sha, installed_sha256=installed_sha)
        if installed_sha != built_sha:
            return CheckResult.failed("the installed jar's bytes differ from the built jar", evidence, **versions)
        run = context.command(
            self.id, "run-installed", [str(java), "-cp", str(installed), PROBE_CLASS], timeout=timeout
        )
        evidence.append(run.evidence)
        if not run.ok or run.stdout.strip() != nonce:
            return CheckResult.failed(
                f"the installed jar did not run and print its nonce ({run.describe()})", evidence, **versions
            )
        return CheckResult.passed(
            f"javac {versions['javac_major']} ({versions['java_origin']}) built, packaged and installed {jar.name} "
            f"(sha256 {built_sha[:12]}, installed bytes match, runs)",
            evidence,
            **versions,
        )
