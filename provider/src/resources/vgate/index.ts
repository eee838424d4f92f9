// The PBX gateway's definitions, listed once so the registry takes them in one line.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getCities } from "../../functions/vgate/get-cities";
import { getTemplates } from "../../functions/vgate/get-templates";
import { extension } from "./extension";
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

export const vgateResources: readonly AnyResource[] = [pbx, extension, trunk, number, numberFlow, inboundRoute, outboundRoute, ivr, ringGroup, queue, timeCondition];
export const vgateFunctions: readonly AnyFunction[] = [getCities, getTemplates];
