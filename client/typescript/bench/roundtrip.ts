/**
 * Fire round trip from Node (this client) next to the Python client (`hookd.client`),
 * side by side against one daemon in one run: a fire with no matching hook, and a fire
 * with one trivial Claude hook (`true`). Each client keeps one connection and fires
 * sequentially without progress; the two take turns in blocks (order alternating), so a
 * noisy phase of the machine hits both.
 *
 *   node dist/bench/roundtrip.js [--quick] [--json]
 *
 * Needs `hookd` and a Python with hookd installed (`$PYTHON`, default `python`): run it
 * with the repo's venv active.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import * as readline from "node:readline";

import { HookdClient } from "../src/index";
import { claudeSettings, command, Daemon, Scratch, writeJson } from "../test/harness";

const WORKER = `
import json, sys, time
from hookd.client import Client
socket, roots = sys.argv[1], json.loads(sys.argv[2])
client = Client(socket)
payload = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
for line in sys.stdin:
    job = json.loads(line)
    root = roots[job["mode"]]
    samples = []
    for _ in range(job["n"]):
        start = time.perf_counter_ns()
        client.fire("claude", "PreToolUse", [root], payload)
        samples.append((time.perf_counter_ns() - start) / 1e6)
    print(json.dumps(samples), flush=True)
`;

type Mode = "none" | "hook";
type Impl = "node" | "python";

function percentile(sorted: number[], q: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index]!;
}

async function main(): Promise<void> {
  const quick = process.argv.includes("--quick");
  const asJson = process.argv.includes("--json");
  const rounds = quick ? 4 : 20;
  const block = 50;
  const scratch = new Scratch();
  const daemon = new Daemon(scratch, "bench");
  const roots: Record<Mode, string> = { none: scratch.root("none"), hook: scratch.root("hook") };
  writeJson(path.join(roots.hook, ".claude", "settings.json"), claudeSettings("PreToolUse", [command("true")], "Bash"));
  // hookd re-reads settings files changed within the last ~2 s (racy stat): let them age.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  await daemon.start();
  const client = new HookdClient({ socketPath: daemon.socketPath });
  const python = spawn(process.env.PYTHON ?? "python", ["-c", WORKER, daemon.socketPath, JSON.stringify(roots)], {
    stdio: ["pipe", "pipe", "inherit"],
    env: Daemon.env(scratch),
  });
  const lines = readline.createInterface({ input: python.stdout! })[Symbol.asyncIterator]();
  const payload = { tool_name: "Bash", tool_input: { command: "ls" } };
  const samples: Record<Impl, Record<Mode, number[]>> = { node: { none: [], hook: [] }, python: { none: [], hook: [] } };

  const runNode = async (mode: Mode, n: number, keep: boolean) => {
    for (let i = 0; i < n; i++) {
      const start = process.hrtime.bigint();
      const result = await client.fire({ agent: "claude", event: "PreToolUse", workspaceRoots: [roots[mode]], payload });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (result.hooks.length !== (mode === "hook" ? 1 : 0)) throw new Error(`unexpected hooks in ${mode}: ${JSON.stringify(result.hooks)}`);
      if (keep) samples.node[mode].push(ms);
    }
  };
  const runPython = async (mode: Mode, n: number, keep: boolean) => {
    python.stdin!.write(`${JSON.stringify({ mode, n })}\n`);
    const next = await lines.next();
    if (next.done) throw new Error("the Python worker exited");
    if (keep) samples.python[mode].push(...(JSON.parse(next.value) as number[]));
  };

  try {
    for (const mode of ["none", "hook"] as Mode[]) {
      await runNode(mode, 20, false); // warm-up
      await runPython(mode, 20, false);
    }
    for (let round = 0; round < rounds; round++) {
      for (const mode of ["none", "hook"] as Mode[]) {
        const order = round % 2 === 0 ? [runNode, runPython] : [runPython, runNode];
        for (const run of order) await run(mode, block, true);
      }
      process.stderr.write(`round ${round + 1}/${rounds}\r`);
    }
  } finally {
    python.stdin!.end();
    client.dispose();
    await daemon.stop();
    scratch.remove();
  }

  const report: Record<string, { n: number; p50: number; p95: number; mean: number }> = {};
  console.log(`\nfire round trip, one connection each, sequential, no progress (${rounds * block} fires per cell)`);
  console.log("mode        client   p50 ms   p95 ms   mean ms");
  for (const mode of ["none", "hook"] as Mode[]) {
    for (const impl of ["node", "python"] as Impl[]) {
      const sorted = [...samples[impl][mode]].sort((a, b) => a - b);
      const stats = {
        n: sorted.length,
        p50: percentile(sorted, 0.5),
        p95: percentile(sorted, 0.95),
        mean: sorted.reduce((sum, x) => sum + x, 0) / sorted.length,
      };
      report[`${mode}/${impl}`] = stats;
      const label = mode === "none" ? "no hook" : "1 hook";
      console.log(`${label.padEnd(11)} ${impl.padEnd(8)} ${stats.p50.toFixed(3).padStart(6)}   ${stats.p95.toFixed(3).padStart(6)}   ${stats.mean.toFixed(3).padStart(7)}`);
    }
    const ratio = report[`${mode}/node`]!.p50 / report[`${mode}/python`]!.p50;
    console.log(`${"".padEnd(11)} node/python p50 ratio ${ratio.toFixed(2)}`);
  }
  if (asJson) console.log(JSON.stringify(report));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
