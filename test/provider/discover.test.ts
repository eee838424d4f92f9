// nsp-discover (the built bin) against a live emulator account, then every object it found
// imported through the plugin over gRPC as `pulumi import` does: Read with only the id, Check,
// and a Diff that finds no change, counting the requests those Reads make.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { discover } from "../../provider/src/discover/discover";
import { ApiClient } from "../../provider/src/client";
import { resources } from "../../provider/src/modules/all-definitions";
import { seedAccount, type Seeded } from "../helpers/account-seed";
import { ROOT } from "../helpers/plugin";
import { useProvider } from "../helpers/use-provider";

interface ImportFile {
  nameTable: Record<string, string>;
  resources: {
    type: string;
    name: string;
    id: string;
    inputs?: Record<string, unknown>;
    outputs?: Record<string, unknown>;
  }[];
}

const { emulator, control, plugin, checked, token } = useProvider({
  account: "demo",
  config: { requestsPerMinute: 0 },
});
let seeded: Seeded;

async function runDiscover(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, "bin/nsp-discover"), ...args], {
    env: { PATH: process.env.PATH, NSP_API_TOKEN: token, NSP_BASE_URL: emulator.baseUrl, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) => child.on("close", (c) => resolve(c ?? -1)));
  return { code, stdout, stderr };
}

async function discoverFile(args: string[] = []): Promise<ImportFile> {
  const run = await runDiscover(args);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout + run.stderr).not.toContain(token);
  return JSON.parse(run.stdout) as ImportFile;
}

beforeAll(async () => {
  seeded = await seedAccount(control, { zones: 3, records: 300 });
}, 60_000);

