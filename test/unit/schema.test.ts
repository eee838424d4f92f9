import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { buildPackageSchema } from "../../provider/src/framework/engine/schema";
import { packageInfo } from "../../provider/src/config/package-info";
import { functions, resources } from "../../provider/src/modules/all-definitions";
import { exampleSections } from "../../scripts/schema-examples.mjs";

const ROOT = join(__dirname, "..", "..");
// Where the project's checkout has it, beside the repository.
const SHARED_METASCHEMA = join(ROOT, "..", "shared", "pulumi", "package-metaschema.json");
const committed = JSON.parse(readFileSync(join(ROOT, "schema.json"), "utf8"));
// The examples' only copy is schema.json (examples.test.ts checks them against their sources).
const generated = buildPackageSchema(packageInfo, resources, functions, exampleSections(committed));

describe("schema.json", () => {
  it("is what the definitions generate (run `npm run generate` when this fails)", () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(generated)));
    // The same generator writes the docs and the resource table of docs/_index.md; none of them may be stale.
    const run = spawnSync(process.execPath, [join(ROOT, "scripts/generate.mjs"), "--check"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it(`validates against Pulumi's package metaschema (${existsSync(SHARED_METASCHEMA) ? "the repository's copy, compared with ../shared/pulumi" : "the repository's copy: no ../shared/pulumi beside it"})`, () => {
    // The repository's copy of pkg/codegen/schema/pulumi.json as published by Pulumi, so that a
    // clone with nothing beside it passes; `node scripts/refresh-from-shared.mjs` copies it again.
    const text = readFileSync(join(ROOT, "test/fixtures/pulumi-package-metaschema.json"), "utf8");
    if (existsSync(SHARED_METASCHEMA)) expect(text).toBe(readFileSync(SHARED_METASCHEMA, "utf8"));
    const metaschema = JSON.parse(text);
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
    const validate = ajv.compile(metaschema);
    const ok = validate(generated);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it("marks the token secret with its environment fallback, and types properties from zod", () => {
    expect(generated.config.variables.apiToken).toMatchObject({
      type: "string",
      secret: true,
      defaultInfo: { environment: ["NSP_API_TOKEN"] },
    });
    expect(generated.config.variables.baseUrl.defaultInfo).toEqual({ environment: ["NSP_BASE_URL"] });
    expect(generated.provider.inputProperties.apiToken.secret).toBe(true);
    const record = generated.resources["nsp:dns:Record"];
    expect(record.inputProperties.ttl.type).toBe("integer");
    expect(record.inputProperties.type.replaceOnChanges).toBe(true);
    expect(record.inputProperties.zoneId.type).toBe("string");
    expect(record.requiredInputs.sort()).toEqual(["content", "type", "zoneId"]);
    expect(record.description).toContain("<zoneId>/<recordId>");
    const zone = generated.resources["nsp:dns:Zone"];
    expect(zone.properties.delegation.$ref).toBe("#/types/nsp:dns:ZoneDelegation");
    expect(generated.types["nsp:dns:ZoneTransferSettings"].properties.allow).toMatchObject({
      type: "array",
      items: { type: "string" },
    });
    expect(generated.functions["nsp:dns:getZone"].outputs.properties.id.type).toBe("string");
  });
});
