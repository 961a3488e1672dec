"""Files that are mostly holes: a length nobody paid for.

``truncate -s 1T agent/x`` costs its writer a few bytes of disk and every reader a terabyte of
zeros: hashing it, scanning it for a newline or copying it takes hours. Every run file is
opened through ``jsonio.open_regular``, which refuses one whose holes (ranges never written,
read back as zeros) exceed ``MAX_HOLE_BYTES``, so what a reader spends follows the bytes a
run really stores. Compressed file systems report few blocks for many bytes but no holes: the
holes are asked of the file system (SEEK_DATA/SEEK_HOLE), not inferred from the block count.
"""

from __future__ import annotations

import errno
import os

#: Holes a file may hold before it is refused (a region file or a preallocated log has a few).
MAX_HOLE_BYTES = 64 * 1024 * 1024
_SEEK_DATA = getattr(os, "SEEK_DATA", None)
_SEEK_HOLE = getattr(os, "SEEK_HOLE", None)


def may_have_excess(size: int, blocks: int) -> bool:
    """Whether a file of ``size`` bytes in ``blocks`` 512-byte blocks may hold too many holes."""
    return size > MAX_HOLE_BYTES and blocks * 512 < size - MAX_HOLE_BYTES


def excess_holes(fd: int, size: int, blocks: int) -> int | None:
    """The hole bytes found in the open file ``fd`` once they pass MAX_HOLE_BYTES, else None.

    Cheap where nothing can be wrong: a file no longer than the limit, or one with blocks for
    all but the limit, is never probed. Probing stops at the limit, so a file cut into millions
    of small holes costs at most MAX_HOLE_BYTES / (one block) seeks. Where the file system
    cannot say (no SEEK_DATA, EINVAL), the file is read as it always was."""
    if not may_have_excess(size, blocks) or _SEEK_DATA is None or _SEEK_HOLE is None:
        return None
    holes = offset = 0
    try:
        while offset < size:
            try:
                data = os.lseek(fd, offset, _SEEK_DATA)
            except OSError as exc:
                if exc.errno != errno.ENXIO:  # ENXIO: nothing but a hole from here to the end
                    raise
                data = size
            holes += min(data, size) - offset
            if holes > MAX_HOLE_BYTES:
                return holes
            if data >= size:
                break  # the last hole ran to the end: within the limit
            offset = os.lseek(fd, data, _SEEK_HOLE)
    except OSError:
        return None
    finally:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
        except OSError:
            pass
    return None


def describe(size: int, blocks: int) -> str:
    """Why a file with excess holes is refused (``blocks``: st_blocks, what it really stores)."""
    return (
        f"is a sparse file: {_amount(size)} long but {_amount(blocks * 512)} stored, more than"
        f" {_amount(MAX_HOLE_BYTES)} of it holes never written; refused unread"
    )


def _amount(count: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"
