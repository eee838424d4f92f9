// Webhook endpoints and their delivery records. The tables hang off the Store through a WeakMap
// like the other areas. The emulator never makes outbound HTTP calls: a delivery is recorded, not
// sent (see docs/api-assumptions.md, "Webhooks and resolver services").
import { randomBytes } from "node:crypto";
import { areaState } from "../model/store";
import { withoutAccount } from "../model/tables";

export const MAX_WEBHOOKS = 10;

/** The subscribable event names (GET /webhook-events); `*` subscribes to all of them. */
export const WEBHOOK_EVENTS: ReadonlyArray<{ name: string; description: string }> = [
  { name: "ping", description: "Sent by POST /webhooks/{id}/test" },
  { name: "sgate.verification.approved", description: "A one-time-code verification was approved" },
  { name: "sgate.verification.failed", description: "A one-time-code verification failed" },
  { name: "sgate.verification.expired", description: "A one-time-code verification expired" },
  { name: "sgate.verification.canceled", description: "A one-time-code verification was canceled" },
  { name: "sgate.broadcast.completed", description: "A messaging broadcast finished" },
];

interface WebhookRow {
  id: number;
  account: string;
  url: string;
  events: string[];
  enabled: boolean;
  note: string | null;
  /** Signs deliveries; returned only by the create. */
  secret: string;
  last_status: number | null;
  last_at: string | null;
  failures: number;
  created_at: string;
}

interface DeliveryRow {
  id: number;
  account: string;
  webhook_id: number;
  event: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  http_status: number | null;
  response: string | null;
  next_attempt: string | null;
  created_at: string;
  delivered_at: string | null;
  payload: Record<string, unknown>;
}

interface WebhookTables {
  webhooks: Map<number, WebhookRow>;
  deliveries: Map<number, DeliveryRow>;
}

export const webhooks = areaState((): WebhookTables => ({ webhooks: new Map(), deliveries: new Map() }));

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("hex")}`;
}

/** The secret only as the create answer shows it; every other answer says null. */
export function webhookView(w: WebhookRow) {
  const { account: _account, secret: _secret, ...shown } = w;
  return { ...shown, events: [...w.events], secret: null as string | null };
}

export function deliveryView(d: DeliveryRow) {
  return { ...withoutAccount(d), payload: structuredClone(d.payload) };
}
