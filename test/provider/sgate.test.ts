// The messaging-gateway resources (number settings, brands, campaigns, senders, templates,
// consents, broadcasts) and nsp:sgate:getNumbers, through the built plugin binary over gRPC
// against a live emulator.
import { describe, expect, it } from "vitest";
import { SEED_NUMBERS } from "../../emulator/src/sgate/state";
import { lifecycle } from "../helpers/grpc-lifecycle";
import { useProvider } from "../helpers/use-provider";

const NUMBER = "nsp:sgate:NumberSettings";
const BRAND = "nsp:sgate:Brand";
const CAMPAIGN = "nsp:sgate:Campaign";
const SENDER = "nsp:sgate:Sender";
const TEMPLATE = "nsp:sgate:Template";
const CONSENT = "nsp:sgate:Consent";
const BROADCAST = "nsp:sgate:Broadcast";
const [N1, N2, N3] = SEED_NUMBERS as readonly string[] as [string, string, string];
const enc = encodeURIComponent;

type Obj = Record<string, any>;

const provider = useProvider({ account: "texter" });
const { control, plugin, checked, previewSendsNothing, importClean } = provider;

/** Create in preview: no request reaches the API, and API-only outputs are unknown. */

/** `pulumi import`: Read with only the import id, then the imported inputs check and diff clean. */

/** Create, Read and a no-change Diff: the start of every lifecycle. */
async function createClean(type: string, inputs: Obj): Promise<{ id: string; properties: Obj }> {
  const created = await plugin.create(type, "r", inputs);
  const read = await plugin.read(type, "r", created.id, created.properties, inputs);
  expect(read.id).toBe(created.id);
  expect(read.inputs).toEqual(inputs);
  expect((await plugin.diff(type, "r", created.id, read.properties, inputs, inputs)).changes).toBe(false);
  return { id: created.id, properties: read.properties };
}

/** Update with the changed inputs; afterwards the same inputs diff clean. */
async function updateClean(
  type: string,
  id: string,
  olds: Obj,
  news: Obj,
  oldInputs: Obj,
  diffs: string[],
): Promise<Obj> {
  const d = await plugin.diff(type, "r", id, olds, news, oldInputs);
  expect(d.changes).toBe(true);
  expect(d.replaces).toEqual([]);
  expect(d.diffs.sort()).toEqual([...diffs].sort());
  const updated = await plugin.update(type, "r", id, olds, news, false, oldInputs);
  const read = await plugin.read(type, "r", id, updated, news);
  expect((await plugin.diff(type, "r", id, read.properties, news, read.inputs)).changes).toBe(false);
  return read.properties;
}

let seq = 0;
const uniq = (base: string) => `${base} ${++seq}`;
const apiBrand = () => control.post("/sgate/brands", { legal_name: uniq("Brand") });
const apiCampaign = async () =>
  control.post("/sgate/campaigns", { brand_id: (await apiBrand()).id, use_case: "mixed" });

