// A stand-in for HashiCorp Vault's transit engine, the key service of the end-to-end stacks.
//
// The passphrase secrets manager derives its key with 1,000,000 rounds of PBKDF2 in every command
// that opens a stack's secrets: 0.17 CPU-s of the CLI's own 0.2 in a `pulumi up` (profiled with
// `pulumi --profiling`), paid hundreds of times in one run of the suite. A key service costs one
// small request instead. Pulumi's `hashivault://<key>` secrets manager keeps a data key of the
// stack's own, sealed by the key service (`encryptedkey` in the stack's settings), and asks it to
// unseal that key once per command; the secrets themselves are sealed by the CLI as before.
//
// This serves the two calls the CLI makes (`PUT /v1/transit/encrypt/<key>` and `.../decrypt/<key>`,
// as Vault documents them), with AES-256-GCM under a key made for the run, and refuses a request
// without the run's token as Vault does. It runs in vitest's own process (a globalSetup), whose
// event loop the tests never block; the variables it sets reach every test worker and every
// `pulumi` a test starts (pulumiEnv). The stacks Stack.init makes use it. The tests that make
// stacks as a user's commands do keep the passphrase: the pages' (docs-commands, docs-fleet), the
// installed release's (installed, node-versions) and the fleet's.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The key of every stack the tests make; any name would do, the service has one key per run. */
export const E2E_SECRETS_PROVIDER = "hashivault://nsp-e2e";

const PREFIX = "vault:v1:";

function seal(key: Buffer, plaintext: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64");
}

function unseal(key: Buffer, ciphertext: string): Buffer {
  if (!ciphertext.startsWith(PREFIX)) throw new Error("invalid ciphertext: no prefix");
  const raw = Buffer.from(ciphertext.slice(PREFIX.length), "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
}

function answer(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** The run's key and the token a request must carry, made by setup. */
interface Service {
  key: Buffer;
  token: string;
}

function handle(service: Service, req: IncomingMessage, text: string, res: ServerResponse): void {
  const [status, body] = reply(service, req, text);
  answer(res, status, body);
}

/** Transit's answer to one request: its status and body. */
function reply({ key, token }: Service, req: IncomingMessage, text: string): [number, object] {
  if (req.headers["x-vault-token"] !== token) return [403, { errors: ["permission denied"] }];
  const route = /^\/v1\/transit\/(encrypt|decrypt)\/[\w.-]+$/.exec(req.url ?? "");
  if (!route || (req.method !== "PUT" && req.method !== "POST"))
    return [404, { errors: [`no handler for route "${req.url}"`] }];
  let body: { plaintext?: unknown; ciphertext?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return [400, { errors: ["failed to parse JSON input"] }];
  }
  try {
    if (route[1] === "encrypt") {
      if (typeof body.plaintext !== "string") return [400, { errors: ["missing plaintext to encrypt"] }];
      return [200, { data: { ciphertext: seal(key, Buffer.from(body.plaintext, "base64")), key_version: 1 } }];
    }
    if (typeof body.ciphertext !== "string") return [400, { errors: ["missing ciphertext to decrypt"] }];
    return [200, { data: { plaintext: unseal(key, body.ciphertext).toString("base64") } }];
  } catch (err) {
    return [400, { errors: [(err as Error).message] }];
  }
}

/** vitest globalSetup: starts the service and leaves its address and token in the environment. */
export default async function setup(): Promise<() => Promise<void>> {
  const service: Service = { key: randomBytes(32), token: `hvs.${randomBytes(18).toString("base64url")}` };
  const server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => handle(service, req, text, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.VAULT_SERVER_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.VAULT_SERVER_TOKEN = service.token;
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
