// The dns module (nsp:dns:*): DNS zones, records and services.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getDnsLists } from "./get-dns-lists";
import { getService } from "./get-service";
import { getServices } from "./get-services";
import { getZone } from "./get-zone";
import { range } from "./range";
import { record } from "./record";
import { zone } from "./zone";
import { zoneDnssec } from "./zone-dnssec";
import { zoneGrant } from "./zone-grant";
import { zoneRecords } from "./zone-records";
import { zoneTransfer } from "./zone-transfer";
import { zoneVerification } from "./zone-verification";

export const resources: readonly AnyResource[] = [
  zone,
  record,
  zoneDnssec,
  zoneTransfer,
  zoneGrant,
  range,
  zoneVerification,
  zoneRecords,
];
export const functions: readonly AnyFunction[] = [getZone, getService, getServices, getDnsLists];
