// The services module (nsp:services:*): the DNS resolver service: filters, policies, client groups.
// A new resource or function of this module is one import and one entry below.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { client } from "./client";
import { clientDdnsToken } from "./client-ddns-token";
import { filter } from "./filter";
import { policy } from "./policy";

export const resources: readonly AnyResource[] = [filter, policy, client, clientDdnsToken];
export const functions: readonly AnyFunction[] = [];