describe("nsp:sgate:NumberSettings", () => {
  it("patches the settings it sets, updates, replaces on a new number, forgets on delete, and imports", async () => {
    const inputs = await checked(NUMBER, { number: ` ${N3} `, enabled: false, helpText: " Text STOP to stop " });
    expect(inputs).toEqual({ number: N3, enabled: false, helpText: "Text STOP to stop" });
    await previewSendsNothing(NUMBER, inputs, "sends");
    const { id, properties } = await createClean(NUMBER, inputs);
    expect(id).toBe(N3);
    expect(properties).toMatchObject({
      ...inputs,
      provider: "primary",
      campaignId: null,
      sends: false,
      receives: false,
    });

    const campaign = await apiCampaign();
    const news = await checked(NUMBER, { number: N3, enabled: true, campaignId: campaign.id, provider: "secondary" });
    const updated = await updateClean(NUMBER, id, properties, news, inputs, [
      "enabled",
      "campaignId",
      "provider",
      "helpText",
    ]);
    // helpText was dropped by the program: cleared.
    expect(updated).toMatchObject({
      enabled: true,
      campaignId: campaign.id,
      provider: "secondary",
      helpText: null,
      sends: true,
    });
    expect(await plugin.diff(NUMBER, "r", id, updated, { ...news, number: N2 }, news)).toMatchObject({
      changes: true,
      replaces: ["number"],
    });

    await control.resetStats();
    await plugin.delete(NUMBER, "r", id, updated);
    expect((await control.stats()).total).toBe(0);

    const imported = await importClean(NUMBER, N3);
    expect(imported.inputs).toEqual({ number: N3, enabled: true, provider: "secondary", campaignId: campaign.id });
  });

  it("sees a change made through the API, and reads an unknown number as gone", async () => {
    const inputs = await checked(NUMBER, { number: N2, helpText: "Help" });
    const { id, properties } = await createClean(NUMBER, inputs);
    await control.patch(`/sgate/numbers/${enc(N2)}`, { help_text: "Changed" });
    const read = await plugin.read(NUMBER, "r", id, properties, inputs);
    expect(read.properties.helpText).toBe("Changed");
    expect((await plugin.diff(NUMBER, "r", id, read.properties, inputs, read.inputs)).diffs).toEqual(["helpText"]);
    expect((await plugin.read(NUMBER, "r", "+15550000000", properties, inputs)).id).toBe("");
    await expect(plugin.read(NUMBER, "r", "12025550101")).rejects.toThrow(/E\.164/);
  });
});

