/**
 * Test support: a real `hookd serve` process with a scratch HOME and socket, hook-file
 * helpers, and condition waits with generous deadlines (never sleep-and-hope).
 *
 * The daemon is `$HOOKD_BIN` (default `hookd` from PATH: ci.sh runs with the repo's venv
 * active), started as `hookd --socket S serve --home H --system-root R`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, existsSync, closeSync } from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

export const HOOKD = process.env.HOOKD_BIN ?? "hookd";

/** Wait until `predicate` holds, checking every 10 ms; fail after `timeoutMs` (generous). */
export async function waitUntil(
  predicate: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** True when `pid` no longer runs (absent, or a zombie awaiting its reaper). */
export function processGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] === "Z";
  } catch {
    return true;
  }
}

export function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function connectable(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createConnection({ path: socketPath });
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}

/** A scratch directory tree for one test file: home, workspace roots, system root, socket. */
export class Scratch {
  readonly dir: string;
  readonly home: string;
  readonly systemRoot: string;
  /** Short: AF_UNIX paths are limited to 107 bytes. */
  readonly socketDir: string;

  constructor() {
    this.dir = mkdtempSync(path.join(os.tmpdir(), "hookd-ts-"));
    this.home = path.join(this.dir, "home");
    this.systemRoot = path.join(this.dir, "system");
    mkdirSync(this.home);
    this.socketDir = mkdtempSync("/tmp/hk");
  }

  get socketPath(): string {
    return path.join(this.socketDir, "hookd.sock");
  }

  /** A fresh workspace root. */
  root(name: string): string {
    const dir = path.join(this.dir, "ws", name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
    rmSync(this.socketDir, { recursive: true, force: true });
  }
}

/** One `hookd serve` process. */
export class Daemon {
  process: ChildProcess | undefined;
  readonly logPath: string;

  constructor(
    readonly scratch: Scratch,
    readonly name = "daemon",
  ) {
    this.logPath = path.join(scratch.dir, `${name}.log`);
  }

  get socketPath(): string {
    return this.scratch.socketPath;
  }

  get pid(): number {
    if (this.process?.pid === undefined) throw new Error("the daemon is not started");
    return this.process.pid;
  }

  static env(scratch: Scratch): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith("HOOKD_") && name !== "HOOKD_BIN") delete env[name];
    delete env.NOTIFY_SOCKET;
    env.HOME = scratch.home;
    env.XDG_CONFIG_HOME = path.join(scratch.home, ".config");
    env.XDG_STATE_HOME = path.join(scratch.home, ".local", "state");
    env.XDG_RUNTIME_DIR = scratch.socketDir;
    return env;
  }

  /** Start it and wait until it accepts connections. */
  async start(): Promise<this> {
    const log = openSync(this.logPath, "a");
    const child = spawn(
      HOOKD,
      ["--socket", this.socketPath, "serve", "--home", this.scratch.home, "--system-root", this.scratch.systemRoot, "--log-format", "json", "--trust-all"],
      { env: Daemon.env(this.scratch), stdio: ["ignore", "ignore", log] },
    );
    closeSync(log);
    this.process = child;
    let exited = false;
    let spawnError: Error | undefined;
    child.once("exit", () => (exited = true));
    child.once("error", (error) => (spawnError = error));
    await waitUntil(async () => {
      if (spawnError) throw new Error(`cannot start ${HOOKD}: ${spawnError.message} (is the venv active?)`);
      if (exited) throw new Error(`hookd serve exited at start-up:\n${this.log()}`);
      return connectable(this.socketPath);
    }, "hookd serve to listen", 60000);
    return this;
  }

  log(): string {
    return existsSync(this.logPath) ? readFileSync(this.logPath, "utf8") : "";
  }

  /** Stop it: SIGTERM (a clean shutdown), SIGKILL if it lingers; resolves once it exited. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 20000);
    await exited;
    clearTimeout(timer);
  }
}

export function writeJson(file: string, data: unknown): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
}

export function writeExecutable(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

export function claudeSettings(event: string, handlers: object[], matcher?: string): object {
  const group: { [key: string]: unknown } = { hooks: handlers };
  if (matcher !== undefined) group.matcher = matcher;
  return { hooks: { [event]: [group] } };
}

export function command(text: string, extra: object = {}): object {
  return { type: "command", command: text, ...extra };
}

/** Read the pids a hook wrote (one per line); [] while the file is absent. */
export function readPids(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split(/\s+/)
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}
