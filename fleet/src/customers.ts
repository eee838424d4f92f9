// The fleet's input: one entry per customer. Every entry is checked before the first stack runs,
// so a typo in the file stops the fleet with the property's name instead of half a fleet.

export interface RecordSpec {
  name: string;
  type: string;
  content: string;
  ttl?: number;
}

export interface Customer {
  /** The customer's reference: its stack's name and, in partner mode, its subject's `externalRef`. */
  ref: string;
  /** The customer's zone; its mail domain has the same name. */
  zone: string;
  records: RecordSpec[];
  /**
   * Name of an environment variable holding this customer's own API token. Unset, the customer
   * is reached in partner mode, through the partner token.
   */
  tokenEnv?: string;
  /** The partner already acts for this customer (its subject exists): adopt it instead of creating it. */
  adoptSubject: boolean;
}

// A partner subject's reference may also hold ':' and '@'; a stack name may not, and the
// reference names the stack.
const REF = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class InputError extends Error {}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function text(entry: Json, key: string, where: string, rule?: RegExp, ruleText?: string): string {
  const v = entry[key];
  if (typeof v !== "string" || v === "") throw new InputError(`${where}.${key}: must be a non-empty string`);
  if (rule && !rule.test(v)) throw new InputError(`${where}.${key}: "${v}" ${ruleText}`);
  return v;
}

function parseRecord(raw: unknown, where: string): RecordSpec {
  if (!isObject(raw)) throw new InputError(`${where}: must be an object with name, type and content`);
  const record: RecordSpec = {
    name: text(raw, "name", where),
    type: text(raw, "type", where).toUpperCase(),
    content: text(raw, "content", where),
  };
  if (raw.ttl !== undefined) {
    if (!Number.isInteger(raw.ttl)) throw new InputError(`${where}.ttl: must be a whole number of seconds`);
    record.ttl = raw.ttl as number;
  }
  return record;
}

function parseCustomer(raw: unknown, where: string): Customer {
  if (!isObject(raw)) throw new InputError(`${where}: must be an object with ref and zone`);
  const known = new Set(["ref", "zone", "records", "tokenEnv", "adoptSubject"]);
  const unknown = Object.keys(raw).find((k) => !known.has(k));
  if (unknown !== undefined)
    throw new InputError(`${where}.${unknown}: unknown property (known: ${[...known].join(", ")})`);
  const records = raw.records ?? [];
  if (!Array.isArray(records)) throw new InputError(`${where}.records: must be a list`);
  if (raw.adoptSubject !== undefined && typeof raw.adoptSubject !== "boolean")
    throw new InputError(`${where}.adoptSubject: must be true or false`);
  const customer: Customer = {
    ref: text(
      raw,
      "ref",
      where,
      REF,
      "must be 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit (it names the stack)",
    ),
    zone: text(raw, "zone", where, DOMAIN, "must be a lower-case domain name such as example.com"),
    records: records.map((r, i) => parseRecord(r, `${where}.records[${i}]`)),
    adoptSubject: raw.adoptSubject === true,
  };
  if (raw.tokenEnv !== undefined)
    customer.tokenEnv = text(raw, "tokenEnv", where, ENV_NAME, "must be the name of an environment variable");
  if (customer.tokenEnv !== undefined && customer.adoptSubject)
    throw new InputError(`${where}.adoptSubject: only for a customer reached through the partner token (no tokenEnv)`);
  const seen = new Set<string>();
  customer.records.forEach((r, i) => {
    const key = `${r.name} ${r.type} ${r.content}`;
    if (seen.has(key)) throw new InputError(`${where}.records[${i}]: the same record (${key}) is listed twice`);
    seen.add(key);
  });
  return customer;
}

/** The customers of a JSON text: a list of entries. */
export function parseCustomers(json: string, source: string): Customer[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new InputError(`${source}: not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(raw) || raw.length === 0) throw new InputError(`${source}: must be a non-empty list of customers`);
  const customers = raw.map((c, i) => parseCustomer(c, `${source}: customers[${i}]`));
  for (const key of ["ref", "zone"] as const) {
    const seen = new Map<string, number>();
    customers.forEach((c, i) => {
      const first = seen.get(c[key].toLowerCase());
      if (first !== undefined)
        throw new InputError(`${source}: customers[${i}].${key}: "${c[key]}" is already customers[${first}].${key}`);
      seen.set(c[key].toLowerCase(), i);
    });
  }
  return customers;
}

/**
 * Each customer's credential, taken from the environment: the partner token for customers in
 * partner mode, the customer's own token otherwise. Every one that is missing is named at once.
 */
export function credentials(
  customers: Customer[],
  env: NodeJS.ProcessEnv,
  partnerTokenEnv: string,
): { partnerToken?: string; customerTokens: Map<string, string> } {
  const missing: string[] = [];
  const customerTokens = new Map<string, string>();
  for (const c of customers) {
    if (c.tokenEnv === undefined) continue;
    const token = env[c.tokenEnv];
    if (token) customerTokens.set(c.ref, token);
    else missing.push(`${c.tokenEnv} (the token of customer ${c.ref})`);
  }
  const partnerToken = env[partnerTokenEnv] || undefined;
  const viaPartner = customers.filter((c) => c.tokenEnv === undefined).map((c) => c.ref);
  if (viaPartner.length > 0 && partnerToken === undefined)
    missing.push(`${partnerTokenEnv} (the partner token, for customers ${viaPartner.join(", ")})`);
  if (missing.length > 0)
    throw new InputError(`missing environment variable${missing.length > 1 ? "s" : ""}: ${missing.join("; ")}`);
  return { partnerToken, customerTokens };
}
