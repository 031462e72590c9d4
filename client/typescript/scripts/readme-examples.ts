/**
 * Extracts the README's examples (each ```ts block preceded by `<!-- example: NAME.ts -->`)
 * into build/readme-examples/, where `tsc -p tsconfig.examples.json` type-checks them.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";

const root = path.join(__dirname, "..", "..");
const out = path.join(root, "build", "readme-examples");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const pattern = /<!-- example: ([\w.-]+\.ts) -->\n```ts\n([\s\S]*?)\n```/g;

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
let count = 0;
for (const match of readme.matchAll(pattern)) {
  writeFileSync(path.join(out, match[1]!), `${match[2]}\n`);
  count++;
}
if (count < 2) {
  process.stderr.write(`expected the README's 2 examples, found ${count}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`extracted ${count} README examples to ${out}\n`);
}
