import { serve } from "./server";

// The engine starts the plugin with its own address as the last argument and reads the port from
// the first line of stdout; anything else on stdout would break that handshake.
async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const engineAddress = args[args.length - 1];
  const { port, server } = await serve(engineAddress);
  process.stdout.write(`${port}\n`);
  const stop = () => {
    server.tryShutdown(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`pulumi-resource-nsp: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
