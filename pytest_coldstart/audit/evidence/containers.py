"""Folders a container engine hands a container whole.

``docker build DIR`` sends the build context ``DIR`` (every file below it) to the builder,
whose ``COPY``/``RUN`` lines can print any of them; ``docker run -v DIR:/w`` (``--volume``,
``--mount type=bind,source=DIR``) lets the container read every file below ``DIR``. Either is
a read of ``DIR`` whole (fail closed: what the container does with it is not followed), for
docker, podman, nerdctl and finch; ``$PWD``, ``$(pwd)`` and ``.`` are the working directory.
"""

from __future__ import annotations

from collections.abc import Iterator

ENGINES = frozenset(["docker", "podman", "nerdctl", "finch", "buildah"])
HINT = r"docker|podman|nerdctl|finch|buildah"
_BUILDS = frozenset(["build", "buildx", "bud", "image"])  # buildx build, image build, buildah bud
_RUNS = frozenset(["run", "create", "container"])
_CWD = ("$PWD", "${PWD}", "$(pwd)", "`pwd`", "~+")
#: build options whose value is no context (-t name, -f Dockerfile, --build-arg x=y ...)
_VALUED = frozenset(["-t", "--tag", "-f", "--file", "--build-arg", "--target", "--platform", "--label", "-o"])
_VALUED |= {"--output", "--cache-from", "--cache-to", "--secret", "--ssh", "--network", "--progress", "--iidfile"}

Read = tuple[str, str, bool]


def mounted(words: list[str], head: str) -> Iterator[Read]:
    """The folders a container command (``words[0]`` is the engine ``head``) hands over whole."""
    if head not in ENGINES or len(words) < 2:
        return
    rest = words[1:]
    if rest[0] in _BUILDS:
        yield from ((_folder(context), "*", True) for context in _contexts(rest[1:]))
    if rest[0] in _RUNS or "run" in rest[:2]:
        for index, word in enumerate(rest):
            value = rest[index + 1] if index + 1 < len(rest) else ""
            if word in ("-v", "--volume"):
                yield (_folder(value.split(":", 1)[0]), "*", True)
            elif word.startswith(("-v", "--volume=")) and len(word) > 2 and word[2:3] != "-":
                yield (_folder((word.partition("=")[2] or word[2:]).split(":", 1)[0]), "*", True)
            elif word == "--mount" or word.startswith("--mount="):
                spec = word.partition("=")[2] if "=" in word else value
                source = next((p.partition("=")[2] for p in spec.split(",") if p.startswith(("source=", "src="))), None)
                if source:
                    yield (_folder(source), "*", True)


def _contexts(args: list[str]) -> list[str]:
    operands, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg in _VALUED:
            skip = True
        elif arg[:1] != "-" and arg != "build":
            operands.append(arg)
    return operands[-1:] or []


def _folder(path: str) -> str:
    for form in _CWD:
        if path == form or path.startswith(form + "/"):
            return "." + path[len(form) :]
    return path or "."
