import type { HeldKind } from "../../framework/definition/holds";
import { rule } from "./rule";

/**
 * The security rules of one zone or one site, which the zone's or the site's delete takes with it
 * (held-objects.ts): listed through `/security/rules`, filtered by their parent.
 */
export function heldRules(parent: "zone_id" | "site_id"): HeldKind {
  return {
    of: rule,
    names: ["security rule", "security rules"],
    // The rules' list facts have no parent: it is one list of the account's rules, filtered.
    listPath: () => "/security/rules",
    query: (id) => ({ [parent]: id }),
    nameOf: (r) => `${String(r.action)} ${String(r.field)} ${String(r.op)} ${String(r.value)}`,
  };
}
