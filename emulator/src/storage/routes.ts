// Storage destinations: customer buckets that receive copies of recordings. The key is tested with
// one small write and delete before a create (or a key change) is accepted. The emulator has no
// real buckets: a secret key that starts with `deny` fails the test, as a validation_error on
// secret_key (docs/api-assumptions.md).
import { z } from "zod";
import { assignPresent, collection } from "../model/collection";
import { invalid, notFound } from "../pipeline/errors";
import { route } from "../pipeline/route";
import { uniqueId } from "../model/tables";
import { queryInt } from "../pipeline/validation";
import { type DestinationRow, destinations } from "./state";

const FAILING_KEY_PREFIX = "deny";

const name = z.string().trim().min(1).max(100);
const prefix = z
  .string()
  .max(200)
  .regex(/^[^\s]*$/, { error: "must not contain spaces" });
const accessKey = z.string().min(1).max(128);
const secretKey = z.string().min(1).max(256);

const createBody = z.strictObject({
  name: name.optional(),
  region: z.string().min(1).max(64).optional(),
  prefix: prefix.optional(),
  endpoint: z.string().max(2048),
  bucket: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: "must be 3 to 63 lower-case letters, digits, '.' or '-'" }),
  access_key: accessKey,
  secret_key: secretKey,
});

const patchBody = z.strictObject({
  name: name.optional(),
  prefix: prefix.optional(),
  access_key: accessKey.optional(),
  secret_key: secretKey.optional(),
  auto_meet: z.boolean().optional(),
});

function checkEndpoint(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid("endpoint", "must be an https:// URL such as https://s3.example.net");
  }
  if (url.protocol !== "https:" || url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "")
    throw invalid("endpoint", "must be an https:// URL without credentials, query or fragment");
}

/** The one small write and delete; the bucket answers with a refusal for keys the emulator fails. */
function testWrite(r: { bucket: string; endpoint: string; secret_key: string }): void {
  if (r.secret_key.startsWith(FAILING_KEY_PREFIX)) {
    // A refused key is the caller's input, not a passing outage: a validation error, never retried.
    throw invalid(
      "secret_key",
      `the test write to bucket ${r.bucket} at ${r.endpoint} failed: AccessDenied (the access key or secret key is not accepted)`,
    );
  }
}

const destinationView = (r: DestinationRow) => {
  const { account: _a, secret_key: _s, ...rest } = r;
  return rest;
};

const destinationCollection = collection({
  path: "/storage/destinations",
  item: "/storage/destinations/{id}",
  what: "destination",
  table: ({ store }) => destinations(store),
  view: destinationView,
  create: {
    body: createBody,
    build: (ctx) => {
      const b = ctx.body;
      checkEndpoint(b.endpoint);
      testWrite(b);
      const now = ctx.store.timestamp();
      return {
        id: uniqueId("dst", destinations(ctx.store)),
        account: ctx.account.name,
        name: b.name ?? b.bucket,
        region: b.region ?? null,
        prefix: b.prefix ?? "",
        endpoint: b.endpoint,
        bucket: b.bucket,
        access_key: b.access_key,
        secret_key: b.secret_key,
        auto_meet: false,
        last_test_at: now,
        created_at: now,
      };
    },
  },
  // The API has no GET of one destination: only the list.
  get: false,
  patch: {
    body: patchBody,
    apply: (ctx, row) => {
      const b = ctx.body;
      if (b.access_key !== undefined || b.secret_key !== undefined) {
        testWrite({ ...row, secret_key: b.secret_key ?? row.secret_key });
        row.last_test_at = ctx.store.timestamp();
      }
      assignPresent(row, b);
    },
  },
  remove: true,
});

export const storageRoutes = [
  ...destinationCollection.routes,
  destinationCollection.member("POST", "test", (row, ctx) => {
    testWrite(row);
    row.last_test_at = ctx.store.timestamp();
    return { ok: true, tested_at: row.last_test_at };
  }),
  route({
    method: "GET",
    path: "/storage/copies",
    scope: "read",
    query: z.strictObject({ limit: queryInt(1).optional() }),
    handler: () => ({ data: [] }),
  }),
  route({
    method: "POST",
    path: "/storage/copies/:id/retry",
    scope: "write",
    handler: () => {
      throw notFound("copy");
    },
  }),
];
