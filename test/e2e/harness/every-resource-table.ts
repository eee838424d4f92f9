// The stack of test/e2e/every-resource.test.ts: an object of every resource type of the provider,
// parents before their children, which refer to them as the program does: `${name.id}`. A kind's
// objects come from its definition's first self-contained example (exampleRows), so a new resource
// needs no row here. A written row (writtenRows) is for what an example cannot say: values only the
// running emulator knows (Seeds), inputs spelled oddly on purpose (the provider must normalise them
// and then find no change), optional inputs the example lacks that the round trip must cover, and
// objects other written rows need as their parent or target.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resources } from "../../../provider/src/modules/all-definitions";
import { exampleSourcePath, parseExampleSources } from "../../../scripts/example-programs";

export type Obj = Record<string, unknown>;

export interface Row {
  /** Logical name in the program; `${name.id}` and `${name.<output>}` refer to it. */
  name: string;
  type: string;
  properties: Obj;
  dependsOn?: string[];
}

/** Values only the running emulator knows (ids of objects the account starts with). */
export interface Seeds {
  authDns: string;
  resolver: string;
  cdn: string;
  vmId: string;
  popA: string;
  popB: string;
  /** A certificate and key for SITE_HOST. */
  certPem: string;
  keyPem: string;
}

export const secret = (value: string) => ({ "fn::secret": value });
export const ref = (name: string, output = "id") => `\${${name}.${output}}`;

export const ZONE = "roundtrip.example";
export const VERIFIED_ZONE = "delegated-roundtrip.example";
export const RECORDS_ZONE = "records-roundtrip.example";
export const REVERSE_ZONE = "2.0.192.in-addr.arpa";
export const SITE_HOST = "www.edge-roundtrip.example";
export const NAME_SERVERS = ["ns1.nsp-emulator.test", "ns2.nsp-emulator.test"];
export const SMS_NUMBERS = ["+12025550101", "+12025550102", "+12025550103"];

/** The stack: one row per resource type, parents before their children. */
export function table(s: Seeds): Row[] {
  const rows = writtenRows(s);
  const inRows = new Set(rows.map((r) => r.type));
  return [...rows, ...resources.filter((r) => !inRows.has(r.token)).flatMap((r) => exampleRows(r.token))];
}

const ROOT = join(__dirname, "..", "..", "..");

/**
 * A kind's rows from the first of its examples that needs nothing but its own resources (no
 * `variables`, no provider of its own): every resource of that program, each named `<module>_<Name>_<its name>` (the kind's
 * token) so that two kinds' examples never meet, its references renamed to match.
 */
export function exampleRows(token: string): Row[] {
  const file = exampleSourcePath(token);
  const examples = parseExampleSources(readFileSync(join(ROOT, file), "utf8"), file);
  // The stack's objects are the account's alone, under the program's one default provider.
  const alone = (r: { type: string; options?: unknown }) =>
    r.type.startsWith("nsp:") && Object.keys(r.options ?? {}).every((o) => o === "dependsOn");
  const example = examples.find(
    (e) =>
      !e.program.variables &&
      Object.values(e.program.resources).every(alone) &&
      Object.values(e.program.resources).some((r) => r.type === token),
  );
  if (!example)
    throw new Error(
      `${token}: none of its examples (${file}) makes one with its own resources alone (no variables, no ` +
        `provider); give it a row in test/e2e/harness/every-resource-table.ts`,
    );
  const prefix = token.split(":").slice(1).join("_");
  const names = new Set(Object.keys(example.program.resources));
  const renamed = (name: string) => `${prefix}_${name}`;
  const rename = (v: unknown): unknown => {
    if (typeof v === "string")
      return v.replace(/\$\{([A-Za-z_][\w-]*)([.}[])/g, (m, name: string, next: string) =>
        names.has(name) ? `\${${renamed(name)}${next}` : m,
      );
    if (Array.isArray(v)) return v.map(rename);
    if (v !== null && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rename(x)]));
    return v;
  };
  return Object.entries(example.program.resources).map(([name, r]) => {
    const dependsOn = (r.options as { dependsOn?: string[] } | undefined)?.dependsOn;
    return {
      name: renamed(name),
      type: r.type,
      properties: rename(r.properties ?? {}) as Obj,
      ...(dependsOn ? { dependsOn: dependsOn.map((d) => renamed(d.replace(/^\$\{(.*)\}$/, "$1"))) } : {}),
    };
  });
}

