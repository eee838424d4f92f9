// The imperative side of the messaging gateway (its tables are in state.ts): the views of sent and
// received messages, scheduled messages and one-time-code verifications. Nothing is delivered;
// tests drive inbound messages and read codes in-process (`receiveMessage`, `verificationCode`).
import { randomInt } from "node:crypto";
import { uniqueId, withoutAccount } from "../model/tables";
import type { Store } from "../model/store";
import { type MessageRow, type ScheduledRow, type VerificationRow, accountOptOuts, messaging } from "./state";

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
  return {
    ...rest,
    last_sent_at: new Date(last_sent_at).toISOString(),
    expires_at: new Date(expires_at).toISOString(),
  };
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
  const row: MessageRow = {
    id: uniqueId("msg", t.messages),
    account,
    direction: "in",
    from,
    sender_id: null,
    to,
    body,
    category: null,
    client_ref: null,
    status: "received",
    created_at: store.timestamp(),
    at: now,
  };
  t.messages.set(row.id, row);
  const word = body.trim().toUpperCase();
  if (word === "STOP" || word === "START")
    accountOptOuts(store, account).set(from, {
      account,
      number: from,
      status: word === "STOP" ? "opted_out" : "opted_in",
      updated_at: store.timestamp(),
    });
  return row;
}

/** The current code of a verification (tests only: the API never shows it). */
export function verificationCode(store: Store, id: string): string {
  const v = messaging(store).verifications.get(id);
  if (!v) throw new Error(`no verification ${id}`);
  return v.code;
}
