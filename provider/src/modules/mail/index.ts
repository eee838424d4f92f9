// The mail module (nsp:mail:*): mail servers, domains and mailboxes.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { alias } from "./alias";
import { appPassword } from "./app-password";
import { destination } from "./destination";
import { domain } from "./domain";
import { domainRule } from "./domain-rule";
import { getDomain } from "./get-domain";
import { group } from "./group";
import { mailbox } from "./mailbox";
import { route } from "./route";
import { server } from "./server";

export const resources: readonly AnyResource[] = [
  server,
  domain,
  mailbox,
  appPassword,
  alias,
  group,
  domainRule,
  route,
  destination,
];
export const functions: readonly AnyFunction[] = [getDomain];