describe("nsp:sgate:Brand and nsp:sgate:Campaign", () => {
  it(
    "creates a draft brand and a campaign, submits both in place, refuses to delete a brand with " +
      "campaigns, imports, and deletes",
    async () => {
      const brandInputs = await checked(BRAND, { legalName: " Acme Inc ", country: "us", entityType: "private" });
      expect(brandInputs).toEqual({ legalName: "Acme Inc", country: "US", entityType: "private", status: "draft" });
      await previewSendsNothing(BRAND, brandInputs, "createdAt");
      const brand = await createClean(BRAND, brandInputs);
      expect(brand.id).toMatch(/^brd_[0-9a-f]{12}$/);
      expect(brand.properties).toMatchObject({ ...brandInputs, displayName: null, campaignIds: [] });

      const campaignInputs = await checked(CAMPAIGN, {
        brandId: brand.id,
        useCase: "2fa",
        description: "Log-in codes",
        samples: ["Your code is 1234"],
      });
      expect(campaignInputs).toEqual({
        brandId: brand.id,
        useCase: "2fa",
        description: "Log-in codes",
        samples: ["Your code is 1234"],
        status: "draft",
      });
      await previewSendsNothing(CAMPAIGN, campaignInputs, "createdAt");
      const campaign = await createClean(CAMPAIGN, campaignInputs);
      expect(campaign.id).toMatch(/^cmp_[0-9a-f]{12}$/);

      const brandNews = await checked(BRAND, {
        ...brandInputs,
        displayName: "Acme",
        website: "https://acme.example",
        status: "submitted",
      });
      const brandUpdated = await updateClean(BRAND, brand.id, brand.properties, brandNews, brandInputs, [
        "displayName",
        "website",
        "status",
      ]);
      expect(brandUpdated).toMatchObject({ status: "submitted", campaignIds: [campaign.id] });
      // The API refuses to take a submitted brand back to draft.
      await expect(plugin.update(BRAND, "r", brand.id, brandUpdated, brandInputs, false, brandNews)).rejects.toThrow(
        /cannot go back to draft/,
      );

      const campaignNews = await checked(CAMPAIGN, {
        brandId: brand.id,
        useCase: "account_notification",
        messageFlow: "Opt in at sign-up",
        samples: ["a", "b"],
        status: "submitted",
      });
      const campaignUpdated = await updateClean(
        CAMPAIGN,
        campaign.id,
        campaign.properties,
        campaignNews,
        campaignInputs,
        ["useCase", "description", "messageFlow", "samples", "status"],
      );
      expect(campaignUpdated).toMatchObject({
        description: null,
        messageFlow: "Opt in at sign-up",
        status: "submitted",
      });

      await expect(plugin.delete(BRAND, "r", brand.id, brandUpdated)).rejects.toThrow(
        new RegExp(`has campaign\\(s\\) ${campaign.id}`),
      );

      const importedBrand = await importClean(BRAND, brand.id);
      expect(importedBrand.inputs).toEqual({
        legalName: "Acme Inc",
        displayName: "Acme",
        country: "US",
        website: "https://acme.example",
        entityType: "private",
        status: "submitted",
      });
      const importedCampaign = await importClean(CAMPAIGN, campaign.id);
      expect(importedCampaign.inputs).toEqual({
        brandId: brand.id,
        useCase: "account_notification",
        messageFlow: "Opt in at sign-up",
        samples: ["a", "b"],
        status: "submitted",
      });

      await plugin.delete(CAMPAIGN, "r", campaign.id, campaignUpdated);
      expect((await plugin.read(CAMPAIGN, "r", campaign.id, campaignUpdated, campaignNews)).id).toBe("");
      await plugin.delete(BRAND, "r", brand.id, brandUpdated);
      expect((await plugin.read(BRAND, "r", brand.id, brandUpdated, brandNews)).id).toBe("");
      await expect(plugin.read(BRAND, "r", "brd/1")).rejects.toThrow(
        /is not a brand id; a brand is known by its id \(<brandId>, such as brd_0123456789ab\)/,
      );
    },
  );

  it("sees changes and deletes made through the API", async () => {
    // Created without a Read: a Read within one refresh may be served from the list fetched for it.
    const brandInputs = await checked(BRAND, { legalName: uniq("Drift") });
    const brand = await plugin.create(BRAND, "r", brandInputs);
    const campaignInputs = await checked(CAMPAIGN, { brandId: brand.id, useCase: "polling" });
    const campaign = await plugin.create(CAMPAIGN, "r", campaignInputs);

    await control.patch(`/sgate/brands/${brand.id}`, { legal_name: "Renamed", status: "submitted" });
    const brandRead = await plugin.read(BRAND, "r", brand.id, brand.properties, brandInputs);
    expect(brandRead.properties).toMatchObject({ legalName: "Renamed", status: "submitted" });
    expect(
      (await plugin.diff(BRAND, "r", brand.id, brandRead.properties, brandInputs, brandRead.inputs)).diffs.sort(),
    ).toEqual(["legalName", "status"]);

    await control.patch(`/sgate/campaigns/${campaign.id}`, { use_case: "charity" });
    const campaignRead = await plugin.read(CAMPAIGN, "r", campaign.id, campaign.properties, campaignInputs);
    expect(
      (await plugin.diff(CAMPAIGN, "r", campaign.id, campaignRead.properties, campaignInputs, campaignRead.inputs))
        .diffs,
    ).toEqual(["useCase"]);

    // Deleted through the API (fresh objects, whose lists this refresh has not fetched yet).
    const brand2 = await plugin.create(BRAND, "r2", brandInputs);
    const campaign2 = await plugin.create(CAMPAIGN, "r2", { ...campaignInputs, brandId: brand2.id });
    await control.delete(`/sgate/campaigns/${campaign2.id}`);
    expect((await plugin.read(CAMPAIGN, "r2", campaign2.id, campaign2.properties, campaignInputs)).id).toBe("");
    await control.delete(`/sgate/brands/${brand2.id}`);
    expect((await plugin.read(BRAND, "r2", brand2.id, brand2.properties, brandInputs)).id).toBe("");
  });
});

describe("nsp:sgate:Sender", () => {
  it("creates a sender, renames it in place (back to review), imports, and deletes", async () => {
    const inputs = await checked(SENDER, { name: "Acme", numbers: [N1] });
    expect(inputs).toEqual({ name: "Acme", numbers: [N1] });
    await previewSendsNothing(SENDER, inputs, "nameStatus");
    const { id, properties } = await createClean(SENDER, inputs);
    expect(id).toMatch(/^snd_[0-9a-f]{12}$/);
    expect(properties).toMatchObject({ nameStatus: "in_review", description: null });

    const news = await checked(SENDER, { name: "AcmeCo", description: "Main sender", numbers: [N1, N2] });
    const updated = await updateClean(SENDER, id, properties, news, inputs, ["name", "description", "numbers"]);
    expect(updated).toMatchObject({ ...news, nameStatus: "in_review" });

    expect((await importClean(SENDER, id)).inputs).toEqual(news);
    await plugin.delete(SENDER, "r", id, updated);
    expect((await plugin.read(SENDER, "r", id, updated, news)).id).toBe("");
  });
});

