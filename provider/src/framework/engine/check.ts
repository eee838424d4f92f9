import type { z } from "zod";
import type { CheckFailure } from "../definition";
import { containsUnknown, type PropertyMap } from "./property-values";
import { unwrap } from "../definition/zod-walk";

interface CheckResult {
  value: PropertyMap;
  failures: CheckFailure[];
  /** True when some input is still unknown (a preview before its dependency exists). */
  hasUnknowns: boolean;
}

/**
 * Validates inputs one property at a time, so that a property whose value is not known yet
 * (an output of another resource during preview) is passed through instead of failing the
 * whole object, and so that every failure names the property it belongs to.
 */
export function checkProperties(schema: z.ZodObject, input: PropertyMap): CheckResult {
  const shape = schema.shape as Record<string, z.ZodType>;
  const failures: CheckFailure[] = [];
  const value: PropertyMap = {};
  let hasUnknowns = false;

  for (const key of Object.keys(input)) {
    // A failure must always name something: an empty key is named by its quoted form.
    if (!(key in shape))
      failures.push({
        property: key === "" ? '""' : key,
        reason: `unknown property ${JSON.stringify(key)}; valid properties are: ${Object.keys(shape).join(", ")}`,
      });
  }
  for (const [key, field] of Object.entries(shape)) {
    const raw = input[key];
    if (raw !== undefined && containsUnknown(raw)) {
      hasUnknowns = true;
      value[key] = raw;
      continue;
    }
    // Pulumi has no undefined on the wire: an explicit null means "not set" unless the
    // property really accepts null.
    const candidate = raw === null && !unwrap(field).nullable ? undefined : raw;
    const parsed = field.safeParse(candidate);
    if (parsed.success) {
      if (parsed.data !== undefined) value[key] = parsed.data;
    } else {
      for (const issue of parsed.error.issues)
        failures.push({ property: propertyPath(key, issue.path), reason: describeIssue(issue, candidate) });
    }
  }
  return { value, failures, hasUnknowns };
}

function propertyPath(key: string, path: readonly PropertyKey[]): string {
  let out = key;
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `.${String(part)}`;
  return out;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === "invalid_type" && issue.path.length === 0 && input === undefined) return "is required";
  if (issue.code === "too_small" && issue.origin === "number")
    return `must be at least ${String(issue.minimum)}, got ${JSON.stringify(input)}`;
  if (issue.code === "too_big" && issue.origin === "number")
    return `must be at most ${String(issue.maximum)}, got ${JSON.stringify(input)}`;
  if (issue.code === "invalid_value") return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  return issue.message;
}
