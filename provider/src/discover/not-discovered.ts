// The resource kinds nsp-discover leaves out although the provider manages them, and why.
/**
 * Types the provider manages that discovery never emits, and why. Every resource token either
 * declares its list facts (its definition's `list`) or is here (a test holds this), so a new resource type cannot be forgotten silently.
 */
export const notDiscovered: Readonly<Record<string, string>> = {
  "nsp:org:Organization":
    "made by the API with the account (one per account); import it by hand if its settings are to be managed",
  "nsp:org:Apps": "account-wide switches the API makes with the account; import id `apps` by hand if wanted",
  "nsp:meet:Settings":
    "account-wide defaults the API makes with the account; import id `meet-settings` by hand if wanted",
  "nsp:registry:Link":
    "holds a maintainer's API key the API never returns (write-only); link again with the key instead",
  "nsp:compute:VmPower":
    "virtual machines are made by the API (orders), not by this provider; import `<vmId>` by hand to manage power",
  "nsp:dns:ZoneVerification": "a wait for delegation, not an object of the API",
  "nsp:dns:ZoneRecords":
    "emitted instead of one nsp:dns:Record per record for a zone of more than 500 records (--zone-records-above), written as its zone file",
  "nsp:cdn:SiteVerification": "a wait for the CNAME, not an object of the API",
  "nsp:cdn:SiteSettings":
    "settings of zone-mode sites, which are owned by their proxied record; import `<siteId>` by hand to manage them",
  "nsp:vgate:NumberFlow":
    "part of an nsp:vgate:Number (its flow document); import `<pbx>/<numberId>` by hand to manage it apart",
  "nsp:mail:AppPassword": "a one-time secret the API never shows again; make a new one instead",
  "nsp:services:Filter": "settings of a resolver service the API made; import `<serviceId>` by hand to manage them",
  "nsp:services:Policy": "settings of a resolver service the API made; import `<serviceId>` by hand to manage them",
  "nsp:services:ClientDdnsToken": "a one-time secret the API never shows again; rotate it instead",
  "nsp:stream:Programme": "part of a channel; import `<channelId>` by hand to manage it apart",
  "nsp:voice:NumberEndpoint": "a link between a number and an extension, with no list in the API",
  "nsp:sgate:NumberSettings": "messaging settings of numbers the API assigns; import `<number>` by hand to manage them",
  "nsp:ix:Member": "the API documents no list of memberships, only reads by id; import `<memberId>` by hand",
};
