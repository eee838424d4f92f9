// The vgate module (nsp:vgate:*): the PBX gateway.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { extension } from "./extension";
import { getBalance } from "./get-balance";
import { getCities } from "./get-cities";
import { getTemplates } from "./get-templates";
import { inboundRoute } from "./inbound-route";
import { ivr } from "./ivr";
import { number } from "./number";
import { numberFlow } from "./number-flow";
import { outboundRoute } from "./outbound-route";
import { pbx } from "./pbx";
import { queue } from "./queue";
import { ringGroup } from "./ring-group";
import { timeCondition } from "./time-condition";
import { trunk } from "./trunk";

export const resources: readonly AnyResource[] = [
  pbx,
  extension,
  trunk,
  number,
  numberFlow,
  inboundRoute,
  outboundRoute,
  ivr,
  ringGroup,
  queue,
  timeCondition,
];
export const functions: readonly AnyFunction[] = [getCities, getTemplates, getBalance];
