// The partner area's definitions, listed once for the registry.
import type { AnyResource } from "../../framework/definition";
import { subject } from "./subject";

export const partnerResources: readonly AnyResource[] = [subject];
