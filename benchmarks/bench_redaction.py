"""Redaction cost: the default rules of this version against the previous defaults, same run.

Two hot paths: the importer (prefilter over the raw session + the per-record redactor, through
``import_session``) and ``Redactor.scrub`` on strings. Inputs: the pi session of
``bench_import.py`` (tool output without any trigger word: the common case) and the same
session whose every output is source code full of trigger words (``key``, ``token``,
``password`` …: the worst ordinary case). Each measurement is the best of ``--repeat`` runs,
old and new interleaved, in CPU seconds of this process (the machine may be shared); ratio = new / old.

    python benchmarks/bench_redaction.py [--calls 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_import import write_session

from pytest_coldstart.importers.pipeline import import_session
from pytest_coldstart.record.recorder import init_run
from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.record.secret_rules import EARLIER, RULES

NEW = [pattern for pattern, _ in RULES]
_SAME = {p for p, _ in RULES if not p.startswith("(?<!")}
#: the default patterns before issue 16.4, in their order
OLD = [
    EARLIER[0][0],
    *(p for p in NEW[1:] if p.startswith(r"\bsk-") or p.startswith(r"\bgh") or p.startswith(r"\bgithub_pat_")),
    NEW[6],  # xox
    EARLIER[1][0],
    NEW[9],  # AIza
    *(
        p
        for p in NEW
        if p.startswith(r"\bBearer") or p.startswith(r"\b[A-Za-z][A-Za-z0-9+.-]") or p.startswith("(?:^|\\s)")
    ),
    EARLIER[2][0],
    EARLIER[3][0],
]
CODE = (
    "for key, value in config.items():\n    tokens = tokenizer.encode(value)  # monkey keyboard\n"
    "    if key == 'password_length': check(len(tokens))\nsecret_name = 'db'; TOKEN_COUNT=12\n"
)


def trigger_heavy(plain: Path, out: Path) -> None:
    with open(plain, encoding="utf-8") as src, open(out, "w", encoding="utf-8") as dst:
        for line in src:
            value = json.loads(line)
            for block in (value.get("message") or {}).get("content") or []:
                if isinstance(block, dict) and block.get("type") == "text":
                    block["text"] += CODE
            dst.write(json.dumps(value) + "\n")


def import_seconds(session: Path, patterns: list[str], work: Path) -> float:
    run = work / "run"
    shutil.rmtree(run, ignore_errors=True)
    init_run(run, run_id="bench", task_bytes=b"b", task_source="inline",
             harness={"name": "pi", "version": "0", "model": "m", "provider": "p"},
             created_at="2026-05-01T08:00:00Z", logging={"redaction": {"patterns": patterns}})  # fmt: skip
    began = time.process_time()
    import_session(run, "pi", session)
    return time.process_time() - began


def scrub_seconds(texts: list[str], patterns: list[str]) -> float:
    redactor = Redactor(patterns=patterns)
    redactor._clean.clear()
    began = time.process_time()
    for text in texts:
        redactor.scrub(text)
    return time.process_time() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    assert OLD[0] != NEW[0] and len(OLD) == 12, OLD
    work = Path(tempfile.mkdtemp(prefix="bench-redaction-"))
    try:
        plain, heavy = work / "plain.jsonl", work / "heavy.jsonl"
        write_session(plain, args.calls)
        trigger_heavy(plain, heavy)
        print(f"sessions: {args.calls} calls; plain {plain.stat().st_size / 1e6:.1f} MB, "
              f"trigger-heavy {heavy.stat().st_size / 1e6:.1f} MB")  # fmt: skip
        for label, session in (("plain", plain), ("trigger-heavy", heavy)):
            old = new = float("inf")
            for _ in range(args.repeat):
                old = min(old, import_seconds(session, OLD, work))
                new = min(new, import_seconds(session, NEW, work))
            records = 2 * args.calls + 1
            print(f"import {label:<13}: old rules {old:.2f} s ({records / old:,.0f} rec/s), "
                  f"new rules {new:.2f} s ({records / new:,.0f} rec/s); ratio {new / old:.2f}")  # fmt: skip
        texts = [f"{n}\n{CODE}" for n in range(args.calls)] + [f"echo {n} && ls -la src/" for n in range(args.calls)]
        old = min(scrub_seconds(texts, OLD) for _ in range(args.repeat))
        new = min(scrub_seconds(texts, NEW) for _ in range(args.repeat))
        print(f"scrub {len(texts)} strings (half trigger-heavy): old {old * 1e6 / len(texts):.1f} us/string, "
              f"new {new * 1e6 / len(texts):.1f} us/string; ratio {new / old:.2f}")  # fmt: skip
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
