// Mail objects made over the emulator's HTTP API as the parents a test needs; shared by
// test/emulator/mail-*.test.ts.
import { type Api, createZone, useAccounts } from "./emulator-http";

type Obj = Record<string, unknown>;

function mailObjects(h: { api: Api }) {
  let seq = 0;
  /** A name no other object of the file has. */
  const uniq = (base: string) => `${base}${++seq}`;

  /** The body of a create that must succeed; anything else fails the test with the API's answer. */
  async function created(method: string, path: string, body: unknown): Promise<any> {
    const r = await h.api(method, path, body);
    if (r.status !== 201 && r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  }

  async function newDomain(extra: Obj = {}): Promise<{ zone: any; domain: any }> {
    const zone = await createZone(h.api, `${uniq("mail")}.example`);
    const domain = await created("POST", "/mail/domains", { zone_id: zone.id, name: zone.name, ...extra });
    return { zone, domain };
  }

  async function zoneRecords(zoneId: number): Promise<any[]> {
    return (await h.api("GET", `/dns/zones/${zoneId}/records?limit=500`)).body.data;
  }

  const newServer = (extra: Obj = {}) =>
    created("POST", "/mail/servers", { name: uniq("mx"), ip4: "192.0.2.25", ...extra });
  const newMailbox = (domainId: number, local: string, extra: Obj = {}) =>
    created("POST", `/mail/domains/${domainId}/mailboxes`, { domain_id: domainId, local, ...extra });
  /** The API's whole answer to a mailbox create, refused or not. */
  const newMailboxRaw = (domainId: number, local: string) =>
    h.api("POST", `/mail/domains/${domainId}/mailboxes`, { domain_id: domainId, local });

  return { uniq, created, newDomain, zoneRecords, newServer, newMailbox, newMailboxRaw };
}

/** The file's emulator with the mail account (useAccounts), and the objects made over its API. */
export function useMailAccounts() {
  const h = useAccounts("mailer");
  return Object.assign(h, mailObjects(h));
}
