// The ids resources are known by, checked before they are put in a path, so that a malformed
// import id is a clear error instead of a request.

/** Numeric ids, as most objects of the API have. */
export const NUMERIC_ID = /^[1-9][0-9]{0,15}$/;

/** Ids the API chooses as strings: anything that stays one path segment. */
export const STRING_ID = /^[^/\s]+$/;

/**
 * A child known as `<parent>/<child>` (the import form), or by its own id when the parent is
 * known from the prior state; both parts must match their patterns.
 */
export function childIdOf(token: string, id: string, form: string, parent: RegExp, child: RegExp, knownParent?: string): { parent: string; child: string } {
  const slash = id.indexOf("/");
  if (slash > 0) {
    const p = id.slice(0, slash);
    const c = id.slice(slash + 1);
    if (parent.test(p) && child.test(c)) return { parent: p, child: c };
  } else if (knownParent !== undefined && parent.test(knownParent) && child.test(id)) {
    return { parent: knownParent, child: id };
  }
  throw new Error(`${token}: id "${id}" must have the form ${form}`);
}
