"""Redaction on hostile text: time per byte as the text grows, for every rule set a run may carry.

An agent writes the strings the redactor scans (tool arguments, results, imported sessions), so
no shape of them may cost more than linear time. The shapes are generated from the rules
themselves: every trigger literal (the words that wake a rule: ``token``, ``key``, ``://``,
``-----begin`` ...), in both cases, repeated with each separator a name or a value may continue
with, and closed by each tail that may complete a match (an operator and value, ``://``, ``@``,
a quote, ``/.``). Each text is scrubbed at 1x, 4x and 16x a base size by the redactor of today's
default rules and by one carrying every rule earlier versions stored in run.json
(``secret_rules.EARLIER``: runs keep their rules). A term that grows with the product of two
sizes (starts x scan length) shows as ns/byte rising with the size.

    python benchmarks/bench_redaction_shapes.py [--quick]

Goal: at 16x the size, ns/byte at most 2x what it is at 1x, for every shape and rule set.
"""

from __future__ import annotations

import argparse
import sys
import time

from pytest_coldstart.record.redaction import Redactor
from pytest_coldstart.record.secret_rules import EARLIER, RULES

GOAL = 2.0
SEPARATORS = ("", "_", "-", ".", " ", "=", "/", "'", '"', "a", "\\n")
TAILS = ("", "=abcd1234", "://u:p@", "'", "/.")
#: shapes no trigger spells: quotes before assignments (the quote lexer), a key block's lines
EXTRA = (("'", 'password="ab cd" '), ("", "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n"), ("", "a-"), ("", "a:b@"))


def shapes(quick: bool = False) -> list[tuple[str, str, str]]:
    """(head, piece repeated, tail) for every trigger literal, case, separator and tail (quick:
    the separators that continue a name or a value, and the tails that complete a match)."""
    literals = sorted({literal for _, triggers in RULES + EARLIER for literal in triggers})
    separators = SEPARATORS[:7] if quick else SEPARATORS
    tails = TAILS[:3] if quick else TAILS
    out = [(head, piece, "") for head, piece in EXTRA]
    for literal in literals:
        for word in dict.fromkeys((literal, literal.upper())):
            out += [("", word + separator, tail) for separator in separators for tail in tails]
    return out


def _cpu(redactor: Redactor, text: str) -> float:
    redactor._clean.clear()
    began = time.process_time()
    redactor.scrub(text)
    return time.process_time() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a base of 1 KB (else 4 KB), fewer separators and tails")
    args = parser.parse_args()
    base = 1_000 if args.quick else 4_000
    redactors = {"today": Redactor(), "earlier": Redactor(patterns=[pattern for pattern, _ in EARLIER])}
    rows = []
    for name, redactor in redactors.items():
        for head, piece, tail in shapes(args.quick):
            per_byte = []
            for factor in (1, 4, 16):
                text = head + piece * (base * factor // len(piece)) + tail
                # the best of three at the small sizes, where a scheduler's hiccup is a large share
                seconds = min(_cpu(redactor, text) for _ in range(3 if factor < 16 else 1))
                per_byte.append(seconds / len(text) * 1e9)
            rows.append((per_byte[-1] / max(per_byte[0], 1.0), name, head + piece, tail, per_byte))
    rows.sort(reverse=True)
    print(f"{len(rows)} shapes x rule sets; the 12 that grow most (ns/byte at {base:,} B, x4, x16):")
    for growth, name, piece, tail, per_byte in rows[:12]:
        figures = " -> ".join(f"{v:8.1f}" for v in per_byte)
        print(f"{name:<8} {piece[:24]!r:<28} {tail!r:<12} {figures}   {growth:5.2f}x")
    worst = rows[0][0]
    met = worst <= GOAL
    print(f"worst growth {worst:.2f}x of ns/byte over 16x the size (goal <= {GOAL:g}x: {'met' if met else 'MISSED'})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
