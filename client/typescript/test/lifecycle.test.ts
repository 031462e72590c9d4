/** Connection handling: no daemon, a mute one, a killed one, a restarted one, a broken one. */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as net from "node:net";
import * as path from "node:path";
import { after, afterEach, beforeEach, describe, test } from "node:test";

import {
  ConnectionLost,
  DaemonNotRunning,
  DaemonUnresponsive,
  defaultSocketPath,
  HookdClient,
  RequestCancelled,
} from "../src/index";
import { claudeSettings, command, Daemon, killQuietly, processGone, readPids, Scratch, waitUntil, writeJson } from "./harness";

const hostFailures: unknown[] = [];
const record = (error: unknown) => hostFailures.push(error);
process.on("uncaughtException", record);
process.on("unhandledRejection", record);

let scratch: Scratch;
const leftovers: number[] = [];

beforeEach(() => {
  scratch = new Scratch();
});

afterEach(() => {
  leftovers.splice(0).forEach(killQuietly);
  scratch.remove();
});

after(() => {
  assert.deepEqual(hostFailures, [], "the client never throws into the host");
});

function sleeper(dir: string): { command: string; pids: () => number[] } {
  const file = path.join(dir, "pids");
  return {
    command: `sleep 600 & echo $! > ${file}.tmp; echo $$ >> ${file}.tmp; mv ${file}.tmp ${file}; wait`,
    pids: () => readPids(file),
  };
}

