"""Probe recording: every command a check runs, and every fact it observes, leaves a transcript
under ``<out>/probes/`` whose hash goes into the report.

Commands never read stdin, run in their own session (a timeout kills the whole process group)
and write to files rather than pipes, so a daemon a command leaves behind cannot hang us.
Secret values registered with ``add_secret`` never reach a transcript.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.run.hashing import sha256_bytes

#: Per stream, what is kept of a command's output (head and tail beyond it).
MAX_CAPTURE = 1 << 20
EXCERPT_CHARS = 1200
PROBES = "probes"
_SLUG = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass
class CommandRun:
    """One command's outcome. ``exit_code`` is None when it timed out or could not start."""

    argv: list[str]
    exit_code: int | None
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    error: str | None = None
    evidence: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    @property
    def output(self) -> str:
        return self.stdout + ("\n" if self.stdout and self.stderr else "") + self.stderr

    def describe(self) -> str:
        """Short human text for a check's detail: 'exit 2', 'timed out after 30 s', ..."""
        if self.error:
            return self.error
        if self.timed_out:
            return f"timed out after {self.seconds:.0f} s"
        return f"exit {self.exit_code}"


def slug(text: str) -> str:
    return _SLUG.sub("-", text).strip("-")[:80] or "probe"


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + "\n...\n" + text[-half:]


def which(name: str, environ: Mapping[str, str], cwd: Path) -> str | None:
    """Resolve a command the way a shell would: a name through PATH, a path against ``cwd``."""
    if not name:
        return None
    if os.sep in name or (os.altsep and os.altsep in name):
        candidate = Path(name) if Path(name).is_absolute() else cwd / name
        return str(candidate) if candidate.is_file() and os.access(candidate, os.X_OK) else None
    return shutil.which(name, path=environ.get("PATH", os.defpath))


class Probes:
    """Writes the probe files of one preflight output directory."""

    def __init__(self, out: str | Path, *, cwd: Path | None = None, environ: Mapping[str, str] | None = None):
        self.out = Path(out)
        self.cwd = cwd or Path.cwd()
        self.environ = dict(os.environ if environ is None else environ)
        self.dir = self.out / PROBES
        self._secrets: set[str] = set()
        self._lock = threading.Lock()
        self._scrubber = Redactor()

    def add_secret(self, value: str) -> None:
        if value:
            self._secrets.add(value)

    def scrub(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "<redacted>")
        return self._scrubber.scrub(text)

    def _reserve(self, check_id: str, step: str, suffix: str = ".txt") -> Path:
        with self._lock:
            self.dir.mkdir(parents=True, exist_ok=True)
            base = f"{slug(check_id)}-{slug(step)}"
            candidate = self.dir / f"{base}{suffix}"
            number = 2
            while candidate.exists():
                candidate = self.dir / f"{base}-{number}{suffix}"
                number += 1
            candidate.touch()
            return candidate

    def _store(self, path: Path, data: bytes, kind: str, **extra: Any) -> dict[str, Any]:
        path.write_bytes(data)
        return {
            "kind": kind,
            **extra,
            "path": path.relative_to(self.out).as_posix(),
            "sha256": sha256_bytes(data),
            "size": len(data),
        }

    def transcript(self, check_id: str, step: str, text: str, **extra: Any) -> dict[str, Any]:
        """Record an observation (socket probe, HTTP fetch, ...) as a text transcript."""
        body = self.scrub(text if text.endswith("\n") else text + "\n")
        return self._store(self._reserve(check_id, step), body.encode("utf-8"), "transcript", step=step, **extra)

    def file(self, check_id: str, name: str, data: bytes, **extra: Any) -> dict[str, Any]:
        """Keep a byte-exact copy of something the check produced or read."""
        suffix = Path(name).suffix or ".bin"
        return self._store(self._reserve(check_id, Path(name).stem, suffix), data, "file", name=name, **extra)

    def command(
        self,
        check_id: str,
        step: str,
        argv: list[str],
        *,
        timeout: float,
        env_extra: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> CommandRun:
        """Run ``argv`` (in ``cwd``, default the preflight's) and record it; never raises for
        the command's own failures."""
        cwd = cwd or self.cwd
        env = dict(self.environ)
        env.update(env_extra or {})
        started = time.monotonic()
        resolved = which(argv[0], env, cwd) if argv else None
        if resolved is None:
            missing = argv[0] if argv else "(empty command)"
            run = CommandRun(list(argv), None, "", "", 0.0, error=f"command not found: {missing}")
        else:
            run = _execute([resolved, *argv[1:]], list(argv), timeout, cwd, env)
        run.seconds = round(time.monotonic() - started, 3)
        header = [f"$ {shlex.join(argv)}", f"# cwd: {cwd}"]
        if resolved and resolved != (argv[0] if argv else None):
            header.append(f"# resolved: {resolved}")
        if env_extra:
            header.append(f"# env set by preflight: {', '.join(sorted(env_extra))} (values not recorded)")
        header.append(
            f"# exit: {run.exit_code if run.exit_code is not None else 'none'} ({run.describe()}, {run.seconds:.3f} s)"
        )
        text = "\n".join(header) + f"\n--- stdout ---\n{run.stdout}\n--- stderr ---\n{run.stderr}\n"
        body = self.scrub(text)
        run.evidence = self._store(
            self._reserve(check_id, step),
            body.encode("utf-8"),
            "command",
            step=step,
            command=list(argv),
            display=shlex.join(argv),
            exit_code=run.exit_code,
            timed_out=run.timed_out,
            seconds=run.seconds,
        )
        run.evidence["excerpt"] = excerpt(self.scrub(run.output))
        return run


def _execute(argv: list[str], shown: list[str], timeout: float, cwd: Path, env: dict[str, str]) -> CommandRun:
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=out_file,
                stderr=err_file,
                cwd=cwd,
                env=env,
                start_new_session=True,
            )
        except OSError as exc:
            return CommandRun(shown, None, "", "", 0.0, error=f"could not start {shown[0]}: {exc.strerror or exc}")
        timed_out = False
        try:
            code: int | None = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out, code = True, None
        finally:
            if process.poll() is None:
                _kill_group(process)
        return CommandRun(shown, code, _read_bounded(out_file), _read_bounded(err_file), 0.0, timed_out=timed_out)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    process.wait()


def _read_bounded(handle: IO[bytes]) -> str:
    size = handle.seek(0, os.SEEK_END)
    handle.seek(0)
    if size <= MAX_CAPTURE:
        data = handle.read()
    else:
        head = handle.read(MAX_CAPTURE // 2)
        handle.seek(size - MAX_CAPTURE // 2)
        data = head + f"\n[... {size - MAX_CAPTURE} bytes not kept ...]\n".encode() + handle.read()
    return data.decode("utf-8", errors="replace")
