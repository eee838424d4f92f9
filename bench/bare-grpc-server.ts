// P4's baseline: the least a Node gRPC plugin can do before the engine may call it. Bundled by
// esbuild like the plugin (scripts/bench.mjs): @grpc/grpc-js, bind 127.0.0.1:0, print the port.
import * as grpc from "@grpc/grpc-js";

const server = new grpc.Server();
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write(`bare-grpc-server: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
process.on("SIGTERM", () => server.forceShutdown());
