/** The client against one real daemon: fires, progress, cancellation, hook/run, load. */
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { CancellationTokenSource } from "vscode-jsonrpc/node";

import {
  ConnectionLost,
  HookdClient,
  HookdClientError,
  RemoteError,
  RequestCancelled,
  type AsyncResult,
  type HookRunParams,
  type ProgressValue,
} from "../src/index";
import {
  claudeSettings,
  command,
  Daemon,
  killQuietly,
  processGone,
  readPids,
  Scratch,
  waitUntil,
  writeExecutable,
  writeJson,
} from "./harness";

const scratch = new Scratch();
const daemon = new Daemon(scratch);
let client: HookdClient;

before(async () => {
  await daemon.start();
  client = await HookdClient.connect({ socketPath: daemon.socketPath });
});

after(async () => {
  client?.dispose();
  await daemon.stop();
  scratch.remove();
});

/** A hook that records its pid and its background child's pid, then waits for ever. */
function sleeper(dir: string): { command: string; pids: () => number[] } {
  const file = path.join(dir, "pids");
  return {
    command: `sleep 600 & echo $! > ${file}.tmp; echo $$ >> ${file}.tmp; mv ${file}.tmp ${file}; wait`,
    pids: () => readPids(file),
  };
}

describe("fire", () => {
  test("hooks of two dialects: Claude's exit 2 and Cline's cancel both block, in each agent's terms", async () => {
    const root = scratch.root("dialects");
    writeJson(
      path.join(root, ".claude", "settings.json"),
      claudeSettings("PreToolUse", [command("echo 'rm is not allowed here' >&2; exit 2")], "Bash"),
    );
    writeExecutable(
      path.join(root, ".clinerules", "hooks", "PreToolUse"),
      '#!/bin/sh\ncat >/dev/null\necho \'{"cancel": true, "errorMessage": "cline says no"}\'\n',
    );

    const claude = await client.fire({
      agent: "claude",
      event: "PreToolUse",
      workspaceRoots: [root],
      payload: { tool_name: "Bash", tool_input: { command: "rm -rf build" } },
    });
    const cline = await client.fire({
      agent: "cline",
      event: "PreToolUse",
      workspaceRoots: [root],
      payload: { preToolUse: { toolName: "execute_command", parameters: { command: "ls" } } },
    });

    assert.equal(claude.blocked, true);
    assert.equal(claude.decision, "deny");
    assert.equal(claude.reason, "rm is not allowed here");
    assert.deepEqual(claude.hooks.map((hook) => [hook.dialect, hook.layer, hook.exitCode]), [["claude", "project", 2]]);
    assert.equal(cline.blocked, true);
    assert.equal(cline.reason, "cline says no");
    assert.deepEqual(cline.hooks.map((hook) => hook.dialect), ["cline"]);
    assert.deepEqual({ ...(cline.native as object), contextModification: undefined }, {
      cancel: true,
      errorMessage: "cline says no",
      contextModification: undefined,
    });
  });

  test("progress arrives in order, before the result: begin, started/slow/finished per hook, end", async () => {
    const root = scratch.root("progress");
    writeJson(
      path.join(root, ".claude", "settings.json"),
      claudeSettings("Stop", [command("sleep 0.5"), command("true")]),
    );
    const seen: ProgressValue[] = [];
    let resultAt = -1;

    const result = await client
      .fire({ agent: "claude", event: "Stop", workspaceRoots: [root], slowThresholdMs: 50 }, { onProgress: (value) => seen.push(value) })
      .finally(() => (resultAt = seen.length));

    assert.equal(resultAt, seen.length, "no progress after the result");
    assert.equal(seen[0]?.kind, "begin");
    assert.equal(seen.at(-1)?.kind, "end");
    const reports = seen.slice(1, -1).map((value) => {
      assert.equal(value.kind, "report");
      return value.kind === "report" ? `${value.hookd.type}#${value.hookd.index}` : "";
    });
    for (const index of [0, 1]) {
      const started = reports.indexOf(`hook/started#${index}`);
      const finished = reports.indexOf(`hook/finished#${index}`);
      assert.ok(started >= 0 && finished > started, `hook ${index}: ${reports.join(", ")}`);
    }
    const slow = reports.indexOf("hook/slow#0");
    assert.ok(slow > reports.indexOf("hook/started#0") && slow < reports.indexOf("hook/finished#0"), reports.join(", "));
    assert.equal(reports.length, 5);
    const end = seen.at(-1);
    assert.ok(end?.kind === "end" && end.hookd.slowest?.index === 0);
    assert.equal(result.slowest?.index, 0);
  });

  test("startFire: the same progress through an async iterator, then the result", async () => {
    const root = scratch.root("iterator");
    writeJson(path.join(root, ".claude", "settings.json"), claudeSettings("Stop", [command("true")]));

    const call = client.startFire({ agent: "claude", event: "Stop", workspaceRoots: [root] });
    const kinds: string[] = [];
    for await (const value of call) kinds.push(value.kind === "report" ? value.hookd.type : value.kind);
    const result = await call.result;

    assert.deepEqual(kinds, ["begin", "hook/started", "hook/finished", "end"]);
    assert.equal(result.hooks[0]?.exitCode, 0);
  });

  test("cancelling with a CancellationToken mid-fire kills the hook's whole process group", async () => {
    const root = scratch.root("cancel-token");
    const hook = sleeper(root);
    writeJson(path.join(root, ".claude", "settings.json"), claudeSettings("Stop", [command(hook.command)]));
    const source = new CancellationTokenSource();

    const fired = client.fire({ agent: "claude", event: "Stop", workspaceRoots: [root] }, { token: source.token });
    await waitUntil(() => hook.pids().length === 2, "the hook to start");
    const pids = hook.pids();
    source.cancel();

    await assert.rejects(fired, (error: unknown) => {
      assert.ok(error instanceof RequestCancelled, String(error));
      assert.equal(error.code, -32800);
      assert.equal(error.kind, "RequestCancelled");
      return true;
    });
    try {
      await waitUntil(() => pids.every(processGone), `hook processes ${pids} to be killed`);
    } finally {
      pids.forEach(killQuietly);
    }
  });

  test("cancelling with an AbortSignal, and FireCall.cancel(), do the same", async () => {
    const root = scratch.root("cancel-signal");
    const hook = sleeper(root);
    writeJson(path.join(root, ".claude", "settings.json"), claudeSettings("Stop", [command(hook.command)]));

    const controller = new AbortController();
    const fired = client.fire({ agent: "claude", event: "Stop", workspaceRoots: [root] }, { signal: controller.signal });
    await waitUntil(() => hook.pids().length === 2, "the hook to start");
    const first = hook.pids();
    controller.abort();
    await assert.rejects(fired, RequestCancelled);
    await waitUntil(() => first.every(processGone), "the first hook to be killed");

    const call = client.startFire({ agent: "claude", event: "Stop", workspaceRoots: [root] });
    await waitUntil(() => hook.pids().length === 2 && hook.pids()[0] !== first[0], "the second hook to start");
    const second = hook.pids();
    call.cancel();
    await assert.rejects(call.result, RequestCancelled);
    try {
      await waitUntil(() => second.every(processGone), "the second hook to be killed");
    } finally {
      [...first, ...second].forEach(killQuietly);
    }
    // Already cancelled: refused locally, nothing is sent.
    await assert.rejects(
      client.fire({ agent: "claude", event: "Stop", workspaceRoots: [root] }, { signal: controller.signal }),
      /cancelled before it was sent/,
    );
  });

  test("hook/run: the daemon asks this client to run a prompt handler and reads its answer", async () => {
    const root = scratch.root("hook-run");
    writeJson(
      path.join(root, ".claude", "settings.json"),
      claudeSettings("Stop", [{ type: "prompt", prompt: "done? $ARGUMENTS" }]),
    );
    const asked: HookRunParams[] = [];

    const judged = await client.fire(
      { agent: "claude", event: "Stop", workspaceRoots: [root], payload: { session_id: "s1" } },
      {
        handlers: {
          prompt: async (params) => {
            asked.push(params);
            return { ok: false, reason: "not done" };
          },
        },
      },
    );
    const failed = await client.fire(
      { agent: "claude", event: "Stop", workspaceRoots: [root], payload: { session_id: "s1" } },
      {
        handlers: {
          prompt: () => {
            throw new Error("model unavailable");
          },
        },
      },
    );
    const unoffered = await client.fire({ agent: "claude", event: "Stop", workspaceRoots: [root] });

    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.type, "prompt");
    assert.match(asked[0]?.prompt ?? "", /^done\? \{/);
    assert.equal(typeof asked[0]?.fireId, "number");
    assert.equal(judged.blocked, true);
    assert.equal(judged.reason, "not done");
    assert.equal(failed.blocked, false);
    assert.match(failed.hooks[0]?.error ?? "", /model unavailable/);
    assert.match(unoffered.hooks[0]?.error ?? "", /does not run prompt hooks/);
  });

  test("hook/run: the daemon cancels a handler that outlives the hook's timeout", async () => {
    const root = scratch.root("hook-run-timeout");
    writeJson(
      path.join(root, ".claude", "settings.json"),
      claudeSettings("Stop", [{ type: "prompt", prompt: "slow", timeout: 1 }]),
    );
    let cancelledByDaemon = false;

    const result = await client.fire(
      { agent: "claude", event: "Stop", workspaceRoots: [root] },
      {
        handlers: {
          prompt: (_params, token) =>
            new Promise((resolve) => {
              token.onCancellationRequested(() => {
                cancelledByDaemon = true;
                resolve({ ok: true });
              });
            }),
        },
      },
    );

    assert.equal(cancelledByDaemon, true);
    assert.equal(result.hooks[0]?.timedOut, true);
  });

  test("hook/asyncResult: a background hook's result reaches onAsyncResult listeners", async () => {
    const root = scratch.root("async");
    writeJson(
      path.join(root, ".claude", "settings.json"),
      claudeSettings("PostToolUse", [command(`echo '{"systemMessage": "background done"}'`, { async: true })]),
    );
    const seen: AsyncResult[] = [];
    const listening = client.onAsyncResult((result) => seen.push(result));
    try {
      const result = await client.fire({
        agent: "claude",
        event: "PostToolUse",
        workspaceRoots: [root],
        payload: { session_id: "async-1", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: {} },
      });
      const started = result.asyncStarted[0];
      assert.ok(started, JSON.stringify(result));
      await waitUntil(() => seen.some((item) => item.id === started.id), "the background hook's result");
      assert.equal(seen.find((item) => item.id === started.id)?.systemMessage, "background done");
    } finally {
      listening.dispose();
    }
  });

  test("32 concurrent fires on one connection: every answer and every progress value reaches its own caller", async () => {
    const root = scratch.root("concurrent");
    writeJson(
      path.join(root, ".claude", "settings.json"),
      claudeSettings("PreToolUse", [command("grep -o 'nonce-[0-9]*-x' >&2; exit 2")]),
    );
    const progress = new Map<number, ProgressValue[]>();

    const results = await Promise.all(
      Array.from({ length: 32 }, (_, n) => {
        progress.set(n, []);
        return client.fire(
          {
            agent: "claude",
            event: "PreToolUse",
            workspaceRoots: [root],
            payload: { tool_name: "Bash", tool_input: { command: `echo nonce-${n}-x` } },
          },
          { onProgress: (value) => progress.get(n)!.push(value) },
        );
      }),
    );

    results.forEach((result, n) => {
      assert.equal(result.reason, `nonce-${n}-x`);
      const values = progress.get(n)!;
      assert.deepEqual(values.map((value) => value.kind), ["begin", "report", "report", "end"]);
      const finished = values[2];
      assert.ok(finished?.kind === "report" && finished.hookd.type === "hook/finished");
      assert.equal(finished.hookd.durationMs, result.hooks[0]?.durationMs);
    });
  });

  test("large payloads both ways: 3 MB in, 900 kB back; over the limit is refused without hanging", async () => {
    const root = scratch.root("large");
    const script = writeExecutable(
      path.join(root, "echo-size.py"),
      [
        "import json, sys",
        "data = sys.stdin.buffer.read()",
        "json.loads(data)",
        'out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",',
        '       "updatedInput": {"size": len(data), "blob": "y" * 900000}}}',
        "print(json.dumps(out))",
      ].join("\n"),
    );
    writeJson(path.join(root, ".claude", "settings.json"), claudeSettings("PreToolUse", [command(`python3 ${script}`)]));
    const blob = "x".repeat(3_000_000);

    const result = await client.fire({
      agent: "claude",
      event: "PreToolUse",
      workspaceRoots: [root],
      payload: { tool_name: "Write", tool_input: { content: blob } },
    });
    const updated = result.updatedInput as { size: number; blob: string };
    assert.ok(updated.size > 3_000_000, String(updated.size));
    assert.equal(updated.blob.length, 900000);

    await assert.rejects(
      client.fire({ agent: "claude", event: "PreToolUse", workspaceRoots: [root], payload: { blob: "z".repeat(64 * 1024 * 1024 + 1) } }),
      (error: unknown) => error instanceof RemoteError && error.code === 1001 && /max_message_bytes/.test(error.message),
    );
    assert.equal((await client.status()).pid, daemon.pid); // the connection is still fine
  });

  test("a JSON-RPC error answer is a RemoteError with code and data", async () => {
    await assert.rejects(
      client.fire({ agent: "nobody" as "claude", event: "Stop" }),
      (error: unknown) => {
        assert.ok(error instanceof RemoteError && !(error instanceof RequestCancelled));
        assert.equal(error.code, -32602);
        assert.match(String(error.data), /must be one of/);
        assert.match(error.message, /must be one of/);
        return true;
      },
    );
  });

  test("status, hooks/list, roots/add and roots/remove", async () => {
    const root = scratch.root("listing");
    writeJson(path.join(root, ".claude", "settings.json"), claudeSettings("Stop", [command("true")]));

    const added = await client.rootsAdd([root]);
    const listing = await client.hooksList([root]);
    const status = await client.status();
    const removed = await client.rootsRemove([root]);

    assert.ok(added.roots.includes(root));
    assert.ok(listing.hooks.some((hook) => hook.source === path.join(root, ".claude", "settings.json") && hook.layer === "project"));
    assert.equal(status.socket, daemon.socketPath);
    assert.ok(status.connections >= 1);
    assert.ok(!removed.roots.includes(root));
  });

  test("dispose: fails what is in flight, the daemon kills its hooks, nothing is left open", async () => {
    const root = scratch.root("dispose");
    const hook = sleeper(root);
    writeJson(path.join(root, ".claude", "settings.json"), claudeSettings("Stop", [command(hook.command)]));
    const handles = () => process.getActiveResourcesInfo().filter((name) => name !== "TTYWrap").sort().join(",");
    const baseline = handles();
    const own = new HookdClient({ socketPath: daemon.socketPath });

    const fired = own.fire({ agent: "claude", event: "Stop", workspaceRoots: [root] });
    await waitUntil(() => hook.pids().length === 2, "the hook to start");
    const pids = hook.pids();
    own.dispose();

    await assert.rejects(fired, ConnectionLost);
    await assert.rejects(own.status(), (error: unknown) => error instanceof HookdClientError && /disposed/.test(error.message));
    try {
      await waitUntil(() => pids.every(processGone), "the disconnected fire's hooks to be killed");
    } finally {
      pids.forEach(killQuietly);
    }
    await waitUntil(() => handles() === baseline, `no handle left open (${handles()} vs ${baseline})`);
  });
});