lifecycle(provider, [
  {
    type: SENDER,
    create: { name: "Drift" },
    update: { name: "Walked" },
    skip: { replace: "every input changes in place" },
    apiPath: (_inputs, id) => `/sgate/senders/${id}`,
    exists: async (_inputs, id) => (await control.list<Obj>("/sgate/senders")).some((sender) => sender.id === id),
    drift: { body: { name: "Other", numbers: [N3] }, inputs: { name: "Other", numbers: [N3] } },
    bad: [
      [{}, "name"],
      [{ name: "1abc" }, "name"],
      [{ name: "far too long name" }, "name"],
      [{ name: "A", numbers: ["12345"] }, "numbers"],
      [{ name: "A", numbers: [N1, N1] }, "numbers"],
    ],
    nestedFailures: ["[", "."],
  },
  {
    type: NUMBER,
    create: { number: N1, helpText: "Help" },
    unknownOutput: "sends",
    update: { enabled: false, helpText: "Text STOP to stop" },
    replace: { number: N2 },
    apiPath: (inputs) => `/sgate/numbers/${enc(inputs.number)}`,
    drift: { body: { help_text: "Changed" }, inputs: { helpText: "Changed" } },
    bad: [
      [{}, "number"],
      [{ number: "12025550101" }, "number"],
      [{ number: N1, helpText: "x".repeat(161) }, "helpText"],
      [{ number: N1, provider: "Bad Provider" }, "provider"],
      [{ number: N1, campaignId: "a/b" }, "campaignId"],
      [{ number: N1, enabled: "yes" }, "enabled"],
    ],
    nestedFailures: ["[", "."],
    skip: {
      delete: "the number is the account's: the delete forgets its settings and sends nothing (checked above)",
      "drift delete": "the API cannot delete a number",
    },
  },
  {
    type: BRAND,
    create: async () => ({ legalName: uniq("Walk brand") }),
    unknownOutput: "createdAt",
    update: { displayName: "Walk", website: "https://walk.example" },
    apiPath: (_inputs, id) => `/sgate/brands/${id}`,
    exists: async (_inputs, id) => (await control.list<Obj>("/sgate/brands")).some((b) => b.id === id),
    drift: { body: { legal_name: "Renamed" }, inputs: { legalName: "Renamed" } },
    bad: [
      [{}, "legalName"],
      [{ legalName: "A", country: "USA" }, "country"],
      [{ legalName: "A", website: "ftp://x" }, "website"],
      [{ legalName: "A", contactEmail: "nope" }, "contactEmail"],
      [{ legalName: "A", entityType: "club" }, "entityType"],
      [{ legalName: "A", status: "approved" }, "status"],
    ],
    nestedFailures: ["[", "."],
    skip: { replace: "every input changes in place" },
  },
  {
    type: CAMPAIGN,
    create: async () => ({ brandId: (await apiBrand()).id, useCase: "2fa" }),
    unknownOutput: "createdAt",
    update: { useCase: "polling", description: "Polls" },
    apiPath: (_inputs, id) => `/sgate/campaigns/${id}`,
    exists: async (_inputs, id) => (await control.list<Obj>("/sgate/campaigns")).some((c) => c.id === id),
    drift: { body: { use_case: "charity" }, inputs: { useCase: "charity" } },
    bad: [
      [{ useCase: "2fa" }, "brandId"],
      [{ brandId: "brd_1" }, "useCase"],
      [{ brandId: "brd_1", useCase: "spam" }, "useCase"],
      [{ brandId: "a/b", useCase: "2fa" }, "brandId"],
      [{ brandId: "brd_1", useCase: "2fa", samples: ["1", "2", "3", "4", "5", "6"] }, "samples"],
    ],
    nestedFailures: ["[", "."],
    skip: { replace: "every input changes in place" },
  },
  {
    type: TEMPLATE,
    create: async () => ({ name: uniq("walk"), defaultLang: "en", category: "otp", bodies: { en: "Code {{code}}" } }),
    unknownOutput: "version",
    update: { bodies: { en: "Your code: {{code}}", de: "Ihr Code: {{code}}" } },
    apiPath: (_inputs, id) => `/sgate/templates/${id}`,
    drift: { body: { bodies: { en: "Hello" } }, inputs: { bodies: { en: "Hello" } } },
    bad: [
      [{ defaultLang: "en", category: "otp", bodies: { en: "x" } }, "name"],
      [{ name: "t", defaultLang: "english", category: "otp", bodies: { en: "x" } }, "defaultLang"],
      [{ name: "t", defaultLang: "fr", category: "otp", bodies: { en: "x" } }, "bodies"],
      [{ name: "t", defaultLang: "en", category: "otp", bodies: { EN: "x" } }, "bodies"],
      [{ name: "t", defaultLang: "en", category: "otp", bodies: { en: "" } }, "bodies"],
      [{ name: "t", defaultLang: "en", category: "promo", bodies: { en: "x" } }, "category"],
      [{ name: "t", defaultLang: "en", category: "otp", bodies: { en: "x" }, submit: "yes" }, "submit"],
    ],
    nestedFailures: ["[", "."],
    skip: { replace: "every input changes in place (new text makes a new version)" },
  },
  {
    type: CONSENT,
    create: { recipient: " +447700900199 ", proof: "walk form" },
    unknownOutput: "status",
    replace: { proof: "form 43" },
    apiPath: (_inputs, id) => `/sgate/consents/${id}`,
    // Withdrawn, not erased: the API keeps a deleted consent as revoked.
    exists: async (_inputs, id) =>
      (await control.list<Obj>("/sgate/consents")).some((c) => c.id === id && c.status === "granted"),
    bad: [
      [{ proof: "x" }, "recipient"],
      [{ recipient: "07700900123", proof: "x" }, "recipient"],
      [{ recipient: "+447700900123" }, "proof"],
      [{ recipient: "+447700900123", proof: " " }, "proof"],
      [{ recipient: "+447700900123", proof: "x", grantedAt: "yesterday" }, "grantedAt"],
      [{ recipient: "+447700900123", proof: "x", source: "fax" }, "source"],
    ],
    nestedFailures: ["[", "."],
    skip: { update: "every input replaces a consent", "drift edit": "the API has no edit of a consent" },
  },
  {
    type: BROADCAST,
    create: { body: "Walk", category: "transactional", recipients: { numbers: ["+12025550130"] } },
    unknownOutput: "state",
    update: { body: "Walk 2", ratePerMin: 120 },
    apiPath: (_inputs, id) => `/sgate/broadcasts/${id}`,
    drift: { body: { body: "Changed" }, inputs: { body: "Changed" } },
    bad: [
      [{ body: "x" }, "recipients"],
      [{ recipients: { numbers: ["+12025550111"] } }, "body"],
      [{ recipients: { numbers: ["+12025550111"] }, body: "x", templateId: "tpl_1" }, "body"],
      [{ recipients: { numbers: [] }, body: "x" }, "recipients"],
      [{ recipients: { numbers: ["+12025550111", "+12025550111"] }, body: "x" }, "recipients"],
      [{ recipients: { numbers: ["555"] }, body: "x" }, "recipients"],
      [{ recipients: { numbers: ["+12025550111"] }, body: "x", ratePerMin: 0 }, "ratePerMin"],
      [{ recipients: { numbers: ["+12025550111"] }, body: "x", category: "promo" }, "category"],
      [{ recipients: { numbers: ["+12025550111"] }, body: "x", from: "12345" }, "from"],
    ],
    nestedFailures: ["[", "."],
    skip: { replace: "every input changes in place while the broadcast is a draft" },
  },
]);

