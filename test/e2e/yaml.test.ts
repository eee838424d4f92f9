// examples/yaml driven by the real pulumi CLI against the emulator.
import { describeLifecycle } from "./harness/cli-lifecycle";

describeLifecycle({
  example: "yaml",
  zoneName: "yaml.example",
  programFile: "Pulumi.yaml",
  // The generated YAML has its own `resources:` section; its entries join the program's.
  addImported: (program, generated) => {
    const entries = generated.slice(generated.indexOf("resources:") + "resources:".length).replace(/^\n+/, "");
    return program.replace(/^resources:\n/m, `resources:\n${entries.trimEnd()}\n\n`);
  },
  www: { content: "192.0.2.2", ttl: 600 },
  oneTimeSecret: "tsigKey",
});
