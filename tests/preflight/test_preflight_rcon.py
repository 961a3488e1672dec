"""Our RCON client: the packet codec, and the client against real servers on loopback."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lab_manager import rcon_session

from pytest_coldstart.preflight.rcon import FRAGMENT, RconAuthError, RconClient, RconError, decode, encode


@given(
    request_id=st.integers(-(2**31), 2**31 - 1),
    packet_type=st.integers(-(2**31), 2**31 - 1),
    body=st.binary(max_size=5000).filter(lambda b: b"\x00" not in b),
)
def test_encode_decode_round_trip(request_id: int, packet_type: int, body: bytes) -> None:
    frame = encode(request_id, packet_type, body)
    (size,) = struct.unpack_from("<i", frame)
    assert size == len(frame) - 4 == len(body) + 10
    packet = decode(frame[4:])
    assert (packet.request_id, packet.type, packet.body) == (request_id, packet_type, body)


def test_the_wire_format_is_the_source_rcon_one() -> None:
    assert encode(7, 3, b"pw") == b"\x0c\x00\x00\x00\x07\x00\x00\x00\x03\x00\x00\x00pw\x00\x00"


@pytest.mark.parametrize(
    ("frame", "problem"), [(b"\x00" * 9, "shorter than the minimum"), (b"\x01" * 12, "two NUL bytes")]
)
def test_malformed_packets_are_refused(frame: bytes, problem: str) -> None:
    with pytest.raises(RconError, match=problem):
        decode(frame)
    with pytest.raises(RconError, match="NUL byte"):
        encode(1, 2, b"a\x00b")


def quiet(*args: object, **kwargs: object) -> None:
    pass


def _packet(request_id: int, kind: int, body: bytes) -> bytes:
    return struct.pack("<iii", len(body) + 10, request_id, kind) + body + b"\0\0"


def _read(conn: socket.socket) -> tuple[int, int, bytes]:
    size = struct.unpack("<i", conn.recv(4, socket.MSG_WAITALL))[0]
    data = conn.recv(size, socket.MSG_WAITALL)
    request_id, kind = struct.unpack("<ii", data[:8])
    return request_id, kind, data[8:-2]


@pytest.fixture
def server() -> Iterator[Callable[[Callable[[socket.socket], None]], int]]:
    """``server(handler)`` serves one connection with ``handler`` on a loopback port."""
    sockets: list[socket.socket] = []

    def start(handler: Callable[[socket.socket], None]) -> int:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        sockets.append(listener)

        def serve() -> None:
            conn, _ = listener.accept()
            with conn:
                handler(conn)

        threading.Thread(target=serve, daemon=True).start()
        return listener.getsockname()[1]

    yield start
    for sock in sockets:
        sock.close()


def test_login_and_command_against_the_test_lab_server(server) -> None:
    port = server(lambda conn: rcon_session(conn, "s3cret", "none", log=quiet))
    with RconClient("127.0.0.1", port, timeout=5) as client:
        client.login("s3cret")
        assert client.command("list") == "There are 0 of a max of 20 players online: "
        assert client.command("time query daytime") == "Unknown command: time query daytime"


def test_a_wrong_password_is_an_auth_error(server) -> None:
    port = server(lambda conn: rcon_session(conn, "s3cret", "none", log=quiet))
    with RconClient("127.0.0.1", port, timeout=5) as client, pytest.raises(RconAuthError):
        client.login("guess")


def source_style_then_split_answer(conn: socket.socket) -> None:
    request_id, _kind, _ = _read(conn)
    conn.sendall(_packet(request_id, 0, b"") + _packet(request_id, 2, b""))  # Source: empty value first
    request_id, _kind, _body = _read(conn)
    answer = b"x" * FRAGMENT + b"tail"
    conn.sendall(_packet(request_id, 0, answer[:FRAGMENT]))
    conn.sendall(_packet(request_id, 0, answer[FRAGMENT:]))
    request_id, _kind, _body = _read(conn)
    conn.sendall(_packet(request_id, 0, b"y" * FRAGMENT))  # exactly one full fragment, nothing after
    conn.recv(1)


def test_source_auth_and_split_answers_are_handled(server) -> None:
    port = server(source_style_then_split_answer)
    with RconClient("127.0.0.1", port, timeout=5) as client:
        client.login("pw")
        assert client.command("big") == "x" * FRAGMENT + "tail"
        assert client.command("exact") == "y" * FRAGMENT


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (struct.pack("<i", 1 << 30), "out of bounds"),
        (b"", "closed the connection"),
        (_packet(99, 2, b""), "auth response for request 99"),
        (_packet(1, 0, b"hello"), "expected an auth response"),
    ],
)
def test_protocol_violations_are_rcon_errors(server, reply: bytes, problem: str) -> None:
    def handler(conn: socket.socket) -> None:
        _read(conn)
        conn.sendall(reply)

    port = server(handler)
    with RconClient("127.0.0.1", port, timeout=5) as client, pytest.raises(RconError, match=problem):
        client.login("pw")


def test_connecting_to_nothing_is_an_rcon_error() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    with pytest.raises(RconError, match="cannot connect"):
        RconClient("127.0.0.1", port, timeout=1).connect()