describe("nsp:sgate:Template", () => {
  it("makes a new version for new text, submits with the input flag, imports, and deletes", async () => {
    const inputs = await checked(TEMPLATE, {
      name: uniq("otp"),
      defaultLang: "en",
      category: "otp",
      bodies: { en: "Code {{code}}" },
    });
    expect(inputs.submit).toBeUndefined();
    await previewSendsNothing(TEMPLATE, inputs, "version");
    const { id, properties } = await createClean(TEMPLATE, inputs);
    expect(id).toMatch(/^tpl_[0-9a-f]{12}$/);
    expect(properties).toMatchObject({
      version: 1,
      status: "draft",
      versions: [{ version: 1, bodies: { en: "Code {{code}}" }, status: "draft", createdAt: expect.any(String) }],
    });

    const v2 = await checked(TEMPLATE, { ...inputs, bodies: { en: "Your code: {{code}}", de: "Ihr Code: {{code}}" } });
    const afterV2 = await updateClean(TEMPLATE, id, properties, v2, inputs, ["bodies"]);
    expect(afterV2).toMatchObject({ version: 2, status: "draft" });
    expect(afterV2.versions).toHaveLength(2);

    // Turning submit on submits the newest version without a new one.
    const submitted = await checked(TEMPLATE, { ...v2, submit: true });
    const afterSubmit = await updateClean(TEMPLATE, id, afterV2, submitted, v2, ["submit"]);
    expect(afterSubmit).toMatchObject({ version: 2, status: "submitted", submit: true });

    // While submit stays on, new text is submitted with its new version.
    const v3 = await checked(TEMPLATE, { ...submitted, bodies: { en: "Code: {{code}}" }, category: "transactional" });
    const afterV3 = await updateClean(TEMPLATE, id, afterSubmit, v3, submitted, ["bodies", "category"]);
    expect(afterV3).toMatchObject({ version: 3, status: "submitted", category: "transactional" });
    expect(afterV3.versions.map((v: Obj) => v.status)).toEqual(["draft", "submitted", "submitted"]);

    const imported = await importClean(TEMPLATE, id);
    expect(imported.inputs).toEqual({
      name: inputs.name,
      defaultLang: "en",
      category: "transactional",
      bodies: { en: "Code: {{code}}" },
    });

    await plugin.delete(TEMPLATE, "r", id, afterV3);
    expect((await plugin.read(TEMPLATE, "r", id, afterV3, v3)).id).toBe("");
  });
});