describe("connection handling", () => {
  test("no daemon: DaemonNotRunning, for a missing socket and for a stale one, saying what to do", async () => {
    const missing = new HookdClient({ socketPath: path.join(scratch.socketDir, "missing.sock") });
    await assert.rejects(missing.status(), (error: unknown) => {
      assert.ok(error instanceof DaemonNotRunning);
      assert.match(error.message, /hookd serve/);
      assert.match(error.message, /HOOKD_SOCKET/);
      return true;
    });
    await assert.rejects(HookdClient.connect({ socketPath: path.join(scratch.socketDir, "missing.sock") }), DaemonNotRunning);

    const stale = path.join(scratch.socketDir, "stale.sock");
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(stale, resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // Node removes the socket file on close; leave a stale one as a crashed daemon would.
    execFileSync("python3", ["-c", `import socket; s = socket.socket(socket.AF_UNIX); s.bind(${JSON.stringify(stale)})`]);
    await assert.rejects(new HookdClient({ socketPath: stale }).fire({ agent: "claude", event: "Stop" }), DaemonNotRunning);
    missing.dispose();
  });

  test("a daemon that accepts but never answers: DaemonUnresponsive after requestTimeoutMs", async () => {
    const mutePath = path.join(scratch.socketDir, "mute.sock");
    const sockets: net.Socket[] = [];
    const mute = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => mute.listen(mutePath, resolve));
    const client = new HookdClient({ socketPath: mutePath, requestTimeoutMs: 200 });
    try {
      await assert.rejects(client.status(), (error: unknown) => {
        assert.ok(error instanceof DaemonUnresponsive);
        assert.match(error.message, /did not answer within 0.2 s/);
        return true;
      });
    } finally {
      client.dispose();
      sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => mute.close(() => resolve()));
    }
  });

  test("daemon killed mid-fire: ConnectionLost; after a restart the same client reconnects on its next call", async () => {
    const daemon = await new Daemon(scratch, "first").start();
    const client = new HookdClient({ socketPath: daemon.socketPath });
    const root = scratch.root("killed");
    const hook = sleeper(root);
    writeJson(path.join(root, ".claude", "settings.json"), claudeSettings("Stop", [command(hook.command)]));
    try {
      const fired = client.fire({ agent: "claude", event: "Stop", workspaceRoots: [root] });
      await waitUntil(() => hook.pids().length === 2, "the hook to start");
      leftovers.push(...hook.pids());
      await daemon.stop("SIGKILL");

      await assert.rejects(fired, (error: unknown) => {
        assert.ok(error instanceof ConnectionLost, String(error));
        assert.match(error.message, /next call reconnects/);
        return true;
      });
      await assert.rejects(client.status(), DaemonNotRunning); // stale socket, nobody listening

      const second = await new Daemon(scratch, "second").start();
      try {
        const status = await client.status();
        assert.equal(status.pid, second.pid);
        assert.equal(client.connected, true);
      } finally {
        await second.stop();
      }
    } finally {
      client.dispose();
      await daemon.stop("SIGKILL");
    }
  });

  test("daemon shut down: in-flight fires get RequestCancelled (-32802), hooks are killed, the next call reconnects", async () => {
    const daemon = await new Daemon(scratch, "first").start();
    const client = new HookdClient({ socketPath: daemon.socketPath });
    const admin = new HookdClient({ socketPath: daemon.socketPath });
    const root = scratch.root("shutdown");
    const hook = sleeper(root);
    writeJson(path.join(root, ".claude", "settings.json"), claudeSettings("Stop", [command(hook.command)]));
    try {
      const fired = client.fire({ agent: "claude", event: "Stop", workspaceRoots: [root] });
      await waitUntil(() => hook.pids().length === 2, "the hook to start");
      const pids = hook.pids();
      leftovers.push(...pids);
      const stopping = await admin.shutdown();
      assert.equal(stopping.stopping, true);
      assert.equal(stopping.pid, daemon.pid);

      await assert.rejects(fired, (error: unknown) => error instanceof RequestCancelled && error.code === -32802);
      await waitUntil(() => pids.every(processGone), "the hooks to be killed");
      await waitUntil(() => daemon.process?.exitCode !== null, "the daemon to exit");

      const second = await new Daemon(scratch, "second").start();
      try {
        assert.equal((await client.status()).pid, second.pid);
        assert.equal((await admin.status()).pid, second.pid);
      } finally {
        await second.stop();
      }
    } finally {
      client.dispose();
      admin.dispose();
      await daemon.stop("SIGKILL");
    }
  });

  test("malformed replies never crash the host: ConnectionLost, then the next call reconnects", async () => {
    const fakePath = path.join(scratch.socketDir, "fake.sock");
    // Each connection gets the next behaviour; answers are keyed to the request's id.
    const behaviours: Array<(id: unknown, socket: net.Socket) => void> = [
      (_id, socket) => socket.write("Content-Length: 9\r\n\r\n{not json"),
      (id, socket) => frame(socket, { jsonrpc: "2.0", id, result: 42 }),
      (_id, socket) => socket.write("Bogus header without a length\r\n\r\n{}"),
      (id, socket) => frame(socket, { jsonrpc: "2.0", id, result: { blocked: "yes", hooks: [] } }),
      (id, socket) => frame(socket, { jsonrpc: "2.0", id, result: { pid: 7 } }),
    ];
    let connections = 0;
    const server = net.createServer((socket) => {
      const behave = behaviours[connections++];
      let buffered = "";
      socket.on("error", () => undefined);
      socket.on("data", (data) => {
        buffered += data.toString();
        const match = /\r\n\r\n(\{.*\})$/s.exec(buffered);
        if (match && behave) behave((JSON.parse(match[1]!) as { id: unknown }).id, socket);
      });
    });
    await new Promise<void>((resolve) => server.listen(fakePath, resolve));
    const client = new HookdClient({ socketPath: fakePath });
    try {
      await assert.rejects(client.status(), /cannot read/);
      await assert.rejects(client.status(), (error: unknown) => error instanceof ConnectionLost && /malformed status reply/.test(error.message));
      await assert.rejects(client.status(), ConnectionLost);
      await assert.rejects(client.fire({ agent: "claude", event: "Stop" }), /'blocked' is not a boolean/);
      assert.deepEqual(await client.status(), { pid: 7 });
      assert.equal(connections, 5);
    } finally {
      client.dispose();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test("the default socket follows hookd.protocol's rules exactly", () => {
    const cases: Array<{ [name: string]: string | undefined }> = [
      { HOOKD_SOCKET: "/x/y.sock", XDG_RUNTIME_DIR: "/run/user/1" },
      { XDG_RUNTIME_DIR: "/run/user/1" },
      { XDG_RUNTIME_DIR: "relative/dir", TMPDIR: "/var/tmp" },
      { TMPDIR: "/var/tmp" },
      {},
    ];
    for (const env of cases) {
      const clean: NodeJS.ProcessEnv = { PATH: process.env.PATH };
      for (const [name, value] of Object.entries(env)) if (value !== undefined) clean[name] = value;
      const python = execFileSync(
        process.env.PYTHON ?? "python",
        ["-c", "import hookd.protocol as p; print(p.default_socket_path())"],
        { env: clean, encoding: "utf8" },
      ).trim();
      assert.equal(defaultSocketPath(clean), python, JSON.stringify(env));
    }
    assert.equal(defaultSocketPath({ USERNAME: "DOMAIN\\me" }, "win32"), "\\\\.\\pipe\\hookd-DOMAIN_me");
    assert.equal(defaultSocketPath({}, "win32"), "\\\\.\\pipe\\hookd-user");
  });
});

function frame(socket: net.Socket, message: object): void {
  const body = JSON.stringify(message);
  socket.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

