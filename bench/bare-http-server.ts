// P6's baseline: a bare node:http server answering one fixed JSON body on loopback, with
// keep-alive like the emulator's server. Prints its port on the first stdout line.
// Usage: node bare-http-server.js <json-body>
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const body = Buffer.from(process.argv[2] ?? "{}");
const server = createServer({ keepAlive: true }, (_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.on("SIGTERM", () => process.exit(0));
