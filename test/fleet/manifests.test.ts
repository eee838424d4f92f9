// `nsp-fleet manifests --operator`, checked against the Pulumi Kubernetes Operator's published
// Stack CRD (its v1 schema, test/fixtures/pulumi-operator-stack-v1.schema.json): every object is
// valid, and every field it sets is one the CRD declares (a structural schema does not refuse an
// unknown field: the API server drops it silently, so a misspelt field would be lost unseen).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv from "ajv";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { parseCustomers } from "../../fleet/src/customers";
import { operatorManifests, operatorStacks, parseResync, projectName } from "../../fleet/src/manifests";

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  [k: string]: unknown;
};
const crd = JSON.parse(
  readFileSync(join(__dirname, "..", "fixtures", "pulumi-operator-stack-v1.schema.json"), "utf8"),
) as { group: string; kind: string; version: string; openAPIV3Schema: Schema };

/** The paths of the fields `value` sets that `schema` does not declare. */
function undeclared(value: unknown, schema: Schema, path: string): string[] {
  if (schema["x-kubernetes-preserve-unknown-fields"]) return [];
  if (Array.isArray(value))
    return value.flatMap((v, i) => (schema.items ? undeclared(v, schema.items, `${path}[${i}]`) : []));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const sub =
      schema.properties?.[k] ??
      (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
    return sub ? undeclared(v, sub, `${path}.${k}`) : [`${path}.${k}`];
  });
}

/** The CRD's schema as JSON Schema for ajv: Kubernetes' own keywords are annotations. */
function forAjv(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forAjv);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => !k.startsWith("x-kubernetes-"))
      .map(([k, v]) => [
        k,
        k === "properties"
          ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, forAjv(s)]))
          : forAjv(v),
      ]),
  );
}

const customers = parseCustomers(
  JSON.stringify([
    { ref: "acme", zone: "acme.example", records: [{ name: "www", type: "A", content: "192.0.2.10" }] },
    { ref: "Own_Token", zone: "own.example", tokenEnv: "OWN_NSP_TOKEN" },
  ]),
  "customers.json",
);
const options = {
  project: "nsp-fleet",
  repo: "https://github.com/example/nsp",
  branch: "main",
  repoDir: "examples/fleet",
  secret: "nsp-fleet",
  backend: "postgres://fleet@db:5432/state",
};

