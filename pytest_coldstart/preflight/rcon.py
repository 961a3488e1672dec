"""A minimal client for the Source RCON protocol (as Minecraft servers speak it), over TCP.

Packet: ``int32 size`` (little-endian, bytes that follow) | ``int32 request id`` | ``int32
type`` | body (bytes) | ``\\x00`` | ``\\x00``. Types: 3 = SERVERDATA_AUTH, 2 = AUTH_RESPONSE
(server to client) and EXECCOMMAND (client to server), 0 = RESPONSE_VALUE. A refused login
answers with request id -1. Source servers send an empty RESPONSE_VALUE before the
AUTH_RESPONSE; Minecraft does not; both are handled. Minecraft splits answers longer than
4096 bytes over several packets; they are joined.
"""

from __future__ import annotations

import socket
import struct
from dataclasses import dataclass
from itertools import count

SERVERDATA_AUTH = 3
SERVERDATA_AUTH_RESPONSE = 2
SERVERDATA_EXECCOMMAND = 2
SERVERDATA_RESPONSE_VALUE = 0

#: Minecraft's largest server-to-client body; a full-size fragment means more may follow.
FRAGMENT = 4096
#: Largest packet we accept (a hostile or broken peer cannot make us allocate more).
MAX_PACKET = 1 << 20
#: Largest command body a server accepts (Minecraft: 1446 bytes).
MAX_COMMAND = 1446
#: How long to wait for a further fragment after a full-size one.
CONTINUATION_WAIT = 0.5


class RconError(Exception):
    """Protocol or transport failure."""


class RconAuthError(RconError):
    """The server refused the password."""


@dataclass(frozen=True)
class Packet:
    request_id: int
    type: int
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def encode(request_id: int, packet_type: int, body: bytes) -> bytes:
    if b"\x00" in body:
        raise RconError("an RCON body cannot contain a NUL byte")
    payload = struct.pack("<ii", request_id, packet_type) + body + b"\x00\x00"
    return struct.pack("<i", len(payload)) + payload


def decode(frame: bytes) -> Packet:
    """Decode one packet without its leading size field."""
    if len(frame) < 10:
        raise RconError(f"RCON packet of {len(frame)} bytes is shorter than the minimum 10")
    if not frame.endswith(b"\x00\x00"):
        raise RconError("RCON packet does not end with two NUL bytes")
    request_id, packet_type = struct.unpack_from("<ii", frame)
    return Packet(request_id, packet_type, frame[8:-2])


class RconClient:
    """``with RconClient(host, port) as rcon: rcon.login(pw); print(rcon.command("list"))``."""

    def __init__(self, host: str, port: int, *, timeout: float = 10.0):
        self.host, self.port, self.timeout = host, port, timeout
        self._sock: socket.socket | None = None
        self._ids = count(1)

    def __enter__(self) -> RconClient:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def connect(self) -> None:
        try:
            self._sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
        except OSError as exc:
            raise RconError(f"cannot connect to {self.host}:{self.port}: {exc.strerror or exc}") from None

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def login(self, password: str) -> None:
        request_id = next(self._ids)
        self._send(request_id, SERVERDATA_AUTH, password.encode("utf-8"))
        packet = self._receive()
        if packet.type == SERVERDATA_RESPONSE_VALUE and packet.request_id == request_id and not packet.body:
            packet = self._receive()  # Source servers: one empty value precedes the auth response
        if packet.type != SERVERDATA_AUTH_RESPONSE:
            raise RconError(f"expected an auth response, got packet type {packet.type}")
        if packet.request_id == -1:
            raise RconAuthError("the server refused the RCON password")
        if packet.request_id != request_id:
            raise RconError(f"auth response for request {packet.request_id}, expected {request_id}")

    def command(self, text: str) -> str:
        body = text.encode("utf-8")
        if len(body) > MAX_COMMAND:
            raise RconError(f"RCON command of {len(body)} bytes exceeds {MAX_COMMAND}")
        request_id = next(self._ids)
        self._send(request_id, SERVERDATA_EXECCOMMAND, body)
        parts: list[bytes] = []
        while True:
            packet = self._receive()
            if packet.request_id == -1:
                raise RconAuthError("the server says this connection is not authenticated")
            if packet.request_id != request_id or packet.type != SERVERDATA_RESPONSE_VALUE:
                raise RconError(
                    f"unexpected packet (id {packet.request_id}, type {packet.type}) answering request {request_id}"
                )
            parts.append(packet.body)
            if len(packet.body) < FRAGMENT or not self._more_follows():
                return b"".join(parts).decode("utf-8", errors="replace")

    def _more_follows(self) -> bool:
        """After a full-size fragment: is another packet on its way? (An answer of exactly
        4096 bytes is otherwise indistinguishable from a split one.)"""
        assert self._sock is not None
        self._sock.settimeout(CONTINUATION_WAIT)
        try:
            return bool(self._sock.recv(1, socket.MSG_PEEK))
        except TimeoutError:
            return False
        except OSError:
            return False
        finally:
            self._sock.settimeout(self.timeout)

    def _send(self, request_id: int, packet_type: int, body: bytes) -> None:
        if self._sock is None:
            raise RconError("not connected")
        try:
            self._sock.sendall(encode(request_id, packet_type, body))
        except OSError as exc:
            raise RconError(f"send failed: {exc.strerror or exc}") from None

    def _receive(self) -> Packet:
        size = struct.unpack("<i", self._read(4))[0]
        if not 10 <= size <= MAX_PACKET:
            raise RconError(f"RCON packet size {size} is out of bounds (10..{MAX_PACKET})")
        return decode(self._read(size))

    def _read(self, n: int) -> bytes:
        if self._sock is None:
            raise RconError("not connected")
        chunks, remaining = [], n
        while remaining:
            try:
                chunk = self._sock.recv(remaining)
            except OSError as exc:
                raise RconError(f"receive failed: {exc.strerror or exc}") from None
            if not chunk:
                raise RconError("the server closed the connection")
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)
