// Every id format is written once, in framework/api/validators.ts, and every id parser takes its
// patterns from there (through framework/api/ids.ts): a regex checking an id anywhere else in
// provider/src fails here. What counts as such a regex is in test/helpers/id-regexes.ts.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childIdOf, formOf, idFormat, ownIdOf, parseId } from "../../provider/src/framework/api/ids";
import * as validators from "../../provider/src/framework/api/validators";
import { formatBodies, idRegexesIn, idRegexesUnder } from "../helpers/id-regexes";

const ROOT = join(__dirname, "..", "..");
const VALIDATORS = "provider/src/framework/api/validators.ts";

/** validators.ts's id formats: its exported regexes named `…_ID`. */
const FORMATS = formatBodies(
  Object.entries(validators)
    .filter(([name, value]) => value instanceof RegExp && name.endsWith("_ID"))
    .map(([, value]) => value as RegExp),
);

const findings = (code: string) => idRegexesIn("snippet.ts", code, FORMATS).map((f) => f.why);

describe("id formats", () => {
  it("are written only in validators.ts: no regex in provider/src checks an id", () => {
    const found = idRegexesUnder(ROOT, "provider/src", FORMATS, [VALIDATORS]);
    expect(found.map((f) => `${f.file}:${f.line} ${f.regex}: ${f.why}`)).toEqual([]);
  });

  it("validators.ts has the numeric and string id formats the check looks for", () => {
    expect(FORMATS).toEqual(expect.arrayContaining([validators.NUMERIC_ID.source.slice(1, -1), "[^/\\s]+"]));
  });

  // The copies the check was written against, as they stood in the modules.
  it.each([
    ["a string id bound to ID (ix, storage)", "const ID = /^[^/\\s]+$/;", "(a) bound to ID"],
    ["a string id bound to OBJECT_ID (voice)", "const OBJECT_ID = /^[^/\\s]+$/;", "(a) bound to OBJECT_ID"],
    ["an organisation id", "const ORG_ID = /^[A-Za-z0-9_-]{1,64}$/;", "(a) bound to ORG_ID"],
    [
      "the numeric id in a zod rule (wire.ts)",
      "z.string().regex(/^[1-9][0-9]{0,15}$/, message)",
      "(d) holds the id format [1-9][0-9]{0,15}",
    ],
    [
      "a numeric id inside a composite id (mail route)",
      "const m = /^([1-9][0-9]{0,15})\\/(.+)$/.exec(id);",
      "(b) run on id",
    ],
    ["digits tested on an id (dns record)", "const known = /^\\d+$/.test(id) ? 1 : 0;", "(b) run on id"],
    ["a property id", "if (/^\\d+$/.test(prior.zoneId!)) go();", "(b) run on zoneId"],
    ["an id matched", "const m = id.match(new RegExp('^[0-9]+$'));", "(b) matched by id"],
    ["an id part's pattern", 'idFormat("x", { name: "x", pattern: /^[a-z]+$/ });', "(c) the pattern of an id part"],
    ["a child id", "childIdOf(T, id, F, NUMERIC_ID, /^[a-z]+$/);", "(c) given to childIdOf"],
  ])("finds %s", (_, code, why) => {
    expect(findings(code)).toEqual([why]);
  });

  it.each([
    ["digits of another value", "if (/^\\d+$/.test(word)) return Number(word);"],
    ["a host name's labels", "const MX_CONTENT = new RegExp(`^\\\\s*${SIXTEEN_BITS}\\\\s+\\\\S+\\\\s*$`);"],
    ["a regex in a comment or a string", '// const ID = /^[^/\\s]+$/;\nconst s = "/^[1-9][0-9]{0,15}$/";'],
    ["an id format used by its name", "const { zoneId } = parseId(T, format, id); NUMERIC_ID.test(id);"],
  ])("does not take %s for an id format", (_, code) => {
    expect(findings(code)).toEqual([]);
  });
});

describe("parseId", () => {
  const T = "nsp:test:Thing";
  const route = idFormat(
    "mail route",
    { name: "domainId" },
    { name: "localPart", pattern: validators.MAIL_LOCAL_PART, example: "info", canonical: (s) => s.toLowerCase() },
  );

  it("splits an id into its named parts, each checked and in the API's spelling", () => {
    expect(parseId(T, route, "12/Info")).toEqual({ domainId: "12", localPart: "info" });
    expect(formOf(route)).toBe("<domainId>/<localPart>");
  });

  it("takes the last part alone only when the state knows the parts before it", () => {
    expect(parseId(T, route, "info", { domainId: "12" })).toEqual({ domainId: "12", localPart: "info" });
    expect(() => parseId(T, route, "info")).toThrow(/"info" is not a mail route id/);
    expect(() => parseId(T, route, "info", { domainId: undefined })).toThrow(/"info" is not a mail route id/);
  });

  it("gives every malformed id one message: what the object is, the import form and an example", () => {
    for (const bad of ["12", "12/info/x", "012/info", "12/-info", "/info", ""])
      expect(() => parseId(T, route, bad)).toThrow(
        `${T}: "${bad}" is not a mail route id; a mail route is known by its id (<domainId>/<localPart>, such as 12/info)`,
      );
    expect(() => ownIdOf(T, "x", { what: "zone", form: "<zoneId>" })).toThrow(
      `${T}: "x" is not a zone id; a zone is known by its numeric id (<zoneId>, such as 42)`,
    );
    expect(() =>
      childIdOf("nsp:rpki:Roa", "1/x", "<caId>/<roaId>", validators.NUMERIC_ID, validators.NUMERIC_ID),
    ).toThrow('nsp:rpki:Roa: "1/x" is not a roa id; a roa is known by its id (<caId>/<roaId>, such as 12/34)');
  });

  it("checks an id there is only one of by its value, shown as the form", () => {
    const settings = idFormat("settings object", { name: "settingsId", pattern: "the-settings" });
    expect(parseId(T, settings, "the-settings")).toEqual({ settingsId: "the-settings" });
    expect(() => parseId(T, settings, "settings/1")).toThrow(
      `${T}: "settings/1" is not a settings object id; a settings object is known by its id (the-settings)`,
    );
  });
});
