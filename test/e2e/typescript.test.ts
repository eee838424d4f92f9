// examples/typescript (the generated Node.js SDK) driven by the real pulumi CLI against the emulator.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./harness/pulumi-cli";
import { describeLifecycle } from "./harness/cli-lifecycle";

describeLifecycle({
  example: "typescript",
  zoneName: "typescript.example",
  programFile: "index.ts",
  // The generated code repeats the imports the program already has.
  addImported: (program, generated) =>
    `${program}\n${generated
      .split("\n")
      .filter((l) => !l.startsWith("import "))
      .join("\n")}\n`,
  compile: (dir) => {
    execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], {
      stdio: "pipe",
    });
  },
  www: { content: "192.0.2.10", ttl: 300 },
  oneTimeSecret: "tsigKey",
});
