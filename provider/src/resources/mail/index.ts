// The mail area's definitions, listed once for the registry.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getDomain } from "../../functions/mail/get-domain";
import { alias } from "./alias";
import { appPassword } from "./app-password";
import { destination } from "./destination";
import { domain } from "./domain";
import { domainRule } from "./domain-rule";
import { group } from "./group";
import { mailbox } from "./mailbox";
import { route } from "./route";
import { server } from "./server";

export const mailResources: readonly AnyResource[] = [server, domain, mailbox, appPassword, alias, group, domainRule, route, destination];
export const mailFunctions: readonly AnyFunction[] = [getDomain];
