// Preloaded into a plugin process by bench P9 (NODE_OPTIONS=--require): on SIGUSR2 it writes
// the process's CPU time so far (user + system, every thread, in µs) to stderr, so that the
// benchmark reads what each call cost without changing the plugin.
process.on("SIGUSR2", () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`cpu-probe ${user + system}\n`);
});
