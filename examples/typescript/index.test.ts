// A unit test of the program with Pulumi's mocks, as users test their own stacks: no engine,
// no provider, no API. The mocks stand in for the provider only; the program is the real one.
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";

const created: { type: string; name: string; inputs: Record<string, unknown> }[] = [];

pulumi.runtime.setMocks(
  {
    newResource(args) {
      created.push({ type: args.type, name: args.name, inputs: args.inputs });
      return {
        id: `${args.name}-id`,
        state: { ...args.inputs, status: "pending", nameServers: ["ns1.test", "ns2.test"] },
      };
    },
    call(args) {
      if (args.token === "nsp:dns:getServices")
        return { services: [{ id: "7", name: "dns", type: "auth_dns", enabled: true }] };
      throw new Error(`unexpected call ${args.token}`);
    },
  },
  "nsp-example-typescript",
  "test",
  // As in an update, not a preview, so outputs the mocks leave unset resolve to undefined.
  false,
);

function value<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

let program: typeof import("./index");

beforeAll(async () => {
  program = await import("./index");
});

describe("the TypeScript example", () => {
  it("puts the zone on the account's auth_dns service", async () => {
    expect(await value(program.zone.serviceId)).toBe("7");
    expect(await value(program.zone.name)).toBe("typescript.example");
  });

  it("creates every record in that zone with a TTL the API accepts", async () => {
    const records = [...program.web, program.mx, program.spf];
    for (const record of records) {
      expect(await value(record.zoneId)).toBe("zone-id");
      const ttl = await value(record.ttl);
      if (ttl !== undefined) expect(ttl).toBeGreaterThanOrEqual(60);
    }
    expect(created.filter((r) => r.type === "nsp:dns:Record")).toHaveLength(4);
  });

  it("spreads www across two addresses", async () => {
    const contents = await Promise.all(program.web.map((r) => value(r.content)));
    expect(contents.sort()).toEqual(["192.0.2.10", "192.0.2.11"]);
  });
});
