// The fleet's reading of the engine's events, on streams the pinned Pulumi CLI wrote: a preview of
// a change (one record's content changed, another's name, which replaces it) and a refresh
// preview after hand-made edits (a record's content changed, another record deleted).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { driftOf, errorsOf, parseEvents, planOf, requestsOf, summaryOf } from "../../fleet/src/engine-events";

const stream = (name: string) =>
  parseEvents(readFileSync(join(__dirname, "..", "fixtures", "engine-events", `${name}.jsonl`), "utf8"));

describe("engine events", () => {
  it("a preview's plan: one step per changed resource, a replacement counted once with the property that forces it", () => {
    const plan = planOf(stream("preview-replace-update"));
    expect(plan.changes).toEqual({ replace: 1, same: 2, update: 1 });
    expect(plan.steps).toEqual([
      { urn: "urn:pulumi:dev::ev::nsp:dns:Record::www", type: "nsp:dns:Record", op: "replace", properties: ["name"] },
      { urn: "urn:pulumi:dev::ev::nsp:dns:Record::txt", type: "nsp:dns:Record", op: "update", properties: ["content"] },
    ]);
  });

  it("a refresh preview's drift: the changed property with both values, and the object that is gone", () => {
    const events = stream("refresh-drift");
    expect(summaryOf(events)).toEqual({ delete: 1, same: 2, update: 1 });
    expect(driftOf(events).resources).toEqual([
      {
        urn: "urn:pulumi:dev::ev::nsp:dns:Record::www",
        type: "nsp:dns:Record",
        properties: [{ name: "content", recorded: "192.0.2.1", actual: "192.0.2.99" }],
      },
      { urn: "urn:pulumi:dev::ev::nsp:dns:Record::txt", type: "nsp:dns:Record", gone: true, properties: [] },
    ]);
  });

  it("the API requests the plugin made, from its debug lines, and the 429s among them", () => {
    expect(requestsOf(stream("preview-replace-update"))).toEqual({ requests: 2, rateLimited: 0 });
    const line = (message: string) => ({ diagnosticEvent: { severity: "debug", message } });
    expect(
      requestsOf([
        line("GET /dns/zones -> 429 in 3 ms\n"),
        line("GET /dns/zones -> 200 in 4 ms\n"),
        line("Registering resource [zone]\n"),
      ]),
    ).toEqual({ requests: 2, rateLimited: 1 });
  });

  it("a secret that drifted is recorded as changed, with neither value", () => {
    const metadata = {
      op: "update",
      urn: "urn:pulumi:s::p::nsp:mail:Mailbox::m",
      type: "nsp:mail:Mailbox",
      diffs: ["password"],
      old: { outputs: { password: "[secret]" } },
      new: { outputs: { password: "[secret]" } },
    };
    expect(driftOf([{ resOutputsEvent: { metadata } }]).resources[0]!.properties).toEqual([
      { name: "password", secret: true },
    ]);
  });

  it("a stream cut short keeps the events before the cut, and has no summary; errors are the error diagnostics once each", () => {
    const text = readFileSync(
      join(__dirname, "..", "fixtures", "engine-events", "preview-replace-update.jsonl"),
      "utf8",
    );
    const cut = parseEvents(text.slice(0, text.indexOf('"summaryEvent"') - 40));
    expect(summaryOf(cut)).toBeUndefined();
    const diagnostic = { diagnosticEvent: { severity: "error", message: "boom\n" } };
    expect(errorsOf([diagnostic, diagnostic, { diagnosticEvent: { severity: "info", message: "fine" } }])).toEqual([
      "boom",
    ]);
  });
});