describe("nsp:sgate:Consent", () => {
  it("records a consent, replaces it on any change, keeps it as revoked on delete, and imports", async () => {
    const inputs = await checked(CONSENT, { recipient: " +447700900123 ", proof: "form 42" });
    expect(inputs).toEqual({ recipient: "+447700900123", proof: "form 42", source: "api" });
    await previewSendsNothing(CONSENT, inputs, "status");
    const { id, properties } = await createClean(CONSENT, inputs);
    expect(id).toMatch(/^cns_[0-9a-f]{12}$/);
    expect(properties).toMatchObject({ status: "granted", grantedAt: expect.any(String) });

    for (const [key, value] of [
      ["proof", "form 43"],
      ["source", "web_form"],
      ["recipient", "+447700900124"],
      ["grantedAt", "2026-01-01T00:00:00Z"],
    ] as const) {
      expect(await plugin.diff(CONSENT, "r", id, properties, { ...inputs, [key]: value }, inputs)).toMatchObject({
        changes: true,
        replaces: [key],
      });
    }

    const imported = await importClean(CONSENT, id);
    expect(imported.inputs).toEqual({ recipient: "+447700900123", proof: "form 42", grantedAt: properties.grantedAt });

    await plugin.delete(CONSENT, "r", id, properties);
    expect((await plugin.read(CONSENT, "r", id, properties, inputs)).id).toBe("");
    // Withdrawn, not erased: the API keeps the record as revoked.
    const revoked = await control.list("/sgate/consents?status=revoked");
    expect(revoked.find((c) => c.id === id)).toMatchObject({ status: "revoked", revoked_at: expect.any(String) });
  });

  it("sees a consent withdrawn through the API", async () => {
    const sender = await control.post("/sgate/senders", { name: "Shop" });
    const inputs = await checked(CONSENT, {
      recipient: "+12025550177",
      proof: "keyword START",
      senderId: sender.id,
      source: "keyword",
      grantedAt: "2026-02-01T10:00:00Z",
    });
    const { id, properties } = await createClean(CONSENT, inputs);
    // The state holds the API's spelling of the instant; the inputs keep the program's (createClean checks them).
    expect(properties).toMatchObject({ senderId: sender.id, grantedAt: "2026-02-01T10:00:00.000Z" });
    await control.delete(`/sgate/consents/${id}`);
    expect((await plugin.read(CONSENT, "r", id, properties, inputs)).id).toBe("");
  });
});

