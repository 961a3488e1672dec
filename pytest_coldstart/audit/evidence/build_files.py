"""Build tools that run the build files of a folder by themselves.

``./gradlew build`` runs the folder's ``build.gradle`` (Groovy or Kotlin code, with every file
access the JVM has), ``ant`` its ``build.xml``, ``cmake`` its ``CMakeLists.txt`` (``file(READ
…)``), ``meson`` its ``meson.build``, ``sbt`` its ``build.sbt``, ``mvn`` its ``pom.xml`` (the
exec plugin runs any program), ``cargo build`` its ``build.rs``. ``kept_runs.loads`` spells
such a segment with these files as a shell's operands, so a kept one reads as run: the files
of the segment's folder, of the folder an option moves it to (``-p``/``--project-dir``,
``-C``, ``-S``, a source folder operand) and those an option names (``-b``/``-f``/``-I``/
``--init-script``/``-c``). A build file that only names a file is read as run (fail closed).

Gradle also compiles and runs ``buildSrc/`` by itself, the init scripts of its user home
(``~/.gradle/init.d/*.gradle``, ``$GRADLE_USER_HOME``), the builds ``settings.gradle`` includes
(``include``, ``includeBuild '../lib'``) and a ``settings.gradle`` of a parent folder: where
it runs, every kept Gradle script and every kept file below a ``buildSrc`` folder runs
(``gradle_keys``; fail closed: which of them this build takes is not followed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: each tool, the build files it runs of its folder
FILES = {
    "gradle": ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "init.gradle")
    + ("gradle.properties",),
    "ant": ("build.xml",),
    "cmake": ("CMakeLists.txt",),
    "meson": ("meson.build", "meson_options.txt", "meson.options"),
    "sbt": ("build.sbt",),
    "mvn": ("pom.xml",),
    "cargo": ("build.rs", "src/main.rs"),
    "scons": ("SConstruct", "SConscript"),
    "go": ("*.go",),  # go run . / go build: the package's sources (``compiled`` follows go run peek.go)
    "dotnet": ("*.cs",),
}
_ALIASES = {"gradlew": "gradle", "gradlew.bat": "gradle", "mvnw": "mvn", "sbtn": "sbt", "sbtx": "sbt"}
NAMES = frozenset(name.lower() for names in FILES.values() for name in names)
#: options naming a build file a tool runs (their value, or ``--opt=value``)
_FILE_OPTIONS = frozenset(
    ["-b", "--build-file", "-c", "--settings-file", "-I", "--init-script", "-f", "--file", "-buildfile"]
    + ["-file", "-P", "-C", "--manifest-path"]
)
#: options moving the tool to another folder
_FOLDER_OPTIONS = frozenset(["-p", "--project-dir", "-S", "--directory", "-dir"])
#: cmake -B/meson's build folder, and other valued options whose value is no file it runs
_VALUED = frozenset(["-B", "-G", "-D", "-T", "-A", "--build", "-j", "--target", "-Dexec.args"])
HINT = r"\b(?:gradlew?|ant|cmake|meson|sbt[nx]?|mvnw?|cargo|scons|go|dotnet)\b"
#: the subcommands of go and dotnet that build or run the folder's package (not fmt, vet, mod ...)
_PACKAGE_COMMANDS = frozenset(["run", "build", "test", "install", "generate", "publish"])
_SOURCE_SUFFIXES = (".go", ".cs", ".rs")
_HINT_BYTES = HINT.encode()
_SUBCOMMANDS = frozenset(["setup", "configure", "compile", "test", "install", "dist"])
_OPTION_VALUE = re.compile(r"^(--?[\w-]+)=(.+)$")
#: a Gradle run (gradle, ./gradlew, gradlew.bat) as a word of a shell text
_GRADLE_RUN = re.compile(r"(?:^|[\s;&|(`/\\])gradlew?(?:\.bat)?(?=$|[\s;&|)`])", re.MULTILINE)
_GRADLE_SCRIPTS = (".gradle", ".gradle.kts")
#: the kept names that may be Gradle's own (a script, or a buildSrc source): a call running gradle gets the full look
_GRADLE_NAMES = (*_GRADLE_SCRIPTS, ".groovy", ".kt", ".java")


def gradle_keys(text: str, keys: Iterable[str]) -> list[str]:
    """The kept files a Gradle run in ``text`` may run: its scripts anywhere, and ``buildSrc``."""
    if "gradle" not in text or _GRADLE_RUN.search(text) is None:
        return []
    return [key for key in keys if key.endswith(_GRADLE_SCRIPTS) or "buildSrc/" in key]


def tool(head: str) -> str | None:
    """The build tool the program ``head`` is (``gradlew`` is Gradle), if any."""
    name = _ALIASES.get(head, head)
    return name if name in FILES else None


def loaded(name: str, args: list[str]) -> list[str]:
    """The build files the tool ``name`` run with ``args`` runs."""
    named: list[str] = []
    folder = ""
    operands: list[str] = []
    skip: str | None = None
    for arg in args:
        if skip is not None:
            named += [arg] if skip in _FILE_OPTIONS else []
            folder = f"{arg.rstrip('/')}/" if skip in _FOLDER_OPTIONS else folder
            skip = None
        elif (match := _OPTION_VALUE.match(arg)) is not None and match.group(1) in _FILE_OPTIONS | _FOLDER_OPTIONS:
            named += [match.group(2)] if match.group(1) in _FILE_OPTIONS else []
            folder = f"{match.group(2).rstrip('/')}/" if match.group(1) in _FOLDER_OPTIONS else folder
        elif arg in _FILE_OPTIONS or arg in _FOLDER_OPTIONS or arg in _VALUED:
            skip = arg
        elif arg[:1] != "-":
            operands.append(arg)
    if name in ("go", "dotnet"):  # the package folders named (go run ./cmd/peek), else the cwd's
        if not operands or operands[0] not in _PACKAGE_COMMANDS:
            return []
        operands = [op for op in operands[1:] if op[:1] == "." and not op.endswith(_SOURCE_SUFFIXES)]
        folder = f"{operands[0].rstrip('/')}/" if operands else "./"
    folders = [folder]
    if name in ("cmake", "meson"):  # cmake SRC, meson setup BUILD SRC: either may be the source folder
        folders += [f"{op.rstrip('/')}/" for op in operands if op not in _SUBCOMMANDS]
    return [*named, *(f"{where}{file}" for where in dict.fromkeys(folders) for file in FILES[name])]


def hints(lowered: set[str]) -> list[bytes]:
    """What a call's lowercased text must hold to run one of the kept files ``lowered``."""
    suffixes = (*_SOURCE_SUFFIXES, *_GRADLE_NAMES)
    return [_HINT_BYTES] if NAMES & lowered or any(name.endswith(suffixes) for name in lowered) else []
