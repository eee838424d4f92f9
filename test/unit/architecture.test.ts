// docs/ARCHITECTURE.md is how a newcomer finds where a change goes, so it must stay true to the
// tree: every path it names exists, and every folder of provider/src and emulator/src that holds
// code is named in it (the folder itself, or a file directly in it). Two placeholders stand for
// a family of folders: `<module>` for each folder of provider/src/modules and `<area>` for each
// emulator area (a folder of emulator/src with a routes.ts).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
const DOC = "docs/ARCHITECTURE.md";
const CODE_TREES = ["provider/src", "emulator/src", "fleet/src"];
/** Where a path the document writes from the repository's root may start. */
const TOP = ["provider/src", "emulator/src", "fleet/src", "test", "scripts", "bench", "tools", "sdk", "docs", "bin"];

const isDir = (path: string) => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isDirectory();
/** A folder a move emptied may linger in a working copy; a clone has none, so it does not count. */
const exists = (path: string) =>
  existsSync(join(ROOT, path)) && (!isDir(path) || readdirSync(join(ROOT, path)).length > 0);
const subfolders = (dir: string) => readdirSync(join(ROOT, dir)).filter((name) => isDir(`${dir}/${name}`));

/** Every folder under `dir` (itself included) that directly holds a .ts file. */
function codeFolders(dir: string): string[] {
  const names = readdirSync(join(ROOT, dir));
  const own = names.some((name) => name.endsWith(".ts")) ? [dir] : [];
  return [...own, ...names.filter((name) => isDir(`${dir}/${name}`)).flatMap((name) => codeFolders(`${dir}/${name}`))];
}

const PLACEHOLDERS: Record<string, () => string[]> = {
  "provider/src/modules/<module>": () => subfolders("provider/src/modules").map((m) => `provider/src/modules/${m}`),
  "emulator/src/<area>": () =>
    subfolders("emulator/src")
      .filter((a) => exists(`emulator/src/${a}/routes.ts`))
      .map((a) => `emulator/src/${a}`),
};

/** The repository paths a text names, as written (a folder may end with "/"). */
function namedPaths(text: string): string[] {
  const pattern = new RegExp(
    `(?<![\\w./<>-])(?:${TOP.map((t) => t.replace("/", "\\/")).join("|")})\\/[\\w.<>/-]*`,
    "g",
  );
  return [...text.matchAll(pattern)].map((m) => m[0].replace(/[.]+$/, ""));
}

/**
 * A named path as the paths of the tree it stands for: a known placeholder expands to each of its
 * folders; from any other placeholder on ("<name>.ts"), only the folder before it is checked.
 */
function expand(path: string): string[] {
  for (const [prefix, folders] of Object.entries(PLACEHOLDERS)) {
    if (path.startsWith(prefix)) return folders().flatMap((folder) => expand(folder + path.slice(prefix.length)));
  }
  const cut = path.indexOf("<");
  return [(cut < 0 ? path : posix.dirname(`${path.slice(0, cut)}x`)).replace(/\/+$/, "")];
}

/** What is wrong with a document's account of the tree: paths that do not exist, folders not named. */
function architectureGaps(text: string, folders: readonly string[]): { missing: string[]; unnamed: string[] } {
  const named = namedPaths(text);
  const missing = named.filter((path) => !expand(path).some(exists));
  const existing = named.flatMap(expand).filter(exists);
  const namesFolder = new Set(existing.map((path) => (isDir(path) ? path : posix.dirname(path))));
  return { missing: [...new Set(missing)], unnamed: folders.filter((folder) => !namesFolder.has(folder)) };
}

describe(DOC, () => {
  const text = readFileSync(join(ROOT, DOC), "utf8");
  const folders = CODE_TREES.flatMap(codeFolders);

  it("names only paths that exist, and every folder of provider/src and emulator/src that holds code", () => {
    expect(folders).toContain("provider/src/framework/api/shapes");
    expect(architectureGaps(text, folders)).toEqual({ missing: [], unnamed: [] });
  });

  it("the check finds a folder the document does not name and a path that does not exist", () => {
    const withoutPlugin = text.replaceAll("provider/src/plugin/", "").replaceAll("emulator/src/util/", "");
    const withStale = `${text}\nSee \`provider/src/framework/shapes/\` and bench/p9-gone.ts.\n`;
    expect(architectureGaps(withoutPlugin, folders).unnamed.sort()).toEqual([
      "emulator/src/util",
      "provider/src/plugin",
    ]);
    expect(architectureGaps(withStale, folders).missing).toEqual([
      "provider/src/framework/shapes/",
      "bench/p9-gone.ts",
    ]);
  });
});

