// @nsp/pulumi-dynamic: every nsp resource as a pulumi.dynamic.Resource, built from the same
// definitions as the plugin, for TypeScript/JavaScript programs that cannot or will not install
// the provider plugin. The classes are grouped by module like the generated SDK (`dns.Zone`,
// `cdn.Site`, ...); their TypeScript declarations are generated from the definitions
// (scripts/gen-dynamic-types.mjs).
import * as pulumi from "@pulumi/pulumi";
import type { AnyResource } from "../framework/definition";
import { resources } from "../modules/all-definitions";
import * as adapter from "./adapter";

/**
 * What every serialized provider calls. Pulumi stores each dynamic provider's functions in the
 * state (`__provider`) and evaluates them later in its provider host; those functions only load
 * this package there and call this object, so its shape must stay compatible across versions.
 * @internal
 */
export const __nsp = adapter;

/**
 * The provider object Pulumi serializes into the state. Each function references nothing but
 * `token` (a string) and `require`, which the serializer leaves alone, so the serialized text is
 * a few hundred bytes per function, carries no credentials, and does not change between
 * releases: the code that runs is whichever version of this package the program has installed.
 * Keep these plain `function` expressions free of helpers and closures over anything else.
 */
function serializableProvider(token: string): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => Promise.resolve().then(() => require("@nsp/pulumi-dynamic").__nsp.configure(req.config)),
    check: (olds, news) => require("@nsp/pulumi-dynamic").__nsp.check(token, olds, news),
    diff: (id, olds, news) => require("@nsp/pulumi-dynamic").__nsp.diff(token, id, olds, news),
    create: (inputs) => require("@nsp/pulumi-dynamic").__nsp.create(token, inputs),
    read: (id, props) => require("@nsp/pulumi-dynamic").__nsp.read(token, id, props),
    update: (id, olds, news) => require("@nsp/pulumi-dynamic").__nsp.update(token, id, olds, news),
    delete: (id, props) => require("@nsp/pulumi-dynamic").__nsp.remove(token, id, props),
  };
}

export type DynamicResourceClass = {
  new (name: string, args?: Record<string, unknown>, opts?: pulumi.CustomResourceOptions): pulumi.dynamic.Resource;
  get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): pulumi.dynamic.Resource;
  /** The definition's type token, such as `nsp:dns:Zone`. */
  readonly token: string;
};

/** `nsp:dns:Zone` -> ["dns", "Zone"] */
export function moduleAndName(token: string): [string, string] {
  const [, module = "index", name = ""] = token.split(":");
  return [module, name];
}

function resourceClass(def: AnyResource): DynamicResourceClass {
  const [module, name] = moduleAndName(def.token);
  // One provider object per type: Pulumi caches the serialized text per object.
  const provider = serializableProvider(def.token);
  const argKeys = Object.keys(def.args.shape);
  const stateKeys = Object.keys(def.state.shape).filter((k) => !argKeys.includes(k));
  const secrets = new Set<string>(def.secrets ?? []);

  const cls = class extends pulumi.dynamic.Resource {
    static readonly token = def.token;

    static get(resourceName: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions) {
      return new cls(resourceName, {}, { ...opts, id });
    }

    constructor(resourceName: string, args: Record<string, unknown> = {}, opts: pulumi.CustomResourceOptions = {}) {
      const props: pulumi.Inputs = {};
      // Every key the program passed goes to Check, which rejects unknown ones as the plugin does.
      for (const [key, value] of Object.entries(args ?? {})) {
        // Inputs declared secret are stored as secrets even when the program passes plain values.
        props[key] = value !== undefined && secrets.has(key) ? pulumi.secret(value) : value;
      }
      // Undefined inputs are not sent, but they make the engine expose the property as an output.
      for (const key of [...argKeys, ...stateKeys]) if (!(key in props)) props[key] = undefined;
      const additionalSecretOutputs = [...new Set([...(opts.additionalSecretOutputs ?? []), ...secrets])];
      super(
        provider,
        resourceName,
        props,
        { ...opts, ...(additionalSecretOutputs.length ? { additionalSecretOutputs } : {}) },
        module,
        name,
      );
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  return cls;
}

/** Every resource class, by module then name: `classes.dns.Zone`. */
export const classes: Record<string, Record<string, DynamicResourceClass>> = {};
for (const def of resources) {
  const [module, name] = moduleAndName(def.token);
  (classes[module] ??= {})[name] = resourceClass(def);
}

// The modules as named exports, as the generated SDK has them. test/unit/dynamic.test.ts checks
// that every module of all-definitions.ts is listed here.
export const dns = classes.dns ?? {};
export const cdn = classes.cdn ?? {};
export const rpki = classes.rpki ?? {};
export const security = classes.security ?? {};
export const link = classes.link ?? {};
export const mail = classes.mail ?? {};
export const vgate = classes.vgate ?? {};
export const index = classes.index ?? {};
export const services = classes.services ?? {};
export const org = classes.org ?? {};
export const partner = classes.partner ?? {};
export const registry = classes.registry ?? {};
export const compute = classes.compute ?? {};
export const stream = classes.stream ?? {};
export const vod = classes.vod ?? {};
export const meet = classes.meet ?? {};
export const voice = classes.voice ?? {};
export const talk = classes.talk ?? {};
export const rtc = classes.rtc ?? {};
export const storage = classes.storage ?? {};
export const ix = classes.ix ?? {};
export const sgate = classes.sgate ?? {};
export const verify = classes.verify ?? {};
export const pages = classes.pages ?? {};
