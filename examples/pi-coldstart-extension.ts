// pytest-coldstart live capture for the pi coding agent.
//
// Copy to ~/.pi/agent/extensions/ (or load with `pi --extension <this file>`), set
// COLDSTART_RUN_DIR to the run directory opened with `coldstart trace init`, and start pi.
// Every event below is sent, as one JSON object on stdin, to `coldstart hook pi`, which
// appends it to the run's trajectory as it happens. The hook always exits 0 within its time
// budget, so a capture problem never blocks the agent (it is reported on stderr and in the run).
import { spawnSync } from "node:child_process";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

const COMMAND = process.env.COLDSTART_COMMAND ?? "coldstart";

function send(event: Record<string, unknown>): void {
  if (!process.env.COLDSTART_RUN_DIR) return; // not a recorded run
  spawnSync(COMMAND, ["hook", "pi"], {
    input: JSON.stringify(event),
    stdio: ["pipe", "ignore", "inherit"],
    timeout: 10_000,
  });
}

export default function (pi: ExtensionAPI) {
  let sessionId: string | undefined;

  pi.on("session_start", async (_event, ctx) => {
    sessionId = ctx.sessionManager.getSessionId();
    send({ type: "session_start", sessionId, cwd: ctx.cwd });
  });

  pi.on("input", async (event) => {
    send({ type: "input", sessionId, text: event.text });
  });

  pi.on("tool_call", async (event) => {
    send({ type: "tool_call", sessionId, toolCallId: event.toolCallId, toolName: event.toolName, input: event.input });
  });

  pi.on("tool_result", async (event) => {
    send({
      type: "tool_result",
      sessionId,
      toolCallId: event.toolCallId,
      toolName: event.toolName,
      content: event.content,
      isError: event.isError,
    });
  });

  pi.on("session_shutdown", async () => {
    send({ type: "session_shutdown", sessionId });
  });
}
