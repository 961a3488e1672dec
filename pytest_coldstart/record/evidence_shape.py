"""Does a declared evidence file have its documented shape? (``coldstart trace evidence``)

The evidence files a user produces (test-mod stream, agent logger and its normalized view,
answer, oracle, fixture and restore reports, reviews, preflight report) each have a JSON Schema
under ``run/schemas/evidence/`` (or the run schemas for reviews and the preflight report) and a
section in docs/formats.md. While recording, the first problem found is only a warning: the
declaration is kept, and the audit stays the judge. The check reads the file once, line by
line for streams, and stops at the first problem.
"""

from __future__ import annotations

from pathlib import Path

from pytest_coldstart.run import jsonio, schemas

#: evidence name -> (schema kind, one JSON object per line?)
SHAPES: dict[str, tuple[str, bool]] = {
    "test_mod": ("evidence/testmod-event", True),
    "agent_logger": ("evidence/agent-logger-record", True),
    "agent_logger.normalized": ("evidence/agent-logger-normalized", True),
    "answer": ("evidence/answer", False),
    "oracle": ("evidence/oracle", False),
    "fixture": ("evidence/fixture", False),
    "restore": ("evidence/restore", False),
    "review": ("review", True),
    "preflight": ("preflight", False),
}


def first_problem(name: str, path: Path) -> str | None:
    """The first way ``path`` differs from the documented shape of evidence ``name``, or None."""
    kind, lines = SHAPES[name]
    try:
        if not lines:
            with jsonio.open_regular(path) as whole:
                return _first_error(kind, jsonio.loads(whole.read()), "")
        with jsonio.open_regular(path) as stream:
            for number, raw in enumerate(stream, 1):
                if not raw.strip():
                    continue
                try:
                    value = jsonio.loads(raw)
                except (ValueError, RecursionError) as exc:
                    return f"line {number}: not JSON ({str(exc)[:80]})"
                problem = _first_error(kind, value, f"line {number}: ")
                if problem:
                    return problem
    except (ValueError, RecursionError) as exc:
        return f"not JSON ({str(exc)[:80]})"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    return None


def _first_error(kind: str, value: object, where: str) -> str | None:
    found = schemas.errors(kind, value)
    if not found:
        return None
    return f"{where}{found[0]} (schema {kind}.schema.json)"