describe("operator manifests", () => {
  it.each([
    ["", options],
    [", with the periodic resync", { ...options, resyncMinutes: 30 }],
  ])("are Stack objects the Operator's CRD accepts, every field one it declares%s", (_, opts) => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(forAjv(crd.openAPIV3Schema) as object);
    const objects = load(
      `[${operatorManifests(customers, opts)
        .split("---\n")
        .filter(Boolean)
        .map((doc) => JSON.stringify(load(doc)))
        .join(",")}]`,
    ) as object[];
    expect(objects).toEqual(operatorStacks(customers, opts));
    expect(objects).toHaveLength(2);
    for (const o of objects) {
      expect(validate(o), JSON.stringify(validate.errors)).toBe(true);
      // metadata is Kubernetes' ObjectMeta, which the CRD leaves to the API server.
      const { metadata, ...rest } = o as { metadata: unknown };
      expect(metadata).toBeDefined();
      expect(undeclared(rest, crd.openAPIV3Schema, "")).toEqual([]);
      expect(o).toMatchObject({ apiVersion: `${crd.group}/${crd.version}`, kind: crd.kind });
    }
  });

  it("run the customer project with the customer in its configuration and the tokens from the secret only", () => {
    const [acme, own] = operatorStacks(customers, options) as {
      metadata: { name: string };
      spec: {
        stack: string;
        config: Record<string, string>;
        envRefs: Record<string, { secret: { name: string; key: string } }>;
      };
    }[];
    expect(acme!.metadata.name).toBe("nsp-fleet-acme");
    expect(acme!.spec.stack).toBe("acme");
    expect(JSON.parse(acme!.spec.config["nsp-fleet:customer"]!)).toEqual(customers[0]);
    expect(Object.keys(acme!.spec.envRefs).sort()).toEqual(["NSP_PARTNER_TOKEN", "PULUMI_CONFIG_PASSPHRASE"]);
    // A Kubernetes name has no capitals or '_'.
    expect(own!.metadata.name).toBe("nsp-fleet-own-token");
    expect(own!.spec.envRefs.OWN_NSP_TOKEN).toEqual({
      type: "Secret",
      secret: { name: "nsp-fleet", key: "OWN_NSP_TOKEN" },
    });
  });

  it("never write a backend URL's password: the workspace reads that URL from the secret", () => {
    const withPassword = { ...options, backend: "postgres://fleet:s3cret-pw@db:5432/state" };
    const text = operatorManifests(customers, withPassword);
    expect(text).not.toContain("s3cret-pw");
    const [acme] = operatorStacks(customers, withPassword) as {
      spec: { backend?: string; envRefs: Record<string, { secret: { key: string } }> };
    }[];
    expect(acme!.spec.backend).toBeUndefined();
    expect(acme!.spec.envRefs.PULUMI_BACKEND_URL!.secret.key).toBe("PULUMI_BACKEND_URL");
    // Without a password the URL is no secret, and stays in the object where a reader sees it.
    const [plain] = operatorStacks(customers, options) as {
      spec: { backend?: string; envRefs: Record<string, unknown> };
    }[];
    expect(plain!.spec.backend).toBe(options.backend);
    expect(plain!.spec.envRefs.PULUMI_BACKEND_URL).toBeUndefined();
  });

  it(
    "with --resync-minutes, run each stack again every N minutes at the same commit, refreshing it first; " +
      "without, only for a new commit",
    () => {
      const [resynced] = operatorStacks(customers, { ...options, resyncMinutes: 90 }) as {
        spec: Record<string, unknown>;
      }[];
      expect(resynced!.spec).toMatchObject({
        resyncFrequencySeconds: 5400,
        continueResyncOnCommitMatch: true,
        refresh: true,
      });
      // The fields are the CRD's own, with the types it declares.
      const spec = crd.openAPIV3Schema.properties!.spec!.properties!;
      expect([spec.resyncFrequencySeconds!.type, spec.continueResyncOnCommitMatch!.type, spec.refresh!.type]).toEqual([
        "integer",
        "boolean",
        "boolean",
      ]);
      const [plain] = operatorStacks(customers, options) as { spec: Record<string, unknown> }[];
      for (const field of ["resyncFrequencySeconds", "continueResyncOnCommitMatch", "refresh"])
        expect(plain!.spec[field], field).toBeUndefined();
    },
  );

  it("parseResync takes whole minutes from 1 to a week, naming the flag otherwise", () => {
    expect(parseResync(undefined, "--resync-minutes")).toBeUndefined();
    expect(parseResync("1", "--resync-minutes")).toBe(1);
    expect(parseResync("10080", "--resync-minutes")).toBe(10080);
    for (const bad of ["0", "10081", "1.5", "-5", "60s", ""]) {
      expect(() => parseResync(bad, "--resync-minutes")).toThrow(
        `--resync-minutes: "${bad}" must be a whole number of minutes from 1 to 10080 (a week)`,
      );
    }
    // The flag given with no value (a boolean from the parser) is refused the same way.
    expect(() => parseResync(true, "--resync-minutes")).toThrow(/^--resync-minutes: "" must be a whole number/);
  });

  it("refuse two customers that would be one Stack object", () => {
    const clash = parseCustomers(
      JSON.stringify([
        { ref: "a_b", zone: "a.example" },
        { ref: "a-b", zone: "b.example" },
      ]),
      "f",
    );
    expect(() => operatorStacks(clash, options)).toThrow(
      /"a-b" and "a_b" would both be the Stack object nsp-fleet-a-b/,
    );
  });

  it(
    "name the configuration and the objects after the project's name in its Pulumi.yaml, and say which " +
      "file is missing or nameless",
    () => {
      expect(projectName(join(__dirname, "..", "..", "examples", "fleet"))).toBe("nsp-fleet");
      const dir = mkdtempSync(join(tmpdir(), "nsp-manifests-"));
      try {
        expect(() => projectName(dir)).toThrow(
          `${join(dir, "Pulumi.yaml")}: cannot read it (ENOENT); run nsp-fleet manifests in the customer project's folder or name it with --project`,
        );
        writeFileSync(join(dir, "Pulumi.yaml"), "runtime: nodejs\n");
        expect(() => projectName(dir)).toThrow(`${join(dir, "Pulumi.yaml")}: name: the project has no name`);
        writeFileSync(join(dir, "Pulumi.yaml"), "name: Customers\nruntime: nodejs\n");
        const [acme] = operatorStacks(customers, { ...options, project: projectName(dir) }) as {
          metadata: { name: string; labels: Record<string, string> };
          spec: { config: Record<string, string> };
        }[];
        expect(acme!.metadata.name).toBe("customers-acme");
        expect(acme!.metadata.labels["app.kubernetes.io/part-of"]).toBe("Customers");
        expect(Object.keys(acme!.spec.config)).toEqual(["Customers:customer"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
