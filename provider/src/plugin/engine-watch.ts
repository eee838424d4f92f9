import * as grpc from "@grpc/grpc-js";

/**
 * Calls `gone` once the engine at `address` stops answering: its process died (a SIGKILL, a CI
 * runner that vanished) and took its gRPC port with it. Pulumi's own plugins watch the engine the
 * same way, through the standard gRPC health service (grpc.health.v1.Health) that the engine
 * serves; a server without that service still answers, with UNIMPLEMENTED, which counts as alive.
 * A busy engine is alive too: only a connection refused twice in a row counts as gone, never a
 * slow answer.
 */
export function watchEngine(address: string, gone: (reason: string) => void, everyMs = 1000): () => void {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  let stopped = false;
  let refused = 0;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    client.makeUnaryRequest<Buffer, Buffer>(
      "/grpc.health.v1.Health/Check",
      // An empty HealthCheckRequest (all services) is zero bytes on the wire; the answer is not read.
      (request) => request,
      (response) => response,
      Buffer.alloc(0),
      (err) => {
        if (stopped) return;
        refused = err && err.code === grpc.status.UNAVAILABLE ? refused + 1 : 0;
        if (refused >= 2) {
          stop();
          gone(`the engine at ${address} is gone (${err?.details || "connection refused"})`);
          return;
        }
        timer = setTimeout(check, everyMs);
        timer.unref();
      },
    );
  };
  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    client.close();
  };
  check();
  return stop;
}
