// `nsp-fleet manifests --operator`: the customers as Pulumi Kubernetes Operator `Stack` objects
// (pulumi.com/v1), one per customer, each running the customer project from its git repository
// with the customer in the stack's configuration, as the fleet's workers run it. The tokens come
// from a Kubernetes secret as environment variables: no manifest holds one.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dump, load } from "js-yaml";
import { InputError, type Customer } from "./customers";

export interface OperatorOptions {
  /** The project's name (Pulumi.yaml's `name`): stack configuration keys are namespaced by it. */
  project: string;
  /** The git repository holding the customer project. */
  repo: string;
  branch: string;
  /** The project's directory in the repository. */
  repoDir: string;
  /** The Kubernetes secret holding NSP_PARTNER_TOKEN, each customer's tokenEnv, and the passphrase. */
  secret: string;
  /**
   * The state backend (a self-managed one: postgres://, s3://, ...); unset, Pulumi Cloud. A URL
   * holding a password is never written into a manifest: the workspace reads it from the secret.
   */
  backend?: string;
  /**
   * Every this many minutes the Operator runs the stack again, at the same commit, refreshing it
   * first: its way of finding drift, which it repairs at once (`resyncFrequencySeconds`,
   * `continueResyncOnCommitMatch`, `refresh`). Unset, a stack runs again only for a new commit.
   * The same setting is how often the Operator looks for a new commit on the branch (60 s when
   * unset), so a longer resync also picks up a merge later.
   */
  resyncMinutes?: number;
}

/** A week: the Operator's resync is meant to find drift, and a rarer one is better a schedule. */
const MAX_RESYNC_MINUTES = 10_080;

/** `--resync-minutes`: whole minutes from 1 (the Operator's own floor is 60 s) to a week; unset, undefined. */
export function parseResync(value: string | boolean | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === "string" ? value : "";
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_RESYNC_MINUTES)
    throw new InputError(
      `${name}: "${text}" must be a whole number of minutes from 1 to ${MAX_RESYNC_MINUTES} (a week)`,
    );
  return n;
}

/** The `name` of the project's Pulumi.yaml in `dir`. */
export function projectName(dir: string): string {
  const file = join(dir, "Pulumi.yaml");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new InputError(
      `${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); run ` +
        `nsp-fleet manifests in the customer project's folder or name it with --project`,
    );
  }
  let project: unknown;
  try {
    project = load(text);
  } catch (e) {
    throw new InputError(`${file}: not YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  const name = (project as { name?: unknown } | null)?.name;
  if (typeof name !== "string" || name === "")
    throw new InputError(`${file}: name: the project has no name; Pulumi.yaml must set one`);
  return name;
}

/** A Kubernetes object name (RFC 1123 subdomain) for the customer's Stack object. */
function objectName(project: string, ref: string): string {
  return `${project}-${ref}`
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, "-")
    .replace(/[.-]+$/, "");
}

export function operatorStacks(customers: Customer[], opts: OperatorOptions): object[] {
  const fromSecret = (key: string) => ({ type: "Secret", secret: { name: opts.secret, key } });
  const names = new Map<string, string>();
  // A Stack object is read by anyone who may list them in its namespace, and lands in git with
  // the rest of a GitOps repository: a password in it would be a plaintext secret.
  const backendInSecret = opts.backend !== undefined && hasPassword(opts.backend);
  return customers.map((customer) => {
    const name = objectName(opts.project, customer.ref);
    const other = names.get(name);
    if (other !== undefined)
      throw new InputError(
        `customers: "${customer.ref}" and "${other}" would both be the Stack object ${name}; rename one`,
      );
    names.set(name, customer.ref);
    const envRefs: Record<string, object> = {
      [customer.tokenEnv ?? "NSP_PARTNER_TOKEN"]: fromSecret(customer.tokenEnv ?? "NSP_PARTNER_TOKEN"),
    };
    if (opts.backend !== undefined) envRefs.PULUMI_CONFIG_PASSPHRASE = fromSecret("PULUMI_CONFIG_PASSPHRASE");
    if (backendInSecret) envRefs.PULUMI_BACKEND_URL = fromSecret("PULUMI_BACKEND_URL");
    return {
      apiVersion: "pulumi.com/v1",
      kind: "Stack",
      metadata: { name, labels: { "app.kubernetes.io/part-of": opts.project } },
      spec: {
        stack: customer.ref,
        projectRepo: opts.repo,
        branch: opts.branch,
        repoDir: opts.repoDir,
        ...(opts.backend !== undefined && !backendInSecret ? { backend: opts.backend } : {}),
        config: { [`${opts.project}:customer`]: JSON.stringify(customer) },
        envRefs,
        // A customer removed from the file keeps its objects until its stack is destroyed on purpose.
        destroyOnFinalize: false,
        ...(opts.resyncMinutes !== undefined
          ? {
              // Without refresh, a run at the same commit compares the program with the state
              // only, and finds nothing the API's side changed.
              refresh: true,
              continueResyncOnCommitMatch: true,
              resyncFrequencySeconds: opts.resyncMinutes * 60,
            }
          : {}),
      },
    };
  });
}

function hasPassword(url: string): boolean {
  try {
    return new URL(url).password !== "";
  } catch {
    return /\/\/[^/@]*:[^/@]*@/.test(url);
  }
}

/** The Stack objects as one YAML stream, ready for `kubectl apply -f -`. */
export function operatorManifests(customers: Customer[], opts: OperatorOptions): string {
  return operatorStacks(customers, opts)
    .map((o) => `---\n${dump(o, { lineWidth: -1, noRefs: true })}`)
    .join("");
}
