// The pages a reader follows, as test/e2e/docs-commands.test.ts and docs-fleet.test.ts run them:
// their shell commands, and their blocks in order as one script (shell blocks as printed, each
// file written under the name printed above it).
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT } from "./pulumi-cli";

/** The published pages that show commands. */
export const PAGES = ["README.md", "docs", "docs/guides"].flatMap((d) =>
  d.endsWith(".md")
    ? [d]
    : readdirSync(join(ROOT, d))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `${d}/${f}`),
);

/** The commands of the shell blocks of a page, one per line as printed (continuations joined). */
export function commandsOf(page: string): string[] {
  const text = readFileSync(join(ROOT, page), "utf8");
  const out: string[] = [];
  for (const block of text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, "");
    for (const line of joined.split("\n")) {
      const command = line.replace(/\s+#.*$/, "").trim();
      if (command && !command.startsWith("#")) out.push(command);
    }
  }
  return out;
}

// The pages show the version of package.json, as `npm run release` names its files.
export const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/**
 * A block of a page: a shell block, a file the reader saves under the name printed above it, or
 * (an `output` block) what a command prints, which the reader does not run.
 */
export type Block =
  | { kind: "sh"; text: string }
  | { kind: "file"; name: string; text: string }
  | { kind: "output"; text: string };

/** The blocks of a page in order, each with the `##` and `###` headings it sits under. */
export function blocksOf(page: string): { h2: string; h3: string; block: Block }[] {
  const out: { h2: string; h3: string; block: Block }[] = [];
  let h2 = "";
  let h3 = "";
  let paragraph = "";
  /** The last paragraph of prose before the line at hand. */
  let previous = "";
  const lines = readFileSync(join(ROOT, page), "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^```(\w*)$/.exec(line);
    if (fence) {
      const end = lines.indexOf("```", i + 1);
      const text = `${lines.slice(i + 1, end).join("\n")}\n`;
      if (["sh", "bash", "shell"].includes(fence[1]!)) out.push({ h2, h3, block: { kind: "sh", text } });
      else if (fence[1] === "output") out.push({ h2, h3, block: { kind: "output", text } });
      else {
        // A file block: the paragraph before it starts with the file's name, in backquotes.
        const name = /^`([^`\s]+)`/.exec(paragraph || previous)?.[1];
        if (!name) throw new Error(`${page}: a ${fence[1]} block under "${h3 || h2}" has no file name above it`);
        out.push({ h2, h3, block: { kind: "file", name, text } });
      }
      i = end;
      paragraph = previous = "";
      continue;
    }
    if (line.startsWith("## ")) [h2, h3] = [line.slice(3), ""];
    else if (line.startsWith("### ")) h3 = line.slice(4);
    if (line.trim() === "") [previous, paragraph] = [paragraph || previous, ""];
    else paragraph = paragraph ? `${paragraph} ${line}` : line;
  }
  return out;
}

/**
 * A block as a reader runs it: a shell block as printed (but for the lines in `leaveOut`), a file
 * written under its name; an `echo` before it marks where its output starts.
 */
export function scriptLines(label: string, block: Block, leaveOut: string[] = []): string {
  if (block.kind === "output") return "";
  const marker = `echo '@@ ${label}'`;
  if (block.kind === "file") return `${marker}\ncat > '${block.name}' <<'NSP_FILE_END'\n${block.text}NSP_FILE_END\n`;
  const kept = block.text.split("\n").filter((line) => !leaveOut.includes(line.replace(/\s+#.*$/, "").trim()));
  return `${marker}\n${kept.join("\n")}`;
}

/** What a script printed after each marker. */
export function outputsByMarker(output: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const part of output.split(/^@@ /m).slice(1)) {
    const newline = part.indexOf("\n");
    parts.set(part.slice(0, newline), (parts.get(part.slice(0, newline)) ?? "") + part.slice(newline + 1));
  }
  return parts;
}

/** A port free on 127.0.0.1 now, so that two suites on one machine do not meet on the printed one. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The port the pages print for the emulator. */
const PRINTED_PORT = "8787";

/** A command as printed but for the emulator's port, so that two suites on one machine do not meet on the printed one. */
export function onPort(command: string, port: number | string): string {
  return command.replaceAll(`:${PRINTED_PORT}/`, `:${port}/`).replaceAll(`--port ${PRINTED_PORT} `, `--port ${port} `);
}

/** The fleet's page, which test/e2e/docs-fleet.test.ts runs as one script. */
export const FLEET_PAGE = "docs/guides/fleet.md";

/** The commands of the fleet's page its script leaves out, with the reason. */
export const FLEET_PAGE_NOT_HERE: Record<string, string> = {
  ...Object.fromEntries(
    [
      'kubectl create secret generic nsp-fleet --from-literal=NSP_PARTNER_TOKEN="$NSP_PARTNER_TOKEN" ' +
        '--from-literal=INITECH_NSP_TOKEN="$INITECH_NSP_TOKEN" ' +
        '--from-literal=PULUMI_CONFIG_PASSPHRASE="$PULUMI_CONFIG_PASSPHRASE" ' +
        '--from-literal=PULUMI_BACKEND_URL="$PULUMI_BACKEND_URL"',
      "kubectl apply -f stacks.yaml",
    ].map((c) => [
      c,
      "needs a Kubernetes cluster with the Pulumi Operator; test/e2e/docs-fleet.test.ts checks the Stack " +
        "objects the line before writes",
    ]),
  ),
  ...Object.fromEntries(
    [
      "npx nsp-fleet serve --port 8080",
      'export FLEET_UI_TOKEN="$(openssl rand -hex 32)"',
      "npx nsp-fleet serve --listen 0.0.0.0 --port 8080",
    ].map((c) => [
      c,
      "serves the page until stopped, on a port of its own; test/e2e/fleet-page.test.ts starts it (on any " +
        "free port, with and without the token) and drives the page in Chromium",
    ]),
  ),
};
