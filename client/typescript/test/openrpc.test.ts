/**
 * The typed API against the OpenRPC document: the checked-in generated types must be
 * exactly what the live daemon's `rpc.discover` document generates (a drift fails here),
 * and the client's typed surface must reject what the document does not allow.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";

import { generate, GENERATED_PATH, DEFAULT_DOCUMENT, type OpenRpcDocument } from "../scripts/gen-protocol";
import { HookdClient, type ClientRequests, type FireParams, type FireResult, type ProgressValue } from "../src/index";
import { Daemon, Scratch } from "./harness";

const scratch = new Scratch();
const daemon = new Daemon(scratch);
let client: HookdClient;

before(async () => {
  await daemon.start();
  client = new HookdClient({ socketPath: daemon.socketPath });
});

after(async () => {
  client.dispose();
  await daemon.stop();
  scratch.remove();
});

test("src/generated/protocol.ts is what rpc.discover's document generates (regenerate: npm run generate)", async () => {
  const served = (await client.discover()) as unknown as OpenRpcDocument;
  const checkedIn = readFileSync(GENERATED_PATH, "utf8");

  assert.equal(generate(served), checkedIn, "the daemon's OpenRPC document changed: run 'npm run generate' and review");
  assert.deepEqual(served, JSON.parse(readFileSync(DEFAULT_DOCUMENT, "utf8")));
});

test("every request method of the document has a typed client method, and no other", async () => {
  const served = (await client.discover()) as unknown as OpenRpcDocument;
  const requests = served.methods
    .filter((method) => method.result && method["x-messageDirection"] !== "serverToClient")
    .map((method) => method.name)
    .sort();
  const typed: { [M in keyof ClientRequests]: (c: HookdClient) => Promise<ClientRequests[M]["result"]> } = {
    fire: (c) => c.fire({ agent: "claude", event: "Stop" }),
    relay: (c) => c.relay({ agent: "claude", stdin: "{}", cwd: "/" }),
    status: (c) => c.status(),
    "hooks/list": (c) => c.hooksList(),
    "hooks/explain": (c) => c.hooksExplain({ agent: "claude", event: "Stop" }),
    "roots/add": (c) => c.rootsAdd([]),
    "roots/remove": (c) => c.rootsRemove([]),
    shutdown: (c) => c.shutdown(),
    "rpc.discover": (c) => c.discover(),
  };
  assert.deepEqual(Object.keys(typed).sort(), requests);
  const listing = await typed["hooks/list"](client);
  assert.ok(Array.isArray(listing.hooks));
  const explained = await typed["hooks/explain"](client);
  assert.equal(explained.event, "Stop");
  assert.ok(Array.isArray(explained.hooks));
  const relayed = await typed.relay(client);
  assert.equal(relayed.exitCode, 1, "stdin without hook_event_name: a failing hook");
  assert.match(relayed.stderr, /^hookd-relay: the event on stdin has no hook_event_name/);
});

test("the result of a real fire carries every required field of FireResult, with the documented types", async () => {
  const served = (await client.discover()) as unknown as OpenRpcDocument;
  const schema = served.components.schemas.FireResult as { required: string[] };
  const result: FireResult = await client.fire({ agent: "claude", event: "Stop" });
  for (const field of schema.required) assert.ok(field in result, field);
});

// Compile-time checks (tsc --strict builds this file; a wrong type below fails the build).
export function typeChecks(c: HookdClient): void {
  // @ts-expect-error: agent must be one of the document's Agent enum
  void c.fire({ agent: "not-an-agent", event: "PreToolUse" });
  // @ts-expect-error: event is required
  void c.fire({ agent: "claude" });
  // @ts-expect-error: workDoneToken is managed by the client
  const managed: import("../src/index").FireRequest = { agent: "claude", event: "Stop", workDoneToken: "t" };
  void managed;
  // @ts-expect-error: roots are strings
  void c.rootsAdd([1]);
  // @ts-expect-error: unknown method
  void c.request("nope");
  const params: FireParams = { agent: "augment", event: "PreToolUse", clientHandlers: ["mcp_tool"] };
  void params;
  const narrow = (value: ProgressValue): string => {
    switch (value.kind) {
      case "begin":
        return `${value.hookd.agent} ${value.hookd.hooks}`;
      case "report":
        return value.hookd.type === "hook/finished" ? String(value.hookd.exitCode) : value.hookd.command;
      case "end":
        return String(value.hookd.blocked);
    }
  };
  void narrow;
}