// Its backticked code names must be the tree's too. A span names code when it is a call
// (`name(…)`, `.name(…)`: the name), or one identifier or a dotted path of them (`a.b.c`: each
// part) written in camelCase with a hump (`findInList`), in PascalCase (`OperationContext`), in
// upper case with a digit or an underscore (`E164`, `NUMERIC_ID`), or starting with `__`. A plain
// lower-case word (`patch`, `dns`, `key`) is a role, a module or a word as often as a name, so it
// is left alone. Such a name exists when some file of the code trees declares it (a function,
// class, type, variable, parameterless binding, method, property or enum member), or it is a
// JavaScript global (`Map`), or it is one of NOT_CODE.
const NAME_TREES = ["provider/src", "emulator/src", "fleet/src", "test", "scripts", "bench", "tools"];
/** Written like code names, but named elsewhere: the engine's gRPC method. */
const NOT_CODE = new Set(["List"]);

const IDENT = /^[A-Za-z_$][\w$]*$/;
const CODE_LIKE = (name: string) =>
  /[a-z0-9][A-Z]/.test(name) ||
  /^[A-Z][a-z]/.test(name) ||
  /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]+[0-9]+$/.test(name) ||
  name.startsWith("__");

/** The code names a text's backticked spans write, by the rule above. */
function backtickedNames(text: string): string[] {
  const names = [...text.matchAll(/`([^`\n]+)`/g)].flatMap(([, span]) => {
    const call = /^\.?([A-Za-z_$][\w$]*)\(/.exec(span!);
    if (call) return [call[1]!];
    const parts = span!.replace(/^\./, "").split(".");
    return parts.every((p) => IDENT.test(p)) ? parts.filter(CODE_LIKE) : [];
  });
  return [...new Set(names)];
}

/** Every name the code trees declare. */
function declaredNames(): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    const name = ts.getNameOfDeclaration(node as ts.Declaration);
    if (name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)))
      names.add(name.text.replace(/^#/, ""));
    ts.forEachChild(node, visit);
  };
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(path);
      } else if (/\.(ts|mts|mjs|cjs|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        visit(ts.createSourceFile(path, readFileSync(join(ROOT, path), "utf8"), ts.ScriptTarget.Latest, true));
      }
    }
  };
  for (const tree of NAME_TREES) walk(tree);
  return names;
}

const unknownNames = (text: string, declared: ReadonlySet<string>) =>
  backtickedNames(text).filter((n) => !declared.has(n) && !NOT_CODE.has(n) && !(n in globalThis));

describe(`${DOC}'s code names`, () => {
  const text = readFileSync(join(ROOT, DOC), "utf8");
  const declared = declaredNames();

  it("are declared in the tree", () => {
    expect(unknownNames(text, declared)).toEqual([]);
  });

  it("the check reads names as the rule says, and finds one the tree does not declare", () => {
    const spans =
      "`findInList`, `ctx.lists.holdsAll`, `wireModel(args, state)`, `.resource({ list })`, `NUMERIC_ID`, `E164`, " +
      "`OperationContext`, `__nspStateVersion`, `patch`, `dns`, `pulumi import`, `<parent>/<id>`, `mail/fields.ts`";
    expect(backtickedNames(spans)).toEqual([
      "findInList",
      "holdsAll",
      "wireModel",
      "resource",
      "NUMERIC_ID",
      "E164",
      "OperationContext",
      "__nspStateVersion",
    ]);
    expect(unknownNames(spans, declared)).toEqual(["findInList", "holdsAll"]);
  });
});

describe("fleet/src", () => {
  /** Every relative import of the fleet's files that leaves fleet/src, as a path from the root. */
  function importsOutside(): string[] {
    const files = codeFolders("fleet/src").flatMap((dir) =>
      readdirSync(join(ROOT, dir))
        .filter((n) => n.endsWith(".ts"))
        .map((n) => `${dir}/${n}`),
    );
    return files.flatMap((file) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(/^(?:import|export)[^;]*?from "(\.[^"]+)"/gms)]
        .map((m) => posix.normalize(posix.join(posix.dirname(file), m[1]!)))
        .filter((path) => !path.startsWith("fleet/src/")),
    );
  }

  it(
    "imports of the provider's code only what it shares with it: the recovery of a killed run's pending " +
      "creates, and the partner token's check",
    () => {
      expect([...new Set(importsOutside())].sort()).toEqual([
        "provider/src/config/partner-check",
        "provider/src/discover/recover-pending",
      ]);
    },
  );
});
