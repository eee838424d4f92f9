// The parents a mail resource needs (a zone, a domain, a mailbox), made straight through the API
// so that a test exercises only the resource it is about; shared by test/provider/mail-*.test.ts.
import type { EmulatorControl } from "./emulator-control";
import { useProvider, type ProviderOptions } from "./use-provider";

type Obj = Record<string, any>;

export const MAIL_ACCOUNT = "mailer";

/**
 * These files change objects through the API between Reads of one plugin process; batched reads
 * (one list per parent and command) are tested on their own, by a plugin that turns them on.
 */
const mailProviderOptions: ProviderOptions = { account: MAIL_ACCOUNT, config: { batchReads: false } };

/** useProvider with the mail account, and the parents made through its API. */
export function useMailProvider() {
  const provider = useProvider(mailProviderOptions);
  return { ...provider, ...mailParents(provider.control) };
}

function mailParents(control: EmulatorControl) {
  let seq = 0;
  let dnsService: string | undefined;
  const serial = () => ++seq;
  /** A name no other object of the file has. */
  const uniq = (base: string) => `${base}-${serial()}`;

  async function dnsServiceId(): Promise<string> {
    dnsService ??= String((await control.services()).find((s) => s.type === "auth_dns")!.id);
    return dnsService;
  }

  async function apiZone(): Promise<Obj> {
    return control.post("/dns/zones", { service_id: Number(await dnsServiceId()), name: `${uniq("mz")}.example` });
  }

  async function apiDomain(extra: Obj = {}): Promise<Obj> {
    const zone = await apiZone();
    return control.post("/mail/domains", { zone_id: zone.id, name: zone.name, ...extra });
  }

  async function apiMailbox(domainId: number, local = uniq("box")): Promise<Obj> {
    return control.post(`/mail/domains/${domainId}/mailboxes`, { domain_id: domainId, local });
  }

  return { serial, uniq, dnsServiceId, apiZone, apiDomain, apiMailbox };
}
