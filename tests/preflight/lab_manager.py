#!/usr/bin/env python3
"""A lab manager written for the preflight tests (the real ones provision Minecraft servers).

It follows the lab-manager protocol of docs/preflight.md: ``list --json``, ``provision --name
N --game-port G --rcon-port R``, ``start --name N --wait W``, ``status --name N --json``,
``stop --name N``. ``start`` launches a detached server process that listens on the game port
and serves the Source RCON protocol on the RCON port, implemented here independently of
pytest_coldstart.preflight.rcon (so the client is tested against another implementation).
The RCON password comes from $COLDSTART_RCON_PASSWORD at provision time.

``--misbehave`` makes it fail in one realistic way: list-fails, wrong-password, wrong-port
(the server listens elsewhere than reserved), bad-answer, no-stop.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

LIST_ANSWER = "There are 0 of a max of 20 players online: "


def lab_dir(root: Path, name: str) -> Path:
    return root / name


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (no reaper in a container) is gone for our purposes
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def running_pid(lab: Path) -> int | None:
    pid_file = lab / "server.pid"
    if not pid_file.is_file():
        return None
    pid = int(pid_file.read_text())
    return pid if alive(pid) else None


def cmd_list(args) -> int:
    if args.misbehave == "list-fails":
        print("lab root is unreadable", file=sys.stderr)
        return 3
    root = Path(args.root)
    labs = []
    for info in sorted(root.glob("*/lab.json")):
        lab = json.loads(info.read_text())
        labs.append({"name": lab["name"], "running": running_pid(info.parent) is not None})
    print(json.dumps(labs))
    return 0


def cmd_provision(args) -> int:
    password = os.environ.get("COLDSTART_RCON_PASSWORD")
    if not password:
        print("no RCON password in $COLDSTART_RCON_PASSWORD", file=sys.stderr)
        return 2
    lab = lab_dir(Path(args.root), args.name)
    lab.mkdir(parents=True, exist_ok=True)
    info = {
        "name": args.name,
        "minecraft": "test-1.0",
        "loader": "none",
        "java": args.java,
        "serverPort": args.game_port,
        "rconPort": args.rcon_port,
    }
    (lab / "lab.json").write_text(json.dumps(info))
    (lab / "server.properties").write_text(
        f"server-port={args.game_port}\nenable-rcon=true\nrcon.port={args.rcon_port}\nrcon.password={password}\n"
    )
    print(f"provisioned {args.name} in {lab}")
    print(json.dumps(info))
    return 0


def cmd_start(args) -> int:
    lab = lab_dir(Path(args.root), args.name)
    if not (lab / "lab.json").is_file():
        print(f"no lab {args.name}", file=sys.stderr)
        return 2
    console = lab / "console.log"
    started = time.monotonic()
    with open(console, "wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--root",
                args.root,
                "--misbehave",
                args.misbehave,
                "serve",
                "--name",
                args.name,
            ],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    (lab / "server.pid").write_text(str(process.pid))
    while time.monotonic() - started < args.wait:
        if b"Done (" in console.read_bytes():
            print(f"ready in {time.monotonic() - started:.2f}s")
            print(json.dumps({"console": str(console), "pid": process.pid}))
            return 0
        if process.poll() is not None:
            print(f"server exited with {process.returncode}", file=sys.stderr)
            return 1
        time.sleep(0.02)
    print("server did not become ready", file=sys.stderr)
    return 1


def cmd_status(args) -> int:
    pid = running_pid(lab_dir(Path(args.root), args.name))
    print(json.dumps({"name": args.name, "running": pid is not None, "pid": pid}))
    return 0


def cmd_stop(args) -> int:
    lab = lab_dir(Path(args.root), args.name)
    pid = running_pid(lab)
    if pid is None:
        print("not running")
        return 0
    if args.misbehave == "no-stop":
        print("stopped (not really)")
        return 0
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    if alive(pid):
        print("server did not stop", file=sys.stderr)
        return 1
    (lab / "server.pid").unlink()
    print("stopped")
    return 0


# -- the server ------------------------------------------------------------------------------


def read_exact(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise ConnectionError("client went away")
        data += chunk
    return data


def send_packet(conn: socket.socket, request_id: int, kind: int, body: str) -> None:
    raw = body.encode("utf-8")
    conn.sendall(struct.pack("<iii", len(raw) + 10, request_id, kind) + raw + b"\0\0")


def rcon_session(conn: socket.socket, password: str, misbehave: str, log=print) -> None:
    authed = False
    with conn:
        while True:
            try:
                (length,) = struct.unpack("<i", read_exact(conn, 4))
                packet = read_exact(conn, length)
            except (ConnectionError, OSError):
                return
            request_id, kind = struct.unpack("<ii", packet[:8])
            body = packet[8:-2].decode("utf-8")
            if kind == 3:
                authed = body == password
                send_packet(conn, request_id if authed else -1, 2, "")
                log(f"[RCON] login {'accepted' if authed else 'refused'}", flush=True)
            elif kind == 2 and not authed:
                send_packet(conn, -1, 2, "")
            elif kind == 2:
                answer = LIST_ANSWER if body == "list" and misbehave != "bad-answer" else f"Unknown command: {body}"
                log(f"[RCON] {body!r}", flush=True)
                send_packet(conn, request_id, 0, answer)
            else:
                send_packet(conn, request_id, 0, f"Unknown request {kind:x}")


def cmd_serve(args) -> int:
    lab = lab_dir(Path(args.root), args.name)
    info = json.loads((lab / "lab.json").read_text())
    props = dict(line.split("=", 1) for line in (lab / "server.properties").read_text().splitlines() if "=" in line)
    password = "not-the-password" if args.misbehave == "wrong-password" else props["rcon.password"]
    rcon_port = 0 if args.misbehave == "wrong-port" else info["rconPort"]
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    listeners = []
    for port in (info["serverPort"], rcon_port):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(8)
        listener.settimeout(0.1)
        listeners.append(listener)
    game, rcon = listeners
    print(f"[Server] Starting test server {info['minecraft']} on 127.0.0.1:{info['serverPort']}", flush=True)
    print(f"[Server] RCON running on 127.0.0.1:{rcon.getsockname()[1]}", flush=True)
    print('[Server] Done (0.01s)! For help, type "help"', flush=True)
    while not stop.is_set():
        for listener in listeners:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            if listener is game:
                conn.close()
            else:
                conn.settimeout(None)
                threading.Thread(target=rcon_session, args=(conn, password, args.misbehave), daemon=True).start()
    for listener in listeners:
        listener.close()
    print("[Server] Stopping the server", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="lab_manager")
    parser.add_argument("--root", required=True)
    parser.add_argument(
        "--misbehave",
        default="none",
        choices=("none", "list-fails", "wrong-password", "wrong-port", "bad-answer", "no-stop"),
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_list)
    p = sub.add_parser("provision")
    p.add_argument("--name", required=True)
    p.add_argument("--game-port", type=int, required=True)
    p.add_argument("--rcon-port", type=int, required=True)
    p.add_argument("--java", default="")
    p.set_defaults(handler=cmd_provision)
    p = sub.add_parser("start")
    p.add_argument("--name", required=True)
    p.add_argument("--wait", type=float, default=30)
    p.set_defaults(handler=cmd_start)
    p = sub.add_parser("status")
    p.add_argument("--name", required=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_status)
    p = sub.add_parser("stop")
    p.add_argument("--name", required=True)
    p.set_defaults(handler=cmd_stop)
    p = sub.add_parser("serve")
    p.add_argument("--name", required=True)
    p.set_defaults(handler=cmd_serve)
    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
