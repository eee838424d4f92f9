// The internet exchange (/ix): member applications, their ports and routes.
import { describe, expect, it } from "vitest";
import { useAccounts } from "../helpers/emulator-http";

const h = useAccounts("exchange");
const { other } = h;

describe("/ix", () => {
  it("applies, reads, patches, refuses a second application for the ASN, and has no delete", async () => {
    const c = await h.api("POST", "/ix/members", {
      asn: 64500,
      name: "Example",
      as_set: "as-example",
      contact: "noc@example.net",
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      id: expect.stringMatching(/^ixm_/),
      asn: 64500,
      as_set: "AS-EXAMPLE",
      listed: true,
      state: "applied",
      ports: [],
    });
    const id = c.body.id;
    expect((await h.api("GET", `/ix/members/${id}`)).body.name).toBe("Example");
    expect((await h.api("PATCH", `/ix/members/${id}`, { as_set: null, listed: false })).body).toMatchObject({
      as_set: null,
      listed: false,
    });
    expect((await h.api("PATCH", `/ix/members/${id}`, { asn: 64501 })).status).toBe(400);
    expect(
      (await h.api("POST", "/ix/members", { asn: 64500, name: "Again", contact: "noc@example.net" })).body.error.code,
    ).toBe("conflict");
    expect(
      (await h.api("POST", "/ix/members", { asn: 23456, name: "T", contact: "noc@example.net" })).body.error.code,
    ).toBe("validation_error");
    expect((await h.api("DELETE", `/ix/members/${id}`)).status).toBe(405);
    expect((await h.api("GET", "/ix/overview")).body.networks.map((n: any) => n.id)).toEqual([id]);
    expect((await h.api("GET", `/ix/members/${id}/routes?family=v6`)).body.data).toEqual([]);
    expect((await other("GET", `/ix/members/${id}`)).status).toBe(404);
  });
});
