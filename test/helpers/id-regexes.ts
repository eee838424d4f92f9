// Finds the regexes that check an id outside framework/api/validators.ts, where every id format of
// the provider is written once (test/unit/id-formats.test.ts). Parsed with the TypeScript compiler,
// so a regex in a comment or a string is no finding. A regex (a `/…/` literal or `new RegExp(…)`)
// is an id format when
//   (a) it is bound to a name ending in `ID` or `Id`: `const ID = /…/`, `ORG_ID`, `{ childId: /…/ }`;
//   (b) it is run on an id: `re.test(x)`, `re.exec(x)` or `x.match(re)` where x (or its last
//       property) is `id` or ends in `Id` or `ID` (but `importId`, an id's form): `/^\d+$/.test(id)`;
//   (c) it is the `pattern` of an id part or kind (`{ pattern: /…/ }`), or a pattern given to
//       `childIdOf` or `ownIdOf`;
//   (d) it holds one of validators.ts's id formats (`formats`, their sources without `^` and `$`),
//       under any name: `z.string().regex(/^[1-9][0-9]{0,15}$/, …)`, `/^([1-9][0-9]{0,15})\/(.+)$/`.
// A regex on other values (`/^\d+$/.test(word)`, a host name's labels) is not one.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export interface IdRegex {
  file: string;
  line: number;
  regex: string;
  /** Which of the rules above found it. */
  why: string;
}

// `importId` holds an id's form (`<zoneId>/<recordId>`), not an id.
const ID_NAME = /^(?!importId$)(id|.*Id|.*ID)$/;
const ID_PARSERS = new Set(["childIdOf", "ownIdOf"]);

/** The name an expression ends in: `id`, `zoneId` of `prior.zoneId`; none for a call or a literal. */
function lastName(node: ts.Node): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isNonNullExpression(node) || ts.isParenthesizedExpression(node)) return lastName(node.expression);
  return undefined;
}

/** The regex's source, when it is written out (a literal, or `new RegExp` of a string without substitutions). */
function sourceOf(node: ts.Node): string | undefined {
  if (ts.isRegularExpressionLiteral(node)) return node.text.slice(1, node.text.lastIndexOf("/"));
  if (ts.isNewExpression(node)) {
    const arg = node.arguments?.[0];
    if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) return arg.text;
  }
  return undefined;
}

function isRegex(node: ts.Node): boolean {
  return (
    ts.isRegularExpressionLiteral(node) ||
    (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "RegExp")
  );
}

/** Why a regex node is an id format, or undefined. */
function verdict(node: ts.Node, formats: readonly string[]): string | undefined {
  let at: ts.Node = node;
  while (ts.isParenthesizedExpression(at.parent)) at = at.parent;
  const parent = at.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.initializer === at) {
    const name = ts.isIdentifier(parent.name) ? parent.name.text : undefined;
    if (name && ID_NAME.test(name)) return `(a) bound to ${name}`;
    if (name === "pattern" && ts.isPropertyAssignment(parent)) return "(c) the pattern of an id part";
  }
  if (
    ts.isPropertyAccessExpression(parent) &&
    parent.expression === at &&
    ["test", "exec"].includes(parent.name.text)
  ) {
    const call = parent.parent;
    const arg = ts.isCallExpression(call) ? call.arguments[0] : undefined;
    const name = arg && lastName(arg);
    if (name && ID_NAME.test(name)) return `(b) run on ${name}`;
  }
  if (ts.isCallExpression(parent) && parent.arguments.includes(at as ts.Expression)) {
    const callee = parent.expression;
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === "match") {
      const name = lastName(callee.expression);
      if (name && ID_NAME.test(name)) return `(b) matched by ${name}`;
    }
    const fn = lastName(callee);
    if (fn && ID_PARSERS.has(fn)) return `(c) given to ${fn}`;
  }
  const source = sourceOf(node);
  if (source !== undefined) {
    const held = formats.find((f) => source.includes(f));
    if (held) return `(d) holds the id format ${held}`;
  }
  return undefined;
}

/** The id formats' sources as a regex may hold them: without their anchors. */
export function formatBodies(formats: readonly RegExp[]): string[] {
  return formats.map((f) => f.source.replace(/^\^/, "").replace(/\$$/, ""));
}

/** The id regexes of one file's text. */
export function idRegexesIn(file: string, text: string, formats: readonly string[]): IdRegex[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: IdRegex[] = [];
  const visit = (node: ts.Node) => {
    if (isRegex(node)) {
      const why = verdict(node, formats);
      if (why)
        found.push({
          file,
          line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1,
          regex: node.getText(),
          why,
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The id regexes of every .ts file under `dir`, but the files `except` names (relative to `root`). */
export function idRegexesUnder(root: string, dir: string, formats: readonly string[], except: readonly string[]) {
  const out: IdRegex[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".ts") && !except.includes(relative(root, full)))
        out.push(...idRegexesIn(relative(root, full), readFileSync(full, "utf8"), formats));
    }
  };
  walk(join(root, dir));
  return out;
}