/**
 * The rows written out, for what a kind's examples do not say: values only the running emulator
 * knows, inputs spelled oddly on purpose (the provider must normalise them), optional inputs the
 * examples lack. A row whose keys its example sets too says why the example cannot serve.
 */
function writtenRows(s: Seeds): Row[] {
  return [
    // Organisation, partner, registry, compute.
    {
      name: "member",
      type: "nsp:org:Member",
      properties: { email: " Dana@RoundTrip.Example ", role: "admin", state: "suspended" },
    },
    { name: "subject", type: "nsp:partner:Subject", properties: { externalRef: "cust-rt-1001" } },
    // Not from its example: its maintainer is spelled oddly on purpose (trimmed and upper-cased).
    {
      name: "registryLink",
      type: "nsp:registry:Link",
      properties: { keyId: "key-rt", keySecret: secret("registry-key-secret-rt01"), mntner: " example-mnt " },
    },
    {
      name: "registryDomain",
      type: "nsp:registry:Domain",
      properties: {
        name: "2.0.192.IN-ADDR.ARPA.",
        nserver: ["NS1.nsp-emulator.test.", "ns2.nsp-emulator.test"],
        dsRdata: ["12345  13 2 abcdef0123456789ABCDEF0123456789"],
      },
      dependsOn: ["registryLink"],
    },
    {
      name: "vmPower",
      type: "nsp:compute:VmPower",
      properties: { vmId: s.vmId, power: "off", reinstallTrigger: "r1" },
    },

    // Live streaming and video on demand.
    {
      name: "channel",
      type: "nsp:stream:Channel",
      properties: {
        name: " studio ",
        visibility: "unlisted",
        placement: "city",
        city: "AMS",
        renditions: 4,
        record: true,
        latencyMode: "low",
        delayS: 10,
        quality: "high",
        watermark: "br",
        allowRtmp: false,
        realtimePlay: true,
        recordingStore: { bucket: "recordings", prefix: "studio/" },
        enabled: true,
        keyRotation: "k1",
        revokeOnRotation: true,
      },
    },
    {
      name: "programme",
      type: "nsp:stream:Programme",
      properties: {
        channelId: ref("channel"),
        enabled: true,
        mode: "relay",
        items: [{ asset_id: "vid_1", seconds: 30 }, { url: "https://media.example.com/b.mp4" }],
      },
    },
    {
      name: "vodHook",
      type: "nsp:vod:Webhook",
      properties: {
        url: " https://Hooks.Example.com/vod ",
        events: ["asset.ready", "asset.failed"],
        note: "encoder events",
      },
    },

    // DNS.
    {
      name: "zone",
      type: "nsp:dns:Zone",
      properties: { serviceId: s.authDns, name: ZONE, mode: "zone", enabled: true, negativeTtl: 600 },
    },
    {
      name: "record",
      type: "nsp:dns:Record",
      properties: { zoneId: ref("zone"), name: "www", type: "A", content: "192.0.2.10", ttl: 600, enabled: true },
    },
    { name: "dnssec", type: "nsp:dns:ZoneDnssec", properties: { zoneId: ref("zone"), enabled: true } },
    {
      name: "transfer",
      type: "nsp:dns:ZoneTransfer",
      properties: {
        zoneId: ref("zone"),
        allow: ["192.0.2.0/24", " 2001:DB8:0:0::1 "],
        notify: ["192.0.2.53"],
        tsig: true,
        tsigRotation: "2026-01",
      },
    },
    {
      name: "grant",
      type: "nsp:dns:ZoneGrant",
      properties: { zoneId: ref("zone"), email: " Ops+DNS@RoundTrip.Example ", role: "operator" },
    },
    {
      name: "reverseZone",
      type: "nsp:dns:Zone",
      properties: {
        serviceId: s.authDns,
        name: REVERSE_ZONE,
        secondaryMaster: "2001:DB8:0::53",
        enabled: false,
        negativeTtl: 300,
      },
    },
    {
      name: "range",
      type: "nsp:dns:Range",
      properties: {
        zoneId: ref("reverseZone"),
        prefix: " 192.0.2.0/26 ",
        owner: "cust@example.com",
        externalRef: "C-1",
        note: "first block",
        enabled: true,
      },
    },
    { name: "verifiedZone", type: "nsp:dns:Zone", properties: { serviceId: s.authDns, name: VERIFIED_ZONE } },
    {
      name: "zoneVerification",
      type: "nsp:dns:ZoneVerification",
      properties: { zoneId: ref("verifiedZone"), timeoutSeconds: 60, pollIntervalSeconds: 0.5 },
    },
    { name: "recordsZone", type: "nsp:dns:Zone", properties: { serviceId: s.authDns, name: RECORDS_ZONE } },
    {
      name: "zoneRecords",
      type: "nsp:dns:ZoneRecords",
      properties: {
        zoneId: ref("recordsZone"),
        records: [
          { name: "@", type: "A", content: "192.0.2.1", ttl: 300 },
          { name: "WWW", type: "CNAME", content: `${RECORDS_ZONE.toUpperCase()}.`, ttl: 300 },
          { name: "@", type: "TXT", content: "v=spf1 -all" },
          { name: "@", type: "MX", content: "10 Mail.Example.com" },
          { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
          { name: "_sip._tcp", type: "SRV", content: "10 5 5060 SIP.example.com." },
          { name: "v6", type: "AAAA", content: "2001:DB8:0::1", ttl: 900 },
        ],
        maxDeletePercent: 50,
      },
    },

    // Hosted RPKI.
    {
      name: "ca",
      type: "nsp:rpki:Ca",
      properties: { handle: "RoundTrip-CA", parentRir: "ripe", asns: [64500, 64501], note: "main CA" },
    },

    // Edge proxy, security rules, tunnels.
    {
      name: "tunnel",
      type: "nsp:link:Tunnel",
      properties: {
        name: "  home lab ",
        localUrl: " http://localhost:3000 ",
        popId: s.popA,
        popId2: s.popB,
        credentialRotation: "2026-01",
      },
    },
    {
      name: "site",
      type: "nsp:cdn:Site",
      properties: {
        hostname: SITE_HOST,
        origin: "Origin.Example.NET",
        serviceId: s.cdn,
        originScheme: "https",
        originHostHeader: true,
        waf: { enabled: true, mode: "log" },
        cacheTtl: 600,
        cacheMode: "all",
        cacheHtmlTtl: 60,
        forceHttps: true,
        underAttack: false,
        botFight: true,
        rateLimit: 300,
        waitingRoom: { capacity: 100, sessionMin: 5 },
        sense: { enabled: true, action: "block", threshold: 70 },
        certPem: s.certPem,
        keyPem: secret(s.keyPem),
        linkTunnelId: ref("tunnel"),
      },
    },
    {
      name: "siteVerification",
      type: "nsp:cdn:SiteVerification",
      properties: { siteId: ref("site"), timeoutSeconds: 60, pollIntervalSeconds: 0.5 },
    },
    {
      name: "proxiedRecord",
      type: "nsp:dns:Record",
      properties: { zoneId: ref("zone"), name: "shop", type: "A", content: "192.0.2.80", proxied: true },
    },
    {
      name: "siteSettings",
      type: "nsp:cdn:SiteSettings",
      properties: {
        hostname: `SHOP.${ZONE}.`,
        originScheme: "strict",
        waf: { enabled: true, mode: "block" },
        cacheTtl: 120,
        cacheMode: "static",
        forceHttps: true,
        rateLimit: 120,
        sense: { enabled: true, action: "log", threshold: 50 },
        // The project nsp:pages:Project's example makes (exampleRows names it).
        pagesProjectId: ref("pages_Project_docsSite"),
      },
      dependsOn: ["proxiedRecord"],
    },
    {
      name: "siteRule",
      type: "nsp:security:Rule",
      properties: {
        siteId: ref("site"),
        field: "country",
        op: "in",
        value: " RU, cn ",
        action: "block",
        seq: 10,
        note: "geo",
        enabled: true,
      },
    },
    {
      name: "tunnelHostnames",
      type: "nsp:link:TunnelHostnames",
      properties: {
        tunnelId: ref("tunnel"),
        hostnames: ["WWW.tunnel-roundtrip.example.", "api.tunnel-roundtrip.example"],
      },
    },

    // PBX gateway.
    {
      name: "pbx",
      type: "nsp:vgate:Pbx",
      properties: {
        name: "Head office",
        city: "fra",
        timezone: "Europe/Berlin",
        template: "small-office",
        language: "en",
        settings: {
          recording_retention_days: 30,
          dial_plan: { international_prefix: "00", national_prefix: "0" },
          blocked_prefixes: ["+900", "+1900"],
        },
      },
    },
    {
      name: "ext1",
      type: "nsp:vgate:Extension",
      properties: {
        pbxId: ref("pbx"),
        number: "201",
        name: "Reception",
        userEmail: "Reception@RoundTrip.example",
        callerIdName: "Reception",
        callerIdNumber: "+4930555201",
        outboundClass: "national",
        record: "on_demand",
        voicemail: { enabled: true, pin: "1234" },
        dnd: false,
        ringTimeout: 25,
        maxCalls: 2,
        passwordRotation: 1,
      },
    },
    {
      name: "ext2",
      type: "nsp:vgate:Extension",
      properties: { pbxId: ref("pbx"), number: "202", name: "Sales", forward: { noanswer: "external:+4930123456" } },
    },
    {
      name: "trunk",
      type: "nsp:vgate:Trunk",
      properties: {
        pbxId: ref("pbx"),
        name: "Carrier",
        mode: "register",
        host: "SIP.Carrier.example",
        transport: "tls",
        username: "acct",
        password: secret("first-secret"),
        fromDomain: "carrier.example",
        callerId: "+4930555400",
        port: 5061,
        maxChannels: 4,
        authIps: ["192.0.2.60", "2001:DB8::60"],
        codecs: ["opus", "alaw"],
      },
    },
    // Not from its example: the inbound route below needs a number of this PBX; the example makes its own.
    {
      name: "vgateNumber",
      type: "nsp:vgate:Number",
      properties: { pbxId: ref("pbx"), e164: "+4930555401", trunkId: ref("trunk") },
    },
    {
      name: "inbound",
      type: "nsp:vgate:InboundRoute",
      properties: {
        pbxId: ref("pbx"),
        name: "Main line",
        numberId: ref("vgateNumber"),
        cidPattern: "+49.",
        destination: `extension:${ref("ext1")}`,
      },
    },
    {
      name: "ivr",
      type: "nsp:vgate:Ivr",
      properties: {
        pbxId: ref("pbx"),
        name: "Menu",
        greeting: "welcome",
        invalid: `voicemail:${ref("ext1")}`,
        timeout: "hangup",
        options: { "1": `extension:${ref("ext1")}`, "2": `extension:${ref("ext2")}` },
        directDial: true,
        timeoutS: 5,
        repeat: 2,
      },
    },
    {
      name: "ringGroup",
      type: "nsp:vgate:RingGroup",
      properties: {
        pbxId: ref("pbx"),
        number: "610",
        name: "Sales",
        strategy: "hunt",
        noanswer: `voicemail:${ref("ext1")}`,
        moh: "default",
        members: [ref("ext1"), ref("ext2")],
        ringS: 20,
      },
    },
    {
      name: "queue",
      type: "nsp:vgate:Queue",
      properties: {
        pbxId: ref("pbx"),
        number: "700",
        name: "Support",
        strategy: "leastrecent",
        moh: "default",
        timeout: `voicemail:${ref("ext2")}`,
        agents: [ref("ext1"), ref("ext2")],
        maxWaitS: 120,
        announceEveryS: 30,
        announcePosition: true,
        announceWait: true,
      },
    },

    // Mail.
    {
      name: "mailServer",
      type: "nsp:mail:Server",
      properties: { name: " mx-home ", ip4: " 192.0.2.25 ", ip6: "2001:DB8:0::25", tokenRotation: 1 },
    },
    {
      name: "mailDomain",
      type: "nsp:mail:Domain",
      properties: {
        name: ` ${ZONE.toUpperCase()}. `,
        zoneId: ref("zone"),
        serverId: ref("mailServer"),
        mode: "both",
        enabled: true,
        catchAll: "Postmaster@Example.NET",
        defaultQuotaBytes: 1073741824,
        dmarcPolicy: "reject",
        backupEnabled: true,
      },
    },
    {
      name: "mailbox",
      type: "nsp:mail:Mailbox",
      properties: {
        domainId: ref("mailDomain"),
        local: " Alice ",
        display: "Alice",
        quotaBytes: 2147483648,
        state: "active",
        userEmail: "Alice@Example.net",
        sendLimitHour: 100,
        sharedWith: ["Bob@Example.net"],
        collab: true,
      },
    },
    {
      name: "alias",
      type: "nsp:mail:Alias",
      properties: { domainId: ref("mailDomain"), localPart: " Info ", targetMailboxId: ref("mailbox"), enabled: true },
    },
    {
      name: "mailGroup",
      type: "nsp:mail:Group",
      properties: {
        domainId: ref("mailDomain"),
        localPart: "Team",
        name: "The team",
        members: [{ address: "A@Example.com" }, { address: "b@example.com", role: "owner" }],
        allowExternalSenders: true,
        membersCanSend: true,
        enabled: true,
        archive: true,
        posting: "org",
        replyTo: "group",
        subjectTag: "[team]",
      },
    },
    {
      name: "domainRule",
      type: "nsp:mail:DomainRule",
      properties: {
        domainId: ref("mailDomain"),
        kind: "forward_copy",
        pattern: " CEO@* ",
        target: "Archive@Example.NET",
        enabled: true,
      },
    },
    // Not from its example: its address is spelled oddly on purpose (trimmed and lower-cased).
    { name: "mailDestination", type: "nsp:mail:Destination", properties: { addr: " Ops@Example.NET " } },
    // Not from its example: local part and destination spelled otherwise than stored on purpose; and
    // its example's own destination has the address of the row above, which the API holds only once.
    {
      name: "mailRoute",
      type: "nsp:mail:Route",
      properties: { domainId: ref("mailDomain"), localPart: "Sales", dest: "OPS@example.net" },
      dependsOn: ["mailDestination"],
    },

    // Messaging gateway.
    {
      name: "brand",
      type: "nsp:sgate:Brand",
      properties: {
        legalName: " Acme Inc ",
        displayName: "Acme",
        taxId: "12-3456789",
        country: "us",
        vertical: "technology",
        website: "https://acme.example",
        contactEmail: "SMS@Acme.example",
        entityType: "private",
        status: "draft",
      },
    },
    {
      name: "campaign",
      type: "nsp:sgate:Campaign",
      properties: {
        brandId: ref("brand"),
        useCase: "2fa",
        description: "Log-in codes",
        messageFlow: "Opt in at sign-up",
        samples: ["Your code is 1234", "Code: 5678"],
        status: "draft",
      },
    },
    {
      name: "smsNumber",
      type: "nsp:sgate:NumberSettings",
      properties: {
        number: ` ${SMS_NUMBERS[2]} `,
        enabled: true,
        provider: "secondary",
        campaignId: ref("campaign"),
        helpText: "Text STOP to stop",
      },
    },
    {
      name: "sender",
      type: "nsp:sgate:Sender",
      properties: { name: "AcmeCo", description: "Main sender", numbers: [SMS_NUMBERS[0], SMS_NUMBERS[1]] },
    },
    {
      name: "template",
      type: "nsp:sgate:Template",
      properties: {
        name: "otp-rt",
        defaultLang: "en",
        category: "otp",
        bodies: { en: "Your code: {{code}}", de: "Ihr Code: {{code}}" },
        submit: true,
      },
    },
    {
      name: "consent",
      type: "nsp:sgate:Consent",
      properties: {
        recipient: " +12025550177 ",
        proof: "keyword START",
        senderId: ref("sender"),
        grantedAt: "2026-02-01T10:00:00.000Z",
        source: "keyword",
      },
    },
    {
      name: "broadcast",
      type: "nsp:sgate:Broadcast",
      properties: {
        recipients: { numbers: ["+12025550111", "+12025550112"] },
        name: "spring sale",
        senderId: ref("sender"),
        from: SMS_NUMBERS[0],
        templateId: ref("template"),
        lang: "en",
        category: "transactional",
        ratePerMin: 120,
      },
    },

    // Bot verification, webhooks, resolver services.
    {
      name: "verifySite",
      type: "nsp:verify:Site",
      properties: {
        name: " shop ",
        hostnames: ["Shop.Example.com.", "b.example.com"],
        mode: "interactive",
        fingerprint: true,
        interaction: "soft",
        enabled: true,
        secretRotation: "2026-11",
      },
    },
    {
      name: "webhook",
      type: "nsp:index:Webhook",
      properties: {
        url: " https://Hooks.Example.com/in ",
        events: ["ping", "sgate.broadcast.completed"],
        enabled: false,
        note: "ops",
      },
    },
    {
      name: "filter",
      type: "nsp:services:Filter",
      properties: {
        serviceId: s.resolver,
        customBlock: [" Ads.Example.COM. ", "*.tracker.example"],
        customAllow: ["ok.example"],
        rewrites: [
          { name: "Printer.Home.Example", target: "192.0.2.9" },
          { name: "nas.home.example", target: "Box.Home.Example." },
        ],
        blockMode: "zero",
        filterLists: ["ads", "MALWARE"],
      },
    },
    {
      name: "policy",
      type: "nsp:services:Policy",
      properties: {
        serviceId: s.resolver,
        rules: ["||ads.example^", " @@||ok.example^ "],
        blockedServices: ["TikTok"],
        schedule: { mon: ["09:00", "17:00"] },
        tz: "europe/berlin",
        safesearch: "on",
        accessAllow: ["192.0.2.0/24", "2001:0db8::0001"],
        accessDeny: ["198.51.100.7"],
        forwards: ["9.9.9.9"],
        pausedUntil: "2030-01-01T01:00:00+01:00",
        blockBypass: true,
        anonymizeIp: true,
        logMode: "blocked",
        logDays: 14,
        ratelimit: 50,
        ttlMin: 60,
        ttlMax: 3600,
      },
    },
    {
      name: "client",
      type: "nsp:services:Client",
      properties: {
        serviceId: s.resolver,
        name: " Kids ",
        clientId: "Kids-Tablet",
        addrs: ["192.0.2.10", "2001:DB8:0::/64"],
        tags: ["kids"],
        pausedUntil: "2030-01-01T00:00:00Z",
        lists: ["ads", "adult"],
        rules: ["||games.example^"],
        blockedServices: ["tiktok"],
        safesearch: "on",
        blockMode: "page",
        logMode: "all",
        enabled: true,
      },
    },
    {
      name: "ddnsToken",
      type: "nsp:services:ClientDdnsToken",
      properties: { serviceId: s.resolver, clientGroupId: ref("client"), rotation: "2024-06" },
    },

    // Meetings, voice numbers, rooms, internet exchange.
    {
      name: "meetSettings",
      type: "nsp:meet:Settings",
      properties: {
        waitingRoom: true,
        waitingRoomAll: true,
        guestsAllowed: false,
        muteOnEntry: true,
        camOffOnEntry: true,
        chat: false,
        reactions: false,
        hostMustJoinFirst: true,
        lockedDefault: true,
        sharePolicy: "host_only",
        recordPolicy: "host",
        city: "AMS",
        phoneLang: "zh",
        retention: { days: 14 },
      },
    },
    // Not from its example: its label is spelled oddly on purpose (trimmed).
    {
      name: "voiceNumber",
      type: "nsp:voice:Number",
      properties: {
        label: " main line ",
        sipIn: true,
        dest: `ivr:${ref("ivr")}`,
        noanswer: `voicemail:${ref("ext1")}`,
      },
    },
    {
      name: "talkRoom",
      type: "nsp:talk:Room",
      properties: {
        name: " lobby ",
        kind: "live",
        city: "AMS",
        visibility: "unlisted",
        maxPeers: 20,
        maxKbps: 512,
        retentionDays: 30,
        publicJoin: true,
        enabled: true,
        passcode: secret("1234"),
      },
    },
    {
      name: "rtcRoom",
      type: "nsp:rtc:Room",
      properties: {
        name: "stage",
        maxPeers: 8,
        maxVideo: 4,
        enabled: true,
        publicJoin: true,
        requireVerify: true,
        cascade: true,
        record: true,
        verifyLevel: "strict",
        passcode: secret("s3cret"),
      },
    },
    // Not from its example: its name, AS-SET and contact are spelled oddly on purpose (trimmed, re-cased).
    {
      name: "ixMember",
      type: "nsp:ix:Member",
      properties: { asn: 64500, name: " Example Net ", asSet: "as-example", contact: "NOC@Example.net", listed: true },
    },
  ];
}
