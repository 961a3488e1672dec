#!/usr/bin/env python3
"""A bridge smoke written for the preflight tests: a fake mod on the mod port, a bridge on the
API port that forwards to it, and a client that sends a nonce through both (real sockets).

Prints ``[smoke] OK`` and exits 0 when the nonce comes back. ``--misbehave fail`` reports a
failure; ``--misbehave hold-port PIDFILE`` succeeds but leaves a child process holding the API
port (its pid is written to PIDFILE so the test can end it).
"""

from __future__ import annotations

import argparse
import secrets
import socket
import subprocess
import sys
import threading
import time

HOLD = (
    "import socket,time;s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);"
    "s.bind(('127.0.0.1',{port}));s.listen();time.sleep(60)"
)


def serve(port: int, handle) -> socket.socket:
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(4)

    def loop() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                line = conn.makefile("rb").readline()
                conn.sendall(handle(line))

    threading.Thread(target=loop, daemon=True).start()
    return listener


def forward(mod_port: int, timeout: float):
    def handle(line: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", mod_port), timeout=timeout) as upstream:
            upstream.sendall(line)
            return upstream.makefile("rb").readline()

    return handle


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--api-port", type=int, required=True)
    parser.add_argument("--mod-port", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=10)
    parser.add_argument("--backend", default="echo", help="accepted like the reference smoke (only echo exists)")
    parser.add_argument("--misbehave", nargs="*", default=[])
    args = parser.parse_args()
    if args.misbehave[:1] == ["fail"]:
        print("[smoke] FAILED: the fake mod never answered")
        return 1
    mod = serve(args.mod_port, lambda line: b"mod:" + line)
    api = serve(args.api_port, forward(args.mod_port, args.timeout))
    nonce = f"ping {secrets.token_hex(4)}\n".encode()
    with socket.create_connection(("127.0.0.1", args.api_port), timeout=args.timeout) as client:
        client.sendall(nonce)
        answer = client.makefile("rb").readline()
    for listener in (api, mod):
        listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() thread; close() alone would not
        listener.close()
    if answer != b"mod:" + nonce:
        print(f"[smoke] FAILED: got {answer!r}")
        return 1
    print(f"bridge on {args.api_port} -> mod on {args.mod_port}: {answer.decode().strip()}")
    if args.misbehave[:1] == ["hold-port"]:
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLD.format(port=args.api_port)],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        with open(args.misbehave[1], "w") as handle:
            handle.write(str(holder.pid))
        for _ in range(500):  # wait until the holder has bound the port
            try:
                socket.create_connection(("127.0.0.1", args.api_port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.02)
    print("[smoke] OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
