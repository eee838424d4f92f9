// The definitions of the services area (resolver filter, policy, client groups and their DDNS
// tokens) and of account webhooks, listed once for the registry.
import type { AnyFunction, AnyResource } from "../../framework/definition";
import { getWebhookEvents } from "../../functions/index/get-webhook-events";
import { getDnsLists } from "../../functions/services/get-dns-lists";
import { webhook } from "../index/webhook";
import { client } from "./client";
import { clientDdnsToken } from "./client-ddns-token";
import { filter } from "./filter";
import { policy } from "./policy";

export const serviceResources: readonly AnyResource[] = [webhook, filter, policy, client, clientDdnsToken];
export const serviceFunctions: readonly AnyFunction[] = [getWebhookEvents, getDnsLists];