describe("nsp-discover", () => {
  it("knows every resource type: discovered from a list, or left out with a reason", () => {
    expect(resources.filter((r) => !r.list === !r.notListed).map((r) => r.token)).toEqual([]);
  });

  it("reads the account with a few lists, and every object is in the file or reported left out", async () => {
    await control.resetStats();
    const reportPath = join(tmpdir(), `nsp-discover-report-${process.pid}.json`);
    const run = await runDiscover(["--report", reportPath]);
    expect(run.code, run.stderr).toBe(0);
    const stats = await control.stats();
    expect(stats.mutating).toBe(0);
    expect(stats.total).toBeLessThanOrEqual(60);
    expect(run.stderr).toMatch(/objects to import/);
    const file = JSON.parse(run.stdout) as ImportFile;
    expect(file.nameTable).toEqual({});

    // Names: readable, unique across types (the program pulumi import writes declares each once,
    // and refers to a zone only when no other object shares its name), a suffix only where two
    // records share zone, name and type.
    const all = file.resources.map((r) => r.name);
    expect(new Set(all).size).toBe(all.length);
    expect(file.resources.filter((r) => r.name === "adopt0-example").map((r) => r.type)).toEqual(["nsp:dns:Zone"]);
    expect(file.resources.find((r) => r.type === "nsp:dns:ZoneDnssec")?.name).toBe("adopt0-example-zone-dnssec");
    const names = file.resources.filter((r) => r.type === "nsp:dns:Record").map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining(["adopt0-example-www-a", "adopt0-example-www-a-2", "adopt1-example-txt0-txt"]),
    );
    expect(names.filter((n) => /-\d+$/.test(n))).toEqual(["adopt0-example-www-a-2"]);

    // Completeness: every record of every zone is imported or reported as published by the mail domain.
    const report = JSON.parse(readFileSync(reportPath, "utf8")) as {
      leftOut: { type: string; id: string; reason: string }[];
    };
    const ids = new Set(file.resources.map((r) => `${r.type} ${r.id}`));
    const left = new Set(report.leftOut.map((r) => `${r.type} ${r.id}`));
    for (const zoneId of seeded.zoneIds) {
      for (const r of await control.list<{ id: number }>(`/dns/zones/${zoneId}/records`)) {
        const key = `nsp:dns:Record ${zoneId}/${r.id}`;
        expect(ids.has(key) || left.has(key), key).toBe(true);
      }
    }
    expect(
      report.leftOut.filter((l) => l.type === "nsp:dns:Record").every((l) => /published by mail domain/.test(l.reason)),
    ).toBe(true);
    expect(file.resources.filter((r) => r.type === "nsp:dns:Record")).toHaveLength(seeded.records);
    const types = new Set(file.resources.map((r) => r.type));
    for (const t of [
      "nsp:dns:Zone",
      "nsp:dns:ZoneDnssec",
      "nsp:dns:ZoneTransfer",
      "nsp:cdn:Site",
      "nsp:security:Rule",
      "nsp:rpki:Ca",
      "nsp:rpki:Roa",
      "nsp:mail:Domain",
      "nsp:mail:Mailbox",
      "nsp:mail:Alias",
      "nsp:mail:Group",
      "nsp:link:Tunnel",
      "nsp:link:TunnelHostnames",
      "nsp:vgate:Pbx",
      "nsp:vgate:Extension",
      "nsp:vgate:RingGroup",
      "nsp:vgate:Ivr",
      "nsp:index:Webhook",
    ]) {
      expect(types, t).toContain(t);
    }
    // The sites the tunnel's hostnames made belong to the TunnelHostnames, not to a second Site.
    expect(file.resources.filter((r) => r.type === "nsp:cdn:Site")).toHaveLength(1);
    expect(report.leftOut.filter((l) => l.type === "nsp:cdn:Site")).toHaveLength(2);
    rmSync(reportPath, { force: true });

    // Stable: a later run gives every object the same name, and a record added meanwhile with the
    // same zone, name and type takes the next suffix instead of moving the others.
    const www = (f: ImportFile) => f.resources.filter((r) => r.name.startsWith("adopt0-example-www-a"));
    const added = await control.post<{ id: number }>(`/dns/zones/${seeded.zoneIds[0]}/records`, {
      name: "www",
      type: "A",
      content: "192.0.2.1",
      ttl: 300,
    });
    const again = await discoverFile();
    expect(www(again)).toEqual([
      ...www(file),
      { type: "nsp:dns:Record", name: "adopt0-example-www-a-3", id: `${seeded.zoneIds[0]}/${added.id}` },
    ]);
    await control.delete(`/dns/zones/${seeded.zoneIds[0]}/records/${added.id}`);
    expect(await discoverFile()).toEqual(file);
  });

  it("imports every object through Read, Check and Diff with no change, with a few list pages for the records", async () => {
    const file = await discoverFile();
    await control.resetStats();
    const reads = await Promise.all(file.resources.map((r) => plugin.read(r.type, r.name, r.id)));
    const stats = await control.stats();
    const records = file.resources.filter((r) => r.type === "nsp:dns:Record").length;
    const zones = seeded.zoneIds.length;
    const others = file.resources.length - records - zones;
    // One GET per zone, ceil(n/500) pages of records per zone, one request per other object.
    expect(stats.total).toBeLessThanOrEqual(Math.ceil(records / 500) + 2 * zones + others);
    expect(stats.mutating).toBe(0);
    await Promise.all(
      file.resources.map(async (r, i) => {
        const read = reads[i]!;
        expect(read.id, `${r.type} ${r.id}`).not.toBe("");
        const inputs = await checked(r.type, read.inputs);
        const d = await plugin.diff(r.type, r.name, read.id, read.properties, inputs, read.inputs);
        expect(d.changes, `${r.type} ${r.id}: ${JSON.stringify(d)}`).toBe(false);
      }),
    );
  }, 120_000);

  it("imports a zone under a name no mail domain's name equals, even a domain named as the zone", async () => {
    // pulumi import's program refers to another object where a value equals its id or name; a
    // zone's name equal to its mail domain's would refer both ways, a cycle it resolves with literal ids.
    const file = await discoverFile(["--type", "nsp:dns:Zone", "--type", "nsp:mail:Domain"]);
    const reads = await Promise.all(
      file.resources.map(async (r) => ({ ...r, read: await plugin.read(r.type, r.name, r.id) })),
    );
    const zones = reads.filter((r) => r.type === "nsp:dns:Zone");
    const domainNames = reads.filter((r) => r.type === "nsp:mail:Domain").map((r) => r.read.properties.name);
    expect(zones.some((z) => domainNames.includes(z.read.properties.name))).toBe(true);
    for (const z of zones) {
      expect(domainNames).not.toContain(z.read.inputs.name);
      expect((await checked(z.type, z.read.inputs)).name).toBe(z.read.properties.name);
    }
  });

  it("filters by type and zone, and emits one ZoneRecords per zone on request", async () => {
    const dns = await discoverFile(["--type", "nsp:dns:*"]);
    expect(new Set(dns.resources.map((r) => r.type))).toEqual(
      new Set(["nsp:dns:Zone", "nsp:dns:Record", "nsp:dns:ZoneDnssec", "nsp:dns:ZoneTransfer", "nsp:dns:Range"]),
    );

    const one = await discoverFile(["--zone", "adopt1.example", "--type", "nsp:dns:Zone,nsp:dns:Record"]);
    expect(one.resources.filter((r) => r.type === "nsp:dns:Zone").map((r) => r.id)).toEqual([
      String(seeded.zoneIds[1]),
    ]);
    expect(one.resources.every((r) => r.id.startsWith(`${seeded.zoneIds[1]}`))).toBe(true);

    // Everything of the zone and what hangs from it: the mail domain on it and its mailboxes too.
    const mailZone = await discoverFile(["--zone", "adopt0.example"]);
    const domainIds = mailZone.resources.filter((r) => r.type === "nsp:mail:Domain").map((r) => r.id);
    expect(domainIds).toHaveLength(1);
    for (const type of ["nsp:mail:Mailbox", "nsp:mail:Alias", "nsp:mail:Group"]) {
      const of = mailZone.resources.filter((r) => r.type === type);
      expect(of.length, type).toBeGreaterThan(0);
      expect(
        of.every((r) => r.id.startsWith(`${domainIds[0]}/`)),
        type,
      ).toBe(true);
    }
    expect(mailZone.resources.some((r) => r.type.startsWith("nsp:vgate:") || r.type === "nsp:index:Webhook")).toBe(
      false,
    );

    // A TXT at the apex of the mail zone, in the same record set as the mail domain's SPF record.
    const apexTxt = await control.post<{ id: number }>(`/dns/zones/${seeded.zoneIds[0]}/records`, {
      name: "@",
      type: "TXT",
      content: "site-verification=abc",
    });
    const whole = await discoverFile(["--zone-records", "--type", "nsp:dns:*"]);
    await control.delete(`/dns/zones/${seeded.zoneIds[0]}/records/${apexTxt.id}`);
    const lists = whole.resources.filter((r) => r.type === "nsp:dns:ZoneRecords");
    expect(lists).toHaveLength(3);
    // Its own id for each, never the zone's: the program pulumi import writes then refers to the zone.
    const zoneIds = new Set(whole.resources.filter((r) => r.type === "nsp:dns:Zone").map((r) => r.id));
    expect(lists.filter((r) => zoneIds.has(r.id))).toEqual([]);
    // The zone with the mail domain names the record sets it adopts, leaving out every set that
    // holds a published record; the apex TXT beside the SPF record is a Record of its own.
    const withMail = lists.find((r) => r.id.startsWith(`${seeded.zoneIds[0]}/`))!;
    const sets = withMail.id.split("/")[1]!.split(",");
    expect(sets).toContain("www");
    for (const published of ["@", "@:TXT", "@:MX", "_dmarc", "_dmarc:TXT"]) expect(sets).not.toContain(published);
    expect(whole.resources.filter((r) => r.type === "nsp:dns:Record")).toEqual([
      { type: "nsp:dns:Record", name: "adopt0-example-apex-txt", id: `${seeded.zoneIds[0]}/${apexTxt.id}` },
    ]);
    for (const r of lists) {
      const read = await plugin.read(r.type, r.name, r.id);
      const inputs = await checked(r.type, read.inputs);
      expect((await plugin.diff(r.type, r.name, read.id, read.properties, inputs, read.inputs)).changes).toBe(false);
    }
  }, 120_000);

  it("writes a zone above the size as one ZoneRecords holding its zone file and its state, which diffs " +
    "with no change and refreshes as it is", async () => {
    const zone = await control.post<{ id: number }>("/dns/zones", {
      service_id: (await control.services()).find((s) => s.type === "auth_dns")!.id,
      name: "big.example",
    });
    const lines = Array.from({ length: 600 }, (_, i) => `h${i} 300 IN A 10.0.${i >> 8}.${i & 255}`);
    await control.post(`/dns/zones/${zone.id}/import`, { text: `${lines.join("\n")}\n`, mode: "apply" });
    const only = (file: ImportFile) => file.resources.filter((r) => r.id.startsWith(`${zone.id}/`));
    try {
      await control.resetStats();
      const run = await runDiscover(["--zone", "big.example"]);
      expect(run.code, run.stderr).toBe(0);
      // Its records' pages, then one export for its zone file.
      expect((await control.stats()).byRoute).toMatchObject({
        "GET /dns/zones/:id/records": 2,
        "GET /dns/zones/:id/export": 1,
      });
      expect(run.stderr).toContain("1 zones as their zone file (nsp:dns:ZoneRecords, more than 500 records)");
      expect(run.stderr).toContain(
        "next, in the project's folder with its stack: `npx nsp-discover --import import.json --out index.ts`",
      );
      const [entry, ...rest] = only(JSON.parse(run.stdout) as ImportFile);
      expect(rest).toEqual([]);
      expect(entry).toMatchObject({ type: "nsp:dns:ZoneRecords", name: "big-example-zone-records" });
      const zoneFile = entry!.inputs!.zoneFile as string;
      expect(zoneFile.split("\n")).toHaveLength(602);
      expect(zoneFile.startsWith("$ORIGIN big.example.\nh0 300 IN A 10.0.0.0\nh1 300 IN A 10.0.0.1\n")).toBe(true);
      expect(entry!.inputs).toEqual({ zoneId: String(zone.id), zoneFile });
      expect(entry!.outputs).toMatchObject({
        zoneId: String(zone.id),
        zoneFile,
        recordSets: expect.arrayContaining(["h599 A"]),
      });
      // As pulumi import takes it: the file's inputs checked, against its outputs, no change; a refresh keeps the zone file.
      const inputs = await checked(entry!.type, entry!.inputs!);
      expect(
        (await plugin.diff(entry!.type, entry!.name, entry!.id, entry!.outputs!, inputs, entry!.inputs!)).changes,
      ).toBe(false);
      const refreshed = await plugin.read(entry!.type, entry!.name, entry!.id, entry!.outputs!, inputs);
      expect(refreshed.properties.zoneFile).toBe(zoneFile);
      expect(refreshed.inputs).toEqual(inputs);

      // The size is the user's: at 600 or one by one it is 600 Records; --zone-records makes even a small zone one ZoneRecords.
      for (const args of [["--zone-records-above", "600"], ["--records-one-by-one"]]) {
        const types = only(await discoverFile(["--zone", "big.example", ...args])).map((r) => r.type);
        expect(types, args.join(" ")).toEqual(Array(600).fill("nsp:dns:Record"));
      }
      const small = (
        await discoverFile([
          "--zone",
          "adopt1.example",
          "--zone-records",
          "--type",
          "nsp:dns:Zone,nsp:dns:Record,nsp:dns:ZoneRecords",
        ])
      ).resources;
      expect(small.map((r) => r.type)).toEqual(["nsp:dns:Zone", "nsp:dns:ZoneRecords"]);
      expect(small[1]!.inputs!.zoneFile).toMatch(/^\$ORIGIN adopt1\.example\.\n/);
    } finally {
      await control.delete(`/dns/zones/${zone.id}`);
    }
  }, 120_000);

  it("leaves out what other stacks track, and no ZoneRecords set claims a tracked record", async () => {
    const client = new ApiClient({ baseUrl: emulator.baseUrl, token, requestsPerMinute: 0 });
    try {
      const zone = String(seeded.zoneIds[1]);
      const records = await control.list<{ id: number; name: string; type: string }>(
        `/dns/zones/${seeded.zoneIds[0]}/records`,
      );
      const [www1, www2] = records.filter((r) => r.name === "www" && r.type === "A");
      // As a stack's state holds them: a zone by its id, a record by its own id.
      const tracked = new Map([
        [`nsp:dns:Zone ${zone}`, "prod"],
        [`nsp:dns:Record ${www1!.id}`, "prod"],
      ]);
      const result = await discover(client, resources, {
        types: ["nsp:dns:Zone", "nsp:dns:ZoneRecords"],
        zoneRecordsAbove: 0,
        tracked,
      });
      const ids = result.file.resources.map((r) => `${r.type} ${r.id}`);
      expect(ids).not.toContain(`nsp:dns:Zone ${zone}`);
      expect(result.leftOut).toEqual(
        expect.arrayContaining([
          { type: "nsp:dns:Zone", id: zone, reason: "tracked by stack prod" },
          { type: "nsp:dns:Record", id: `${seeded.zoneIds[0]}/${www1!.id}`, reason: "tracked by stack prod" },
        ]),
      );
      // The other www A record stays, on its own: its set holds the tracked one.
      expect(ids).toContain(`nsp:dns:Record ${seeded.zoneIds[0]}/${www2!.id}`);
      const sets = result.file.resources
        .find((r) => r.type === "nsp:dns:ZoneRecords" && r.id.startsWith(`${seeded.zoneIds[0]}/`))!
        .id.split("/")[1]!
        .split(",");
      expect(sets).not.toContain("www");
      expect(sets).not.toContain("www:A");
    } finally {
      await client.close();
    }
  });

  it("rejects bad options before any request, naming the option, and never prints the token", async () => {
    await control.resetStats();
    const badType = await runDiscover(["--type", "nsp:nope:*"]);
    expect(badType.code).not.toBe(0);
    expect(badType.stderr).toMatch(/--type nsp:nope:\* matches no resource type/);
    const badRate = await runDiscover(["--requests-per-minute=-3"]);
    expect(badRate.code).toBe(2);
    expect(badRate.stderr).toMatch(/--requests-per-minute/);
    const refused: [string[], RegExp][] = [
      [
        ["--zone-records-above=-1"],
        /^nsp-discover: --zone-records-above: must be a whole number of records, 0 or more; got "-1"$/m,
      ],
      [
        ["--zone-records-above", "many"],
        /^nsp-discover: --zone-records-above: must be a whole number of records, 0 or more; got "many"$/m,
      ],
      [
        ["--zone-records", "--records-one-by-one"],
        /--zone-records and --records-one-by-one each choose how a zone's records are written: give one/,
      ],
      [["--import", "import.json"], /--import needs --out <file>/],
      [["--out", "index.ts"], /--out goes with --import <file>/],
      [
        ["--import", "import.json", "--out", "index.ts", "--part-size", "0"],
        /--part-size: must be a whole number of objects, 1 or more; got "0"/,
      ],
      [
        ["--import", "import.json", "--out", "index.ts", "--type", "nsp:dns:*"],
        /--import adopts a file nsp-discover already wrote: --type belongs to the run that writes it/,
      ],
      [
        ["--import", join(tmpdir(), "nsp-no-such-import.json"), "--out", "index.ts"],
        /--import .*nsp-no-such-import\.json: no such file/,
      ],
    ];
    for (const [args, message] of refused) {
      const run = await runDiscover(args);
      expect(run.code, args.join(" ")).not.toBe(0);
      expect(run.stderr, args.join(" ")).toMatch(message);
    }
    const noToken = await runDiscover([], { NSP_API_TOKEN: "" });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/NSP_API_TOKEN/);
    expect((await control.stats()).total).toBe(0);
    const wrongToken = await runDiscover([], { NSP_API_TOKEN: "svc_wrongwrongwrong" });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toMatch(/unauthorized|401/i);
    expect(wrongToken.stderr).not.toContain("svc_wrongwrongwrong");
  }, 60_000);
});
