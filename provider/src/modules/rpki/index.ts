// The rpki module (nsp:rpki:*): RPKI certificate authorities and ROAs.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { ca } from "./ca";
import { getRpkiSuggestions } from "./get-rpki-suggestions";
import { getRpsl } from "./get-rpsl";
import { roa } from "./roa";

export const resources: readonly AnyResource[] = [ca, roa];
export const functions: readonly AnyFunction[] = [getRpkiSuggestions, getRpsl];
