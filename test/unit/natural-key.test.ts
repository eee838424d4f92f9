// Every kind nsp-discover can list is findable again without its id, so that a create refused
// as a duplicate names the object to import and a create a killed run left pending is found:
// by the natural key its definition declares, or by an import id its inputs make on their own.
import { describe, expect, it } from "vitest";
import { idFromInputs, naturalKeyOf } from "../../provider/src/framework/api/natural-key";
import { resources, resourcesByToken } from "../../provider/src/modules/all-definitions";

describe("natural keys", () => {
  const listed = resources.filter((r) => r.list);

  it.each(listed.map((r) => [r.token, r] as const))(
    "%s declares a natural key or is named by its inputs",
    (token, def) => {
      const args = Object.fromEntries(Object.keys(def.args.shape).map((k) => [k, "1"]));
      expect(
        naturalKeyOf(def).length > 0 || idFromInputs(def, args) !== undefined,
        `${token}: mark the inputs that name one object with .meta({ key: true })`,
      ).toBe(true);
      const parentInput = def.list!.parent?.input;
      if (parentInput) expect(Object.keys(def.args.shape)).toContain(parentInput);
    },
  );

  it("makes the import id from the inputs only where they name the object", () => {
    expect(idFromInputs(resourcesByToken.get("nsp:dns:ZoneDnssec")!, { zoneId: "42" })).toBe("42");
    expect(idFromInputs(resourcesByToken.get("nsp:org:Apps")!, {})).toBe("apps");
    expect(idFromInputs(resourcesByToken.get("nsp:mail:Mailbox")!, { domainId: "6", local: "m1" })).toBeUndefined();
    expect(idFromInputs(resourcesByToken.get("nsp:vgate:Extension")!, { pbxId: "pbx_1" })).toBeUndefined();
  });
});
