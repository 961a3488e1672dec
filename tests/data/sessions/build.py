"""Writes the in-repository harness session samples and their expected-<name>.json.

The samples are ours: composed for this project from the documented session formats
(docs/importers.md; pi session files v1/v3, Claude Code project transcripts, Codex CLI
rollouts), not copied from any real session. Each sample is described once, as the calls a
harness made (id, tool, arguments, status, times, result text) plus the lines around them; this
script renders the lines in the harness's own format and writes the expected import (which
line holds which call, which result) from the same description. The importers never run here,
so the expected files are an independent statement of what an import must produce.

    python tests/data/sessions/build.py      # rewrites the files beside this script

``tests/importers/test_import_samples.py`` checks that the committed files are what this script
writes, and that every importer reproduces its expected file exactly.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SAMPLES = ("pi-v3-basic", "pi-v3-branched", "pi-v1-legacy", "claude-code-basic", "codex-rollout-basic")


def _t(start: str, seconds: float) -> str:
    moment = datetime.fromisoformat(start.replace("Z", "+00:00")) + timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _ms(at: str) -> int:
    return int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


def _span(a: str, b: str) -> int:
    return _ms(b) - _ms(a)


class Sample:
    """Lines of one session file and the expected calls, filled in file order."""

    def __init__(self, name: str, start: str) -> None:
        self.name, self.start = name, start
        self.lines: list[dict[str, Any]] = []
        self.calls: dict[str, dict[str, Any]] = {}
        self.order: list[str] = []

    def at(self, seconds: float) -> str:
        return _t(self.start, seconds)

    def add(self, line: dict[str, Any]) -> int:
        self.lines.append(line)
        return len(self.lines)

    def call(self, call_id: str, tool: str, arguments: dict[str, Any], at: str, line: int) -> None:
        self.calls[call_id] = {
            "call_id": call_id,
            "tool": tool,
            "arguments": arguments,
            "status": "open",
            "call_at": at,
            "result_at": None,
            "result_text": None,
            "source": {"call_line": line, "result_line": None},
        }
        self.order.append(call_id)

    def result(self, call_id: str, status: str, text: str, at: str, line: int, **extra: Any) -> None:
        call = self.calls[call_id]
        call.update(status=status, result_at=at, result_text=text, **extra)
        call["duration_ms"] = _span(call["call_at"], at)
        call["source"]["result_line"] = line

    def expected_calls(self, ids: list[str] | None = None) -> list[dict[str, Any]]:
        out = []
        for call_id in ids if ids is not None else self.order:
            call = dict(self.calls[call_id])
            if call["result_at"] is None:
                call["duration_ms"] = None
            out.append(call)
        return out

    def text(self) -> str:
        return "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in self.lines)


# ---------------------------------------------------------------- pi


def _pi_usage(out: int) -> dict[str, Any]:
    return {"input": 4, "output": out, "cacheRead": 9000, "cacheWrite": 500, "totalTokens": 9504 + out}


class Pi(Sample):
    def __init__(self, name: str, start: str, *, v1: bool, provider: str, model: str) -> None:
        super().__init__(name, start)
        self.v1, self.provider, self.model = v1, provider, model
        self.parent: str | None = None
        self.counter = 0

    def entry(self, kind: str, seconds: float, **fields: Any) -> tuple[int, str]:
        at = self.at(seconds)
        line: dict[str, Any] = {"type": kind}
        entry_id = ""
        if not self.v1:
            self.counter += 1
            entry_id = f"{(0x4C7A10 + self.counter * 0x1F3D5) & 0xFFFFFFFF:08x}"
            line.update(id=entry_id, parentId=fields.pop("parent", self.parent))
            self.parent = entry_id
        line["timestamp"] = at
        line.update(fields)
        return self.add(line), entry_id

    def message(self, seconds: float, message: dict[str, Any], **fields: Any) -> tuple[int, str]:
        message.setdefault("timestamp", _ms(self.at(seconds)) - 2)
        return self.entry("message", seconds, message=message, **fields)

    def user(self, seconds: float, text: str, **fields: Any) -> tuple[int, str]:
        return self.message(seconds, {"role": "user", "content": [{"type": "text", "text": text}]}, **fields)

    def assistant(self, seconds: float, calls: list[tuple[str, str, dict[str, Any]]], text: str = "") -> int:
        content: list[dict[str, Any]] = [{"type": "toolCall", "id": i, "name": n, "arguments": a} for i, n, a in calls]
        if text:
            content.insert(0, {"type": "text", "text": text})
        message = {
            "role": "assistant",
            "content": content,
            "api": "anthropic-messages" if self.provider == "anthropic" else "openai-responses",
            "provider": self.provider,
            "model": self.model,
            "usage": _pi_usage(40 * len(content)),
            "stopReason": "toolUse" if calls else "stop",
        }
        line, _ = self.message(seconds, message)
        for call_id, tool, arguments in calls:
            self.call(call_id, tool, arguments, self.at(seconds), line)
        return line

    def tool_result(self, seconds: float, call_id: str, text: str, *, error: bool = False) -> int:
        tool = self.calls[call_id]["tool"]
        message = {
            "role": "toolResult",
            "toolCallId": call_id,
            "toolName": tool,
            "content": [{"type": "text", "text": text}],
            "details": {},
            "isError": error,
        }
        line, _ = self.message(seconds, message)
        self.result(call_id, "error" if error else "ok", text, self.at(seconds), line)
        return line

    def header(self, session_id: str, cwd: str, **extra: Any) -> None:
        line: dict[str, Any] = {"type": "session"}
        if not self.v1:
            line["version"] = 3
        line.update(id=session_id, timestamp=self.start, cwd=cwd, **extra)
        self.add(line)

    def session(self) -> dict[str, Any]:
        header = self.lines[0]
        return {
            "id": header["id"],
            "cwd": header["cwd"],
            "started_at": header["timestamp"],
            "last_entry_at": self.lines[-1]["timestamp"],
        }


PI_RULES = {
    "call_at": "timestamp of the message entry holding the assistant message with the toolCall block",
    "result_at": "timestamp of the message entry holding the toolResult whose toolCallId matches",
    "status": "toolResult.isError false -> ok, true -> error; no toolResult on the active branch -> open",
    "duration_ms": "result_at - call_at (the batch time for calls issued together)",
    "result_text": "text blocks of toolResult.content joined",
    "source lines": "1-based line numbers in the sample (line 1 is the session header)",
}


def pi_v3_basic() -> dict[str, Any]:
    s = Pi("pi-v3-basic", "2026-10-20T08:30:00.250Z", v1=False, provider="anthropic", model="claude-sonnet-4-5")
    s.header("019a3c71-5e2b-7c40-8d1f-3b6a9e2c4d57", "/home/dev/wordcount")
    s.entry("model_change", 0.03, provider="anthropic", modelId="claude-sonnet-4-5")
    s.entry("thinking_level_change", 0.031, thinkingLevel="low")
    shell = "git log --oneline -3"
    bash_line, _ = s.message(
        9.5,
        {
            "role": "bashExecution",
            "command": shell,
            "output": "a1b2c3d count words\n",
            "exitCode": 0,
            "cancelled": False,
            "truncated": False,
        },
    )
    s.entry("session_info", 12.0, name="wc --lines")
    s.user(20.0, "Add a --lines option to tools/wc.py that counts lines instead of words; keep the tests green.")
    s.assistant(
        25.1,
        [
            ("toolu_01WcLs4Tq8Bn2Rm6Hv9Kx3Pd", "bash", {"command": "ls tools tests"}),
            ("toolu_01WcRd7Jp3Yc5Nf1Lq8Zs2Ge", "read", {"path": "tools/wc.py"}),
        ],
        "Looking at the tool and its tests first.",
    )
    s.tool_result(25.31, "toolu_01WcLs4Tq8Bn2Rm6Hv9Kx3Pd", "tests:\ntest_wc.py\n\ntools:\nwc.py\n")
    source = "import sys\n\n\ndef main(argv):\n    text = open(argv[1]).read()\n    print(len(text.split()))\n"
    s.tool_result(25.312, "toolu_01WcRd7Jp3Yc5Nf1Lq8Zs2Ge", source)
    s.assistant(
        31.0,
        [
            (
                "toolu_01WcWr2Hs6Dv9Kp4Mb7Tn1Qa",
                "write",
                {"path": "tools/modes.py", "content": 'MODES = ("words", "lines")\n'},
            )
        ],
    )
    s.tool_result(31.02, "toolu_01WcWr2Hs6Dv9Kp4Mb7Tn1Qa", "Successfully wrote 27 bytes to tools/modes.py")
    edits = [
        {"oldText": "import sys\n", "newText": "import sys\n\nfrom tools.modes import MODES\n"},
        {
            "oldText": "    print(len(text.split()))\n",
            "newText": "    lines = '--lines' in argv\n    print(len(text.splitlines()) if lines else len(text.split()))\n",
        },
    ]
    s.assistant(38.4, [("toolu_01WcEd5Rx1Gk8Vw3Nc6Jy9Lb", "edit", {"path": "tools/wc.py", "edits": edits})])
    s.tool_result(38.43, "toolu_01WcEd5Rx1Gk8Vw3Nc6Jy9Lb", "Successfully replaced 2 block(s) in tools/wc.py.")
    s.assistant(44.0, [("toolu_01WcPt9Fm2Qz6Xd4Hr8Bs1Kv", "bash", {"command": "python -m pytest -q tests"})])
    failed = "F.                                                                       [100%]\n1 failed, 1 passed in 0.04s\n\n\nCommand exited with code 1"
    s.tool_result(45.9, "toolu_01WcPt9Fm2Qz6Xd4Hr8Bs1Kv", failed, error=True)
    s.assistant(52.7, [("toolu_01WcPt3Lh7Nq2Vb5Cx8Dg4Ms", "bash", {"command": "python -m pytest -q tests -x -vv"})])
    return {
        "sample": "pi-v3-basic.jsonl",
        "harness": "pi",
        "format": "pi session file, header version 3 (tree entries with id/parentId)",
        "session": s.session(),
        "rules": PI_RULES,
        "calls": s.expected_calls(),
        "not_calls": [{"line": bash_line, "kind": "bashExecution", "command": shell, "actor": "operator"}],
        "_text": s.text(),
    }


def pi_v3_branched() -> dict[str, Any]:
    s = Pi("pi-v3-branched", "2026-11-10T14:05:00.100Z", v1=False, provider="openai", model="gpt-5.1-codex")
    s.header("019a6e02-7b31-7d84-a2c9-5e0f1d8b3a64", "/home/dev/stats")
    s.entry("model_change", 0.02, provider="openai", modelId="gpt-5.1-codex")
    s.entry("thinking_level_change", 0.021, thinkingLevel="medium")
    s.user(6.0, "stats/median.py returns the wrong median for even-length lists. Fix it.")
    first = "call_Md1Rd8Kq2Wz5|fc_0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d"
    s.assistant(10.0, [(first, "read", {"path": "stats/median.py"})])
    code = "def median(xs):\n    xs = sorted(xs)\n    return xs[len(xs) // 2]\n"
    s.tool_result(10.05, first, code)
    branch_point = s.parent
    dropped_edit = "call_Md2Ed4Np7Xc1|fc_1b2c3d4e5f60718293a4b5c6d7e8f901"
    s.assistant(
        15.0,
        [
            (
                dropped_edit,
                "edit",
                {
                    "path": "stats/median.py",
                    "edits": [
                        {
                            "oldText": "    xs = sorted(xs)\n",
                            "newText": "    import numpy\n    return float(numpy.median(xs))\n",
                        }
                    ],
                },
            )
        ],
    )
    s.tool_result(15.03, dropped_edit, "Successfully replaced 1 block(s) in stats/median.py.")
    dropped_test = "call_Md3Ts6Bh9Yv2|fc_2c3d4e5f6071829304b5c6d7e8f9a012"
    s.assistant(20.0, [(dropped_test, "bash", {"command": "python -m pytest -q"})])
    s.tool_result(
        21.5, dropped_test, "ModuleNotFoundError: No module named 'numpy'\n\n\nCommand exited with code 2", error=True
    )
    abandoned = [dropped_edit, dropped_test]
    s.entry(
        "branch_summary", 40.0, parent=branch_point, fromId=branch_point, summary="Tried numpy: not installed here."
    )
    s.user(45.0, "No numpy. Average the two middle values by hand.")
    fix = "call_Md4Ed1Fs3Gt8|fc_3d4e5f607182930415c6d7e8f9a0b123"
    new = "    n = len(xs)\n    mid = n // 2\n    return xs[mid] if n % 2 else (xs[mid - 1] + xs[mid]) / 2\n"
    s.assistant(
        50.0,
        [
            (
                fix,
                "edit",
                {"path": "stats/median.py", "edits": [{"oldText": "    return xs[len(xs) // 2]\n", "newText": new}]},
            )
        ],
    )
    s.tool_result(50.04, fix, "Successfully replaced 1 block(s) in stats/median.py.")
    test = "call_Md5Ts2Kw6Jr4|fc_4e5f60718293041526d7e8f9a0b1c234"
    s.assistant(55.0, [(test, "bash", {"command": "python -m pytest -q"})])
    s.tool_result(
        56.2,
        test,
        "....                                                                     [100%]\n4 passed in 0.02s\n",
    )
    diff = "call_Md6Df5Lp1Qs9|fc_5f6071829304152637e8f9a0b1c2d345"
    s.assistant(60.0, [(diff, "bash", {"command": "git diff --stat"})])
    s.tool_result(60.08, diff, " stats/median.py | 4 +++-\n 1 file changed, 3 insertions(+), 1 deletion(-)\n")
    s.assistant(63.0, [], "Fixed: even-length lists now average the two middle values.")
    last = s.parent
    s.entry("label", 70.0, targetId=last, label="median fixed")
    active = [first, fix, test, diff]
    return {
        "sample": "pi-v3-branched.jsonl",
        "harness": "pi",
        "format": "pi session file, header version 3, with an abandoned branch (branch_summary)",
        "session": s.session(),
        "rules": {**PI_RULES, "branch": "active branch = last entry and its parentId chain; the rest is abandoned"},
        "calls": s.expected_calls(active),
        "abandoned_branch_calls": s.expected_calls(abandoned),
        "_text": s.text(),
    }


def pi_v1_legacy() -> dict[str, Any]:
    s = Pi("pi-v1-legacy", "2026-01-05T11:00:00.500Z", v1=True, provider="anthropic", model="claude-sonnet-4-5")
    s.header(
        "7d2e9a41-3c58-4b1f-9e60-a8c4d2f7b135",
        "/home/dev/todo",
        provider="anthropic",
        modelId="claude-sonnet-4-5",
        thinkingLevel="off",
    )
    s.user(3.0, "todo list --done crashes when nothing is done yet. Fix it.")
    ids = [
        f"toolu_01Td{n}{tag}"
        for n, tag in enumerate(
            [
                "Rp5Xk2Lm8Qw4Zc7Vb1Nh3Js",
                "Cx3Hv9Fd1Ks6Gy2Tm8Wq5Le",
                "Ed7Mb4Pz2Vn9Rc5Jx1Lk8Hs",
                "Ed2Qw6Ts3Bn8Yh1Fk4Mz7Gc",
                "Wr9Lc1Dx5Hp8Vs3Kq6Nb2Jt",
                "Sk4Zt7Mq1Xw5Cr9Bd2Hv6Ly",
                "Rd6Bf3Nk8Qs1Wt4Lm9Xc2Jp",
                "Ts1Vh8Kd4Mz6Rq2Yx5Gb9Nf",
            ],
            1,
        )
    ]
    s.assistant(7.0, [(ids[0], "read", {"path": "todo/cli.py"})])
    s.tool_result(7.02, ids[0], "def list_done(items):\n    return max(i.done_at for i in items)\n")
    s.assistant(12.0, [(ids[1], "bash", {"command": "python -m todo list --done"})])
    s.tool_result(12.4, ids[1], "ValueError: max() arg is an empty sequence\n")
    s.assistant(
        18.0,
        [
            (
                ids[2],
                "edit",
                {
                    "path": "todo/cli.py",
                    "oldText": "    return max(i.done_at for i in item)\n",
                    "newText": "    return max((i.done_at for i in items), default=None)\n",
                },
            )
        ],
    )
    s.tool_result(
        18.01,
        ids[2],
        "Could not find the exact text in todo/cli.py. The old text must match exactly including all whitespace and newlines.",
        error=True,
    )
    s.assistant(
        22.0,
        [
            (
                ids[3],
                "edit",
                {
                    "path": "todo/cli.py",
                    "oldText": "    return max(i.done_at for i in items)\n",
                    "newText": "    return max((i.done_at for i in items), default=None)\n",
                },
            )
        ],
    )
    s.tool_result(22.02, ids[3], "Successfully replaced text in todo/cli.py. Changed 41 characters to 57 characters.")
    s.assistant(
        27.0,
        [
            (
                ids[4],
                "write",
                {
                    "path": "tests/test_empty.py",
                    "content": "from todo.cli import list_done\n\n\ndef test_empty():\n    assert list_done([]) is None\n",
                },
            ),
            (ids[5], "bash", {"command": "python -m pytest -q"}),
        ],
    )
    s.tool_result(27.03, ids[4], "Successfully wrote 82 bytes to tests/test_empty.py")
    s.tool_result(27.04, ids[5], "Skipped due to queued user message.", error=True)
    s.calls[ids[5]]["executed"] = False
    s.user(27.5, "Also print 'nothing done yet' instead of None.")
    s.entry(
        "compaction",
        40.0,
        summary="Fixed the empty max(); the user wants a message for the empty case.",
        firstKeptEntryIndex=9,
        tokensBefore=18000,
    )
    s.entry("thinking_level_change", 41.0, thinkingLevel="low")
    s.assistant(45.0, [(ids[6], "read", {"path": "todo/__main__.py"})])
    s.tool_result(45.01, ids[6], "from todo.cli import main\n\nmain()\n")
    s.assistant(55.0, [(ids[7], "bash", {"command": "python -m pytest -q"})])
    s.tool_result(
        56.1,
        ids[7],
        "...                                                                      [100%]\n3 passed in 0.03s\n",
    )
    s.assistant(60.0, [], "Done: the empty case no longer crashes.")
    return {
        "sample": "pi-v1-legacy.jsonl",
        "harness": "pi",
        "format": "pi session file, legacy version 1 (no version in the header, no id/parentId)",
        "session": s.session(),
        "rules": {
            **PI_RULES,
            "skipped": "'Skipped due to queued user message.' results are errors that never executed",
        },
        "calls": s.expected_calls(),
        "_text": s.text(),
    }


# ---------------------------------------------------------------- Claude Code


class Claude(Sample):
    SESSION = "8e41c3b7-2d95-4a06-b7f1-63c0e9a2d548"
    CWD = "/home/dev/wordcount"

    def __init__(self) -> None:
        super().__init__("claude-code-basic", "2026-08-25T10:15:00.000Z")
        self.parent: str | None = None
        self.n = 0

    def line(self, kind: str, seconds: float, **fields: Any) -> int:
        self.n += 1
        uuid = f"{0x5A3C0000 + self.n * 0x10F1:08x}-{self.n:04x}-4c1e-9b2d-{0x7E40A1C2D300 + self.n:012x}"
        line = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.CWD,
            "sessionId": self.SESSION,
            "version": "2.1.90",
            "gitBranch": "main",
            "type": kind,
            **fields,
            "uuid": uuid,
            "timestamp": self.at(seconds),
        }
        self.parent = uuid
        return self.add(line)

    def assistant(self, seconds: float, message_id: str, block: dict[str, Any]) -> int:
        message = {
            "model": "claude-sonnet-4-6",
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "content": [block],
            "stop_reason": None,
            "usage": {"input_tokens": 4, "output_tokens": 60},
        }
        line = self.line("assistant", seconds, message=message)
        if block["type"] == "tool_use":
            self.call(block["id"], block["name"], block["input"], self.at(seconds), line)
        return line

    def tool_result(self, seconds: float, call_id: str, text: str, *, error: bool = False) -> int:
        block: dict[str, Any] = {"tool_use_id": call_id, "type": "tool_result", "content": text}
        if error:
            block["is_error"] = True
        line = self.line("user", seconds, message={"role": "user", "content": [block]})
        self.result(call_id, "error" if error else "ok", text, self.at(seconds), line)
        return line


def claude_code_basic() -> dict[str, Any]:
    s = Claude()
    s.add({"type": "summary", "summary": "Count lines in wc", "leafUuid": "00000000-0000-4000-8000-000000000000"})
    s.line(
        "user", 0.0, message={"role": "user", "content": "Add a --lines option to tools/wc.py; keep the tests green."}
    )
    s.assistant(
        3.0, "msg_01Wc1Aa", {"type": "thinking", "thinking": "Read the tool first.", "signature": "c2lnbmF0dXJl"}
    )
    s.assistant(3.1, "msg_01Wc1Aa", {"type": "text", "text": "Let me look at the tool."})
    s.assistant(
        3.2,
        "msg_01Wc1Aa",
        {
            "type": "tool_use",
            "id": "toolu_01CcLs8Vd2Kq",
            "name": "Bash",
            "input": {"command": "ls tools tests", "description": "List files"},
        },
    )
    s.tool_result(3.5, "toolu_01CcLs8Vd2Kq", "tests:\ntest_wc.py\n\ntools:\nwc.py")
    s.assistant(
        6.0,
        "msg_01Wc2Bb",
        {
            "type": "tool_use",
            "id": "toolu_01CcRd3Hw7Np",
            "name": "Read",
            "input": {"file_path": f"{s.CWD}/tools/wc.py"},
        },
    )
    s.tool_result(
        6.05, "toolu_01CcRd3Hw7Np", "     1→import sys\n     2→print(len(open(sys.argv[1]).read().split()))\n"
    )
    s.assistant(11.0, "msg_01Wc3Cc", {"type": "text", "text": "Adding a modes module and the option."})
    s.assistant(
        11.2,
        "msg_01Wc3Cc",
        {
            "type": "tool_use",
            "id": "toolu_01CcWr6Tb1Lm",
            "name": "Write",
            "input": {"file_path": f"{s.CWD}/tools/modes.py", "content": 'MODES = ("words", "lines")\n'},
        },
    )
    s.assistant(
        11.3,
        "msg_01Wc3Cc",
        {
            "type": "tool_use",
            "id": "toolu_01CcEd9Fs4Qx",
            "name": "Edit",
            "input": {
                "file_path": f"{s.CWD}/tools/wc.py",
                "old_string": "import sys\n",
                "new_string": "import sys\nfrom tools.modes import MODES\n",
                "replace_all": False,
            },
        },
    )
    s.tool_result(11.5, "toolu_01CcWr6Tb1Lm", f"File created successfully at: {s.CWD}/tools/modes.py")
    s.tool_result(11.6, "toolu_01CcEd9Fs4Qx", f"The file {s.CWD}/tools/wc.py has been updated.")
    s.assistant(
        16.0,
        "msg_01Wc4Dd",
        {
            "type": "tool_use",
            "id": "toolu_01CcPt2Gy5Rv",
            "name": "Bash",
            "input": {"command": "python -m pytest -q tests", "description": "Run the tests"},
        },
    )
    s.tool_result(17.8, "toolu_01CcPt2Gy5Rv", "Exit code 1\nF.\n1 failed, 1 passed in 0.04s", error=True)
    s.assistant(21.0, "msg_01Wc5Ee", {"type": "text", "text": "One test fails; running it verbosely."})
    s.assistant(
        21.2,
        "msg_01Wc5Ee",
        {
            "type": "tool_use",
            "id": "toolu_01CcPt7Jn3Wz",
            "name": "Bash",
            "input": {"command": "python -m pytest -q tests -x -vv", "description": "Re-run verbosely"},
        },
    )
    open_id = "toolu_01CcPt7Jn3Wz"
    for seconds in (24.2, 27.2):
        s.line(
            "progress",
            seconds,
            data={"type": "bash_progress", "output": "", "elapsedTimeSeconds": int(seconds - 21)},
            toolUseID=open_id,
            parentToolUseID=open_id,
        )
    first = s.lines[1]["timestamp"]
    return {
        "sample": "claude-code-basic.jsonl",
        "harness": "claude-code",
        "format": "Claude Code project transcript (CLI 2.1.x)",
        "session": {
            "id": s.SESSION,
            "cwd": s.CWD,
            "cli_version": "2.1.90",
            "first_entry_at": first,
            "last_entry_at": s.lines[-1]["timestamp"],
        },
        "rules": {
            "call_at": "timestamp of the assistant line holding the tool_use block",
            "result_at": "timestamp of the user line holding the tool_result block",
            "status": "is_error true -> error, absent/false -> ok, no tool_result -> open",
        },
        "calls": s.expected_calls(),
        "not_calls": [
            {"line": 1, "kind": "summary"},
            {"line": 18, "kind": "progress"},
            {"line": 19, "kind": "progress"},
        ],
        "_text": s.text(),
    }


# ---------------------------------------------------------------- Codex


class Codex(Sample):
    def __init__(self) -> None:
        super().__init__("codex-rollout-basic", "2026-03-16T09:40:00.200Z")

    def line(self, seconds: float, kind: str, payload: dict[str, Any]) -> int:
        return self.add({"timestamp": self.at(seconds), "type": kind, "payload": payload})

    def function(self, seconds: float, call_id: str, name: str, arguments: dict[str, Any]) -> None:
        raw = json.dumps(arguments, separators=(",", ":"))
        line = self.line(
            seconds, "response_item", {"type": "function_call", "name": name, "arguments": raw, "call_id": call_id}
        )
        self.call(call_id, name, arguments, self.at(seconds), line)

    def custom(self, seconds: float, call_id: str, name: str, text: str) -> None:
        payload = {"type": "custom_tool_call", "status": "completed", "call_id": call_id, "name": name, "input": text}
        line = self.line(seconds, "response_item", payload)
        self.call(call_id, name, {"input": text}, self.at(seconds), line)

    def output(
        self, seconds: float, call_id: str, text: str, *, custom: bool = False, status: str = "ok", **extra: Any
    ) -> None:
        kind = "custom_tool_call_output" if custom else "function_call_output"
        line = self.line(seconds, "response_item", {"type": kind, "call_id": call_id, "output": text})
        self.result(call_id, status, text, self.at(seconds), line, **extra)

    def tokens(self, seconds: float, total: int) -> None:
        usage = {
            "input_tokens": total - 100,
            "cached_input_tokens": 0,
            "output_tokens": 100,
            "reasoning_output_tokens": 20,
            "total_tokens": total,
        }
        self.line(
            seconds,
            "event_msg",
            {
                "type": "token_count",
                "info": {"total_token_usage": usage, "last_token_usage": usage, "model_context_window": 258400},
            },
        )


def _exec(code: int, text: str) -> str:
    return f"Chunk ID: 4d{code}e1\nWall time: 0.0400 seconds\nProcess exited with code {code}\nOriginal token count: 12\nOutput:\n{text}"


def codex_rollout_basic() -> dict[str, Any]:
    s = Codex()
    meta = {
        "id": "019ce4a0-1f6b-7a32-9c85-2d7e0b4f6a19",
        "timestamp": s.at(0.0),
        "cwd": "/home/dev/invoice",
        "originator": "codex-tui",
        "cli_version": "0.111.0",
        "source": "cli",
        "model_provider": "openai",
        "base_instructions": {"text": "You are a coding agent. (instructions elided in this sample)"},
    }
    s.line(0.01, "session_meta", meta)
    s.line(
        4.0,
        "turn_context",
        {
            "cwd": "/home/dev/invoice",
            "approval_policy": "on-request",
            "sandbox_policy": {"type": "workspace-write"},
            "model": "gpt-5.3-codex",
            "effort": "medium",
            "summary": "auto",
        },
    )
    task = "Invoice totals are off by one cent on some inputs. Find the rounding bug, fix it and run the tests."
    s.line(
        4.01, "response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": task}]}
    )
    s.line(4.02, "event_msg", {"type": "user_message", "message": task, "images": []})
    s.line(
        8.0,
        "response_item",
        {
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": "**Finding the rounding**"}],
            "content": None,
            "encrypted_content": "gAAAAB-sample-only==",
        },
    )
    s.function(
        8.5,
        "call_Iv1Gr7Kd2Mx9Qp4Tz6Bn3Ws",
        "exec_command",
        {"cmd": "rg -n round invoice", "workdir": "/home/dev/invoice"},
    )
    s.function(
        8.51,
        "call_Iv2Sd5Lh8Rc1Vy3Nk7Fq9Jm",
        "exec_command",
        {"cmd": "sed -n '1,40p' invoice/total.py", "workdir": "/home/dev/invoice"},
    )
    s.output(
        8.6,
        "call_Iv1Gr7Kd2Mx9Qp4Tz6Bn3Ws",
        _exec(0, "invoice/total.py:7:    return round(sum(lines), 2)\n"),
        exit_code=0,
    )
    s.output(
        8.62,
        "call_Iv2Sd5Lh8Rc1Vy3Nk7Fq9Jm",
        _exec(0, "def total(lines):\n    return round(sum(lines), 2)\n"),
        exit_code=0,
    )
    s.tokens(8.7, 6400)
    patch = "*** Begin Patch\n*** Update File: invoice/total.py\n@@\n-    return round(sum(lines), 2)\n+    return float(sum(Decimal(str(x)) for x in lines).quantize(Decimal('0.01'), ROUND_HALF_UP))\n*** End Patch\n"
    s.custom(15.0, "call_Iv3Ap4Zx6Hb2Wd8Lc1Ty5Nr", "apply_patch", patch)
    s.output(
        15.04,
        "call_Iv3Ap4Zx6Hb2Wd8Lc1Ty5Nr",
        '{"output":"Success. Updated the following files:\\nM invoice/total.py\\n","metadata":{"exit_code":0,"duration_seconds":0.0}}',
        custom=True,
        exit_code=0,
    )
    s.function(
        19.0,
        "call_Iv4Ts9Ck3Mv7Rg1Jx5Dp8Lh",
        "exec_command",
        {"cmd": "python -m pytest -q", "workdir": "/home/dev/invoice"},
    )
    s.output(
        20.5,
        "call_Iv4Ts9Ck3Mv7Rg1Jx5Dp8Lh",
        _exec(1, "NameError: name 'Decimal' is not defined\n"),
        status="error",
        exit_code=1,
    )
    s.tokens(20.6, 13200)
    plan = {
        "plan": [{"step": "Import Decimal", "status": "in_progress"}, {"step": "Run the tests", "status": "pending"}]
    }
    s.function(24.0, "call_Iv5Pl2Wq8Fn4Kb6Yt1Gs3Mc", "update_plan", plan)
    s.output(24.01, "call_Iv5Pl2Wq8Fn4Kb6Yt1Gs3Mc", "Plan updated")
    patch2 = "*** Begin Patch\n*** Update File: invoice/total.py\n@@\n+from decimal import ROUND_HALF_UP, Decimal\n*** End Patch\n"
    s.custom(28.0, "call_Iv6Ap7Rd1Xs5Hm9Vc3Qk2Bz", "apply_patch", patch2)
    s.output(
        28.03,
        "call_Iv6Ap7Rd1Xs5Hm9Vc3Qk2Bz",
        '{"output":"Success. Updated the following files:\\nM invoice/total.py\\n","metadata":{"exit_code":0,"duration_seconds":0.0}}',
        custom=True,
        exit_code=0,
    )
    s.line(31.0, "event_msg", {"type": "agent_message", "message": "Decimal imported; re-running the tests."})
    s.function(
        31.5,
        "call_Iv7Ts3Gk8Np2Wr6Lb4Dy9Fh",
        "exec_command",
        {"cmd": "python -m pytest -q", "workdir": "/home/dev/invoice"},
    )
    s.tokens(31.6, 20100)
    s.line(45.0, "event_msg", {"type": "turn_aborted", "reason": "interrupted"})
    return {
        "sample": "codex-rollout-basic.jsonl",
        "harness": "codex",
        "format": "Codex CLI rollout, envelope format ({timestamp, type, payload})",
        "session": {
            "id": meta["id"],
            "cwd": meta["cwd"],
            "cli_version": "0.111.0",
            "first_entry_at": s.lines[0]["timestamp"],
            "last_entry_at": s.lines[-1]["timestamp"],
        },
        "rules": {
            "arguments": "function_call arguments parsed from their JSON string; custom_tool_call input becomes {'input': ...}",
            "status": "exit code in the output text: 0 -> ok, non-zero -> error; no exit code -> ok; no output -> open",
        },
        "calls": s.expected_calls(),
        "not_calls": [{"line": 4, "kind": "event_msg user_message"}, {"line": 5, "kind": "reasoning"}],
        "_text": s.text(),
    }


BUILDERS = {
    "pi-v3-basic": pi_v3_basic,
    "pi-v3-branched": pi_v3_branched,
    "pi-v1-legacy": pi_v1_legacy,
    "claude-code-basic": claude_code_basic,
    "codex-rollout-basic": codex_rollout_basic,
}


def render() -> dict[str, str]:
    """file name -> text of every sample and expected file."""
    out = {}
    for name, build in BUILDERS.items():
        expected = build()
        out[f"{name}.jsonl"] = expected.pop("_text")
        out[f"expected-{name}.json"] = json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
    return out


def main(target: Path = HERE) -> int:
    for file_name, text in render().items():
        (target / file_name).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE))
