"""The call parsers on hostile command texts: time per byte as the text grows.

Every agent call's text goes through the write parsers (``shell_writes``: redirects, writers,
nested shells, exec-ers; ``code_writes``: a script's own writes) and the naming of declared
files (``Naming``); every visible file through the item-list match (``carried_lists``). An agent controls that text, so no shape of it may cost more than linear
time. For each hostile shape (many quotes, an unclosed quote, nested shells, eval and xargs
chains, separators, redirects, code writes, globs, braces, escapes, joined literals, command
lines in code, hex, unplaceable cds, nested cds with globs, loops, names made at run time
(loops over listings, substitutions, printed names), names Python code folds from literals
(slices, chr, formats, f-strings, comprehensions), reversals, juxtaposed literals,
interpolations, names a pipe's makers print, item names with the wrong counts, brackets that never
close, a long word with no glob) the text is judged by the cheap look every call gets, by each parser
and by the provenance model as one whole call, and
built at 1x, 4x and 16x a base
size, and the ns per byte of each parser is printed; a term that grows with the product of two
sizes (matches x spans, segments x words) shows as ns/byte rising with the size.

    python benchmarks/bench_parsers.py [--quick]

Goal: at 16x the size, ns/byte at most 2x what it is at 1x, for every shape and parser.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pytest_coldstart.audit.evidence import expansions, folding, provenance, scrambles
from pytest_coldstart.audit.evidence.code_writes import code_writes
from pytest_coldstart.audit.evidence.identity import Workspace
from pytest_coldstart.audit.evidence.inventory import normalize_items
from pytest_coldstart.audit.evidence.naming import Naming
from pytest_coldstart.audit.evidence.shell_writes import shell_writes
from pytest_coldstart.audit.visibility import carried_lists
from pytest_coldstart.run.jsonrule import dumps_line

GOAL = 2.0
#: shape -> (the piece repeated, what closes the text)
SHAPES: dict[str, tuple[str, str]] = {
    "quotes": ("a\"b'c ", ""),
    "unclosed quote": ("a", 'cp x "'),
    "nested shells": ("bash -c ", "cp a oracle.json"),
    "eval chain": ("eval ", "cp a b"),
    "xargs chain": ("xargs ", "cp a b"),
    "separators": ("cp a b; ", ""),
    "redirects": ("> a ", ""),
    "code writes": ("open('x', 'w'); ", "p = 'oracle.json'; open(p, 'w')"),
    "open calls": ("open(", ""),
    "globs": ("cat ora*.json o?acle* ", ""),
    "split names": ('cat "ora""cle.json" ', ""),
    "braces": ("cp a{b,c}/{d,e} ", ""),
    "glob classes": ("cat t[e]st/x ", ""),
    "escapes": ("printf '\\x6f\\162' ", ""),
    "concatenation": ("'ora' + ", "'cle.json'"),
    "joins": ("os.path.join('a', 'b') ", ""),
    "embedded": ("os.system('cp a b') ", ""),
    "nested open": ("open(str(f(", "'x'))), 'w')"),
    "hex": ("bytes.fromhex('6f7261636c65') ", ""),
    "unknown cd": ("cd $X; cp a b; ", "cp a oracle.json"),
    "nested cds": ("cd d; cat f*.json; ", "python3 -c \"import sys; open(sys.argv[1], 'w')\" x"),
    "cds, code": ("cd ../e; python3 -c \"open('o.json', 'w')\"; ", ""),
    "loops": ('for f in test/*; do cp a "$f"; done; ', ""),
    "runtime reads": ('for f in *; do cat "$f"; done; ls | xargs cat; ', ""),
    "substitutions": ("cat $(ls | grep ora) `printf 'o%sacle.json' r` ", ""),
    "printed names": ("echo oracle.json; printf -v f '%s' x; ", "cat $f"),
    "one per segment": ("cat $(ls w); ", ""),  # substitutions x segments was quadratic
    "folded names": ("x = 'ab'[::-1] + chr(111) + '%s' % y; ", "open(x + 'racle.json')"),
    "f-strings": ("f'{x}cle' + ''.join([a, 'b']); ", ""),
    "comprehensions": ("''.join([chr(c) for c in [111, 114, 97]]); ", ""),
    "reversals": ("x.reverse; rev <<< nosj.elcaro; 'ab'.split('').reverse() ", ""),
    "juxtaposed": ('f="a" "b" "c"; print "d" "e"; ', ""),
    "interpolations": ('$x="a"; x="b"; "#{x}${x}" ', ""),
    "makers": ("cat $(rev <<< nosj.elcaro); echo a | tr a b | xargs cat; ", ""),
    "item decoys": ("iron_ingot x1 ", "iron_ingot x5 sand gold_ingot x3"),
    "item near-misses": ("iron_ingot x5 sand x2 ", ""),
    "open brackets": ("[", ""),  # a class hint rescanned to the end from every '['
    "bracket words": ('a[@[|["[', ""),
    "glob-free word": ("a", "\")'"),  # a glob-free word was rescanned from every start, once per cwd
}
#: shape -> what opens its text (the piece repeats inside it)
HEADS = {"glob-free word": "cd x; cd y; python3 -c 'open(\""}
AGENT = {"agent": {"cwd": "/lab/run/workspace", "run_dir": "/lab/run"}}
DECLARED = {"oracle": {"path": "oracle.json"}, "test_mod": {"path": "test/testmod.jsonl"}}
#: the carts whose ordered item lists a visible file or a read may carry (visibility, content)
CARTS = [normalize_items([{"id": "iron_ingot", "count": 5}, {"id": "sand"}, {"id": "gold_ingot", "count": 3}])] * 5


def _best(function: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a base of 2 KB (else 16 KB)")
    args = parser.parse_args()
    base = 2_000 if args.quick else 16_000
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "workspace").mkdir()
        for relative in DECLARED.values():
            (root / relative["path"]).parent.mkdir(parents=True, exist_ok=True)
            (root / relative["path"]).write_text("x", "utf-8")
        ws = Workspace(root, AGENT)
        naming = Naming(ws, {"oracle": {ws.run_key("oracle.json") or "<run>/oracle.json"}}, ("oracle",))
        model = provenance.for_evidence(DECLARED, Workspace(root, AGENT))
        parsers: dict[str, Callable[[str], object]] = {
            # the cheap look every call's arguments get (compact JSON, lowercased)
            "prescan": lambda text: model.may_matter(dumps_line({"command": text}).lower(), "bash"),
            "shell": lambda text: shell_writes(text, ws, None, lambda target: []),
            "code": code_writes,
            "naming": lambda text: naming.names({"command": text}),
            "reading": lambda text: list(expansions.readings(text)),
            "folding": lambda text: list(folding.readings(text)) + list(scrambles.readings(text)),
            "items": lambda text: carried_lists(text.lower(), CARTS),
            # the whole judgement of one call: every parser, the shell session's folders, the globs
            # and listings of code writing a path that is no literal (cds x globs was quadratic)
            "call": lambda text: provenance.for_evidence(DECLARED, Workspace(root, AGENT)).feed(
                "c", "bash", {"command": text}, True
            ),
        }
        worst = 0.0
        print(f"{'shape':<16} {'parser':<7} ns/byte at {base:,} B, x4, x16      growth")
        for shape, (piece, tail) in SHAPES.items():
            for name, parse in parsers.items():
                per_byte = []
                for factor in (1, 4, 16):
                    text = HEADS.get(shape, "") + piece * (base * factor // len(piece)) + tail
                    per_byte.append(_best(lambda text=text, parse=parse: parse(text)) / len(text) * 1e9)
                growth = per_byte[-1] / max(per_byte[0], 1e-9)
                worst = max(worst, growth)
                figures = " -> ".join(f"{v:7.1f}" for v in per_byte)
                print(f"{shape:<16} {name:<7} {figures}   {growth:5.2f}x")
    met = worst <= GOAL
    print(f"worst growth {worst:.2f}x of ns/byte over 16x the size (goal <= {GOAL:g}x: {'met' if met else 'MISSED'})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
