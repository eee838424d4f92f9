// The imperative side of the messaging gateway: sent and received messages, opt-outs, scheduled
// messages and one-time-code verifications. Nothing is delivered; tests drive inbound messages
// and read codes in-process (`receiveMessage`, `verificationCode`).
import { randomInt } from "node:crypto";
import { entryOf, uniqueId, withoutAccount } from "../tables";
import { areaState, type Store } from "../store";

/** What a sent and a scheduled message both carry. */
interface OutgoingFields {
  id: string;
  account: string;
  from: string | null;
  sender_id: string | null;
  to: string;
  body: string;
  category: string | null;
  client_ref: string | null;
  created_at: string;
}

export interface MessageRow extends OutgoingFields {
  direction: "in" | "out";
  status: "sent" | "received" | "opted_out" | "no_consent";
  /** Milliseconds, for `before` and newest-first order. */
  at: number;
}

export interface ScheduledRow extends OutgoingFields {
  send_at: string;
  status: "scheduled" | "cancelled";
}

interface OptOutRow {
  account: string;
  number: string;
  status: "opted_out" | "opted_in";
  updated_at: string;
}

export interface VerificationRow {
  id: string;
  account: string;
  to: string;
  sender_id: string | null;
  from: string | null;
  lang: string | null;
  template_id: string | null;
  client_ref: string | null;
  code_length: number;
  code: string;
  attempts_left: number;
  max_attempts: number;
  resends: number;
  last_sent_at: number;
  expires_at: number;
  status: "pending" | "approved" | "failed" | "expired" | "canceled";
  created_at: string;
}

interface MessagingTables {
  messages: Map<string, MessageRow>;
  scheduled: Map<string, ScheduledRow>;
  /** account -> number -> opt-out */
  optouts: Map<string, Map<string, OptOutRow>>;
  verifications: Map<string, VerificationRow>;
}

export const messaging = areaState((): MessagingTables => ({ messages: new Map(), scheduled: new Map(), optouts: new Map(), verifications: new Map() }));

export function accountOptOuts(store: Store, account: string): Map<string, OptOutRow> {
  return entryOf(messaging(store).optouts, account, () => new Map());
}

export function isOptedOut(store: Store, account: string, number: string): boolean {
  return accountOptOuts(store, account).get(number)?.status === "opted_out";
}

export function newCode(length: number): string {
  let code = "";
  for (let i = 0; i < length; i++) code += String(randomInt(10));
  return code;
}

/** A verification's expiry is applied when it is looked at. */
export function refreshVerification(v: VerificationRow, now: number): VerificationRow {
  if (v.status === "pending" && now >= v.expires_at) v.status = "expired";
  return v;
}

export function verificationView(v: VerificationRow) {
  const { account: _a, code: _c, last_sent_at, expires_at, ...rest } = v;
  return { ...rest, last_sent_at: new Date(last_sent_at).toISOString(), expires_at: new Date(expires_at).toISOString() };
}

export function messageView(m: MessageRow) {
  const { account: _a, at: _t, ...rest } = m;
  return rest;
}

export const scheduledView = (s: ScheduledRow) => withoutAccount(s);

/**
 * An inbound message, as a recipient's phone would send it (tests call this in-process). STOP
 * opts the sender's number out of the account's messages, START opts it back in.
 */
export function receiveMessage(store: Store, account: string, from: string, to: string, body: string): MessageRow {
  const t = messaging(store);
  const now = store.now();
  const row: MessageRow = { id: uniqueId("msg", t.messages), account, direction: "in", from, sender_id: null, to, body, category: null, client_ref: null, status: "received", created_at: store.timestamp(), at: now };
  t.messages.set(row.id, row);
  const word = body.trim().toUpperCase();
  if (word === "STOP" || word === "START") accountOptOuts(store, account).set(from, { account, number: from, status: word === "STOP" ? "opted_out" : "opted_in", updated_at: store.timestamp() });
  return row;
}

/** The current code of a verification (tests only: the API never shows it). */
export function verificationCode(store: Store, id: string): string {
  const v = messaging(store).verifications.get(id);
  if (!v) throw new Error(`no verification ${id}`);
  return v.code;
}