describe("nsp:sgate:Broadcast", () => {
  it("creates a draft, changes it in place (text to template), imports, and deletes", async () => {
    const inputs = await checked(BROADCAST, {
      name: "spring sale",
      body: "Sale!",
      from: N1,
      recipients: { numbers: ["+12025550111", "+12025550112"] },
    });
    expect(inputs).toEqual({
      name: "spring sale",
      body: "Sale!",
      from: N1,
      recipients: { numbers: ["+12025550111", "+12025550112"] },
      category: "marketing",
      ratePerMin: 60,
    });
    await previewSendsNothing(BROADCAST, inputs, "state");
    const { id, properties } = await createClean(BROADCAST, inputs);
    expect(id).toMatch(/^bc_[0-9a-f]{12}$/);
    expect(properties).toMatchObject({ state: "draft", report: { total: 2, pending: 0, noConsent: 0 } });

    const template = await control.post("/sgate/templates", {
      name: uniq("sale"),
      default_lang: "en",
      category: "marketing",
      bodies: { en: "Sale" },
    });
    const { body: _body, ...rest } = inputs;
    const news = await checked(BROADCAST, {
      ...rest,
      templateId: template.id,
      lang: "en",
      ratePerMin: 120,
      category: "transactional",
    });
    const updated = await updateClean(BROADCAST, id, properties, news, inputs, [
      "body",
      "templateId",
      "lang",
      "ratePerMin",
      "category",
    ]);
    expect(updated).toMatchObject({ body: null, templateId: template.id, ratePerMin: 120 });

    const imported = await importClean(BROADCAST, id);
    expect(imported.inputs).toEqual({
      name: "spring sale",
      from: N1,
      templateId: template.id,
      lang: "en",
      recipients: { numbers: ["+12025550111", "+12025550112"] },
      category: "transactional",
      ratePerMin: 120,
    });

    await plugin.delete(BROADCAST, "r", id, updated);
    expect((await plugin.read(BROADCAST, "r", id, updated, news)).id).toBe("");
  });

  it("sees changes made through the API, cannot change or delete a broadcast that is sending, and sees a delete", async () => {
    const inputs = await checked(BROADCAST, {
      body: "Hello",
      category: "transactional",
      recipients: { numbers: ["+12025550120"] },
    });
    const { id, properties } = await createClean(BROADCAST, inputs);
    await control.patch(`/sgate/broadcasts/${id}`, { body: "Changed" });
    const read = await plugin.read(BROADCAST, "r", id, properties, inputs);
    expect((await plugin.diff(BROADCAST, "r", id, read.properties, inputs, read.inputs)).diffs).toEqual(["body"]);

    await control.post(`/sgate/broadcasts/${id}/start`, {});
    const sending = await plugin.read(BROADCAST, "r", id, read.properties, inputs);
    expect(sending.properties).toMatchObject({ state: "sending", report: { total: 1, pending: 1 } });
    await expect(plugin.update(BROADCAST, "r", id, sending.properties, inputs, false, sending.inputs)).rejects.toThrow(
      /only a draft can be changed/,
    );
    await expect(plugin.delete(BROADCAST, "r", id, sending.properties)).rejects.toThrow(
      /is sending and cannot be deleted/,
    );

    await control.post(`/sgate/broadcasts/${id}/cancel`, {});
    await control.delete(`/sgate/broadcasts/${id}`);
    expect((await plugin.read(BROADCAST, "r", id, sending.properties, inputs)).id).toBe("");
  });
});

describe("nsp:sgate:getNumbers", () => {
  it("lists the account's numbers with their settings", async () => {
    const { result, failures } = await plugin.invoke("nsp:sgate:getNumbers", {});
    expect(failures).toEqual([]);
    const numbers = result.numbers as Obj[];
    expect(numbers.map((n) => n.number)).toEqual([N1, N2, N3]);
    // The number settings row above turned the first number off.
    expect(numbers[0]).toMatchObject({ enabled: false, provider: "primary", sends: false });
  });
});
