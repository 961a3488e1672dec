"""The clean-context rule (seed §3): nothing the agent could see carries the answer.

The visibility snapshot (visibility.json, its copies under visibility/files/) and the task
itself are what the agent was given. A visible file that is a byte copy of the answer or the
oracle document (by the sha256 the snapshot recorded), or whose text holds a cart's uuid
(dashed or not) with that cart's ordered items after or before it (the oracle's carts, and the
answer's) - as it is, or as ``visible_text`` reads it (decompressed, base64-decoded, UTF-16) -
or that carries
every cart's ordered item list in the oracle's order without the uuids (a previous run's answer
or a solution script: the machine is deterministic, the uuids are not), means the session was
handed a standard answer: the run is not a cold start. Class INFRA_ERROR - the
environment contract was broken by the set-up, not by the agent, and no flag can mask it
(docs/protocol.md "Clean context").

Linear in the bytes read: every uuid-shaped token of a file is looked up in a dict of cart
uuids, and only a hit is followed by the ordered item match in a bounded window; the lists
without uuids are matched in one forward pass (each search starts where the last one ended).
"""

from __future__ import annotations

import re
from typing import Any

from pytest_coldstart.audit.evidence.inventory import (
    Item,
    ItemError,
    carts_of,
    items_end,
    items_in_order,
    normalize_items,
)
from pytest_coldstart.audit.evidence.load import Evidence
from pytest_coldstart.audit.model import Findings
from pytest_coldstart.audit.visible_text import readings
from pytest_coldstart.run import jsonio
from pytest_coldstart.run.errors import ColdstartError
from pytest_coldstart.run.layout import TASK_MD, VISIBILITY_JSON, RunDir
from pytest_coldstart.run.paths import resolve_inside

_TOKEN = re.compile(r"[0-9a-z][0-9a-z_-]{7,}")
WINDOW = 4000
MAX_BYTES = 8 * 1024 * 1024  # a copy is at most 5 MiB (larger files are listed without a copy)
LISTED = 10


def _document_carts(evidence: Evidence, name: str) -> Any:
    try:
        return carts_of(evidence.documents.get(name))
    except ItemError:
        return None  # an ambiguous document carries no one list (answer_correct reports it)


def _carts(evidence: Evidence) -> dict[str, list[Item]]:
    out: dict[str, list[Item]] = {}
    for name in ("oracle", "answer"):
        carts = _document_carts(evidence, name)
        for cart in carts if isinstance(carts, list) else ():
            uuid = cart.get("uuid") if isinstance(cart, dict) else None
            if not isinstance(uuid, str) or not uuid.strip():
                continue
            try:
                items = normalize_items(cart.get("items"))
            except ItemError:
                continue
            if items:
                out.setdefault(uuid.strip().lower(), items)
                out.setdefault(uuid.strip().lower().replace("-", ""), items)  # 32 hex digits: the same uuid
    return out


def _lists(evidence: Evidence) -> list[list[Item]]:
    """Every cart's item list, in the oracle's order (the answer's when there is no oracle)."""
    for name in ("oracle", "answer"):
        carts = _document_carts(evidence, name)
        if not isinstance(carts, list) or not carts:
            continue
        try:
            return [normalize_items(cart.get("items")) if isinstance(cart, dict) else [] for cart in carts]
        except ItemError:
            return []
    return []


def carried_lists(text: str, lists: list[list[Item]]) -> bool:
    """Does ``text`` (lowercased) carry every list, each in order, the lists one after another?
    Two items at least in all: one item and a number prove nothing."""
    if sum(len(items) for items in lists) < 2 or any(not items for items in lists):
        return False
    position = 0
    for items in lists:
        end = items_end(items, text, position)
        if end is None:
            return False
        position = end
    return True


def carried_cart(text: str, carts: dict[str, list[Item]]) -> str | None:
    """The uuid of a cart whose uuid and ordered items ``text`` (lowercased) carries: the items
    after the uuid, or before it (a table's row, ``items <- cart uuid``)."""
    for match in _TOKEN.finditer(text):
        items = carts.get(match.group(0))
        if items is None:
            continue
        after = items_in_order(items, text, match.end(), min(len(text), match.end() + WINDOW))
        if after or items_in_order(items, text, max(0, match.start() - WINDOW), match.start()):
            return match.group(0)
    return None


def check_clean_context(rundir: RunDir, evidence: Evidence, findings: Findings) -> None:
    try:
        snapshot = jsonio.read_json(rundir.root / VISIBILITY_JSON)
    except (ColdstartError, OSError, ValueError):
        return  # validate reports an unusable snapshot
    entries = snapshot.get("files") if isinstance(snapshot, dict) else None
    entries = entries if isinstance(entries, list) else []
    copies = {evidence.hashes[name]: name for name in ("answer", "oracle") if name in evidence.hashes}
    carts = _carts(evidence)
    lists = _lists(evidence)
    shown = 0
    files: list[tuple[str, str]] = [(TASK_MD, "the task")]
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        path = str(entry.get("path"))
        if entry.get("sha256") in copies and shown < LISTED:
            findings.infra(
                f"clean context broken: the visible file {path!r} is a byte copy of the {copies[entry['sha256']]} document"
            )
            shown += 1
        if isinstance(entry.get("copy"), str):
            files.append((entry["copy"], f"the visible file {path!r}"))
    if not carts:
        return
    for relative, what in files:
        if shown >= LISTED:
            break
        try:
            target = resolve_inside(rundir.root, relative, what="visible file copy")
            with jsonio.open_regular(target) as handle:
                data = handle.read(MAX_BYTES)
        except (ColdstartError, OSError):
            continue  # validate reports a missing or unsafe copy
        for how, text in readings(data):
            uuid = carried_cart(text, carts)
            if uuid is not None:
                findings.infra(
                    f"clean context broken: {what}{how} carries the answer (cart {uuid} with its ordered items); "
                    "the session was given the answer, so the run is not a cold start"
                )
            elif carried_lists(text, lists):
                findings.infra(
                    f"clean context broken: {what}{how} carries the ordered items of all {len(lists)} cart(s) in "
                    "order, without their uuids (a previous run's answer or a solution script); the session was "
                    "given the answer, so the run is not a cold start"
                )
            else:
                continue
            shown += 1
            break


__all__ = ["carried_cart", "carried_lists", "check_clean_context"]
