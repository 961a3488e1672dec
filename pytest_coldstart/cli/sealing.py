"""``coldstart trace seal``: seal a run and print its anchor; append it to a ledger, sign it.

Stdout: a summary line, then the anchor as one JSON line (``--json``: the anchor line only, so
``> anchor.json`` keeps it). Imports are lazy: ``trace call`` processes load this module too.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ledger", metavar="FILE", help="append the anchor to this ledger (append-only JSONL)")
    parser.add_argument(
        "--key",
        metavar="K",
        help="sign the anchor with this Ed25519 private key (PEM or OpenSSH; needs pytest-coldstart[sign])",
    )
    parser.add_argument("--json", action="store_true", help="print only the anchor (one JSON line)")


def cmd_seal(args: argparse.Namespace) -> int:
    from pytest_coldstart.record import anchor as anchors
    from pytest_coldstart.record.seal import seal_with_anchor

    if args.key:
        from pytest_coldstart.record import signing

        signing.load_private_key(args.key)  # a bad key is refused before the run is sealed
    if args.ledger:
        from pytest_coldstart.record import ledger

        ledger.check_appendable(args.ledger)  # before sealing: a run sealed but not anchored is the worst case
    sealed, anchor = seal_with_anchor(args.run_dir)
    if args.key:
        anchor = signing.sign(anchor, args.key)
    if args.ledger:
        from pytest_coldstart.run.errors import ColdstartError

        try:
            ledger.append(args.ledger, anchor)
        except ColdstartError as exc:
            sys.stdout.write(anchors.one_line(anchor) + "\n")
            raise ColdstartError(
                f"the run is sealed but its anchor (printed above) was not appended: {exc.problem}", args.ledger
            ) from None
    if not args.json:
        where = f"; anchor appended to {args.ledger}" if args.ledger else ""
        sys.stdout.write(
            f"sealed {len(sealed['files'])} files; trajectory {sealed['trajectory']['records']} records, "
            f"head {sealed['trajectory']['head']}{where}\n"
        )
    sys.stdout.write(anchors.one_line(anchor) + "\n")
    return 0
