// The pages a user reads are README.md and docs/ (the registry publishes them, and they are all a
// newcomer has beside the release files). They must not send a reader into the repository (a
// test file, an example, a source folder) and must name the Node.js floor package.json declares.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
/** Contributors' pages kept in docs/ for the code's sake; the registry does not publish them. */
const NOT_PUBLISHED = new Set(["docs/ARCHITECTURE.md"]);

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return markdownUnder(path);
    return name.endsWith(".md") ? [path] : [];
  });
}
const PUBLISHED = ["README.md", ...markdownUnder("docs")].filter((p) => !NOT_PUBLISHED.has(p));
/** A picture a page shows, published with the pages: a file under docs/ (docs/guides/images/). */
const isPicture = (path: string) => path.startsWith("docs/") && /\.(png|jpe?g|svg|gif|webp)$/i.test(path);

/** A heading's anchor as GitHub and the registry make it. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}
function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

/** The links of a page's prose (not of its code), as written. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** Where the relative links of `page` (its text given) lead that is not a published page, or an anchor in one. */
function brokenLinksOf(page: string, text: string): string[] {
  const broken: string[] = [];
  for (const link of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // another site: https://, mailto:
    const [path, anchor] = link.split("#") as [string, string | undefined];
    const target = path === "" ? page : normalize(join(dirname(page), path)).replace(/\\/g, "/");
    if (isPicture(target) && anchor === undefined) {
      if (!existsSync(join(ROOT, target))) broken.push(`${page}: ${link} (missing)`);
    } else if (!PUBLISHED.includes(target)) {
      broken.push(`${page}: ${link} (${existsSync(join(ROOT, target)) ? "not a published page" : "missing"})`);
    } else if (anchor !== undefined && !anchorsOf(target).has(anchor)) {
      broken.push(`${page}: ${link} (no such heading in ${target})`);
    }
  }
  return broken;
}

const floor = Number(
  /^>=(\d+)$/.exec(
    (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } }).engines.node,
  )![1],
);

/** Every Node.js version a text names as the lowest it needs, with where. */
function floorsNamed(file: string): { where: string; version: number }[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const patterns = [
    /Node\.js\s*\^?>=\s*(\d+)/g, // Node.js >= 22
    /Node\.js\s+(\d+)\s+or\s+(?:later|newer)/g, // Node.js 22 or later
    /Node\.js\s+(\d+)\+/g, // Node.js 22+
    /node_major\s*<\s*(\d+)/g, // the launcher's check
    /NSP_NODE_MAJOR%\s+LSS\s+(\d+)/g, // the Windows launcher's check
  ];
  return patterns.flatMap((re) =>
    [...text.matchAll(re)].map((m) => ({ where: `${file}: ${m[0]}`, version: Number(m[1]) })),
  );
}

describe("the published pages", () => {
  it("are README.md and docs/, but the contributors' pages", () => {
    expect(PUBLISHED).toContain("README.md");
    expect(PUBLISHED).toContain("docs/api.md");
    expect(PUBLISHED).toContain("docs/guides/getting-started.md");
    expect(PUBLISHED).not.toContain("docs/ARCHITECTURE.md");
  });

  it("link only to published pages and to headings that exist, never into the repository", () => {
    expect(PUBLISHED.flatMap((page) => brokenLinksOf(page, readFileSync(join(ROOT, page), "utf8")))).toEqual([]);
  });

  it("would be caught linking a repository file, a missing page, a missing heading or a missing picture", () => {
    const text =
      "[a test](../../test/e2e/harness/pulumi-cli.ts), [gone](./gone.md), [no " +
      "heading](../api.md#no-such-heading), [fine](../api.md#errors), [site](https://nodejs.org), " +
      ("![shown](./images/fleet-page.png), ![not drawn](./images/none.png), " +
        "![outside](../../bench/chart.png)\n```sh\n[code](../../CHANGELOG.md)\n```\n");
    expect(brokenLinksOf("docs/guides/example.md", text)).toEqual([
      "docs/guides/example.md: ../../test/e2e/harness/pulumi-cli.ts (not a published page)",
      "docs/guides/example.md: ./gone.md (missing)",
      "docs/guides/example.md: ../api.md#no-such-heading (no such heading in docs/api.md)",
      "docs/guides/example.md: ./images/none.png (missing)",
      "docs/guides/example.md: ../../bench/chart.png (missing)",
    ]);
  });

  it("name the Node.js floor of package.json's engines, as the plugin's launchers check it", () => {
    const files = [
      ...PUBLISHED,
      "CONTRIBUTING.md",
      "bin/pulumi-resource-nsp",
      "bin/pulumi-resource-nsp.cmd",
      "scripts/release.mjs",
    ];
    const named = files.flatMap(floorsNamed);
    // The pages do name it (the check is not vacuous): the README's install, the guide, the launcher.
    for (const file of [
      "README.md",
      "docs/guides/getting-started.md",
      "docs/installation-configuration.md",
      "bin/pulumi-resource-nsp",
    ]) {
      expect(
        named.some((n) => n.where.startsWith(`${file}:`)),
        file,
      ).toBe(true);
    }
    expect(named.filter((n) => n.version !== floor).map((n) => n.where)).toEqual([]);
  });

  it("name the Node.js lines package.json's testedNodeVersions lists, where they say what nsp is tested on", () => {
    const tested = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { testedNodeVersions: string[] }
    ).testedNodeVersions.map((v) => Number(v.split(".")[0]));
    const claims = PUBLISHED.flatMap((page) =>
      [
        ...readFileSync(join(ROOT, page), "utf8")
          .replace(/\s+/g, " ")
          .matchAll(/tested on (?:the (?:Node\.js )?LTS lines )?(\d+(?:, \d+)*(?:,? and \d+)?)/g),
      ].map((m) => ({
        page,
        lines: m[1]!.split(/, | and |,/).map(Number),
      })),
    );
    expect(claims.map((c) => c.page)).toEqual(expect.arrayContaining(["README.md", "docs/guides/getting-started.md"]));
    for (const claim of claims) expect(claim.lines, claim.page).toEqual(tested);
  });

  it("keep the README a user's page, short enough to read", () => {
    expect(statSync(join(ROOT, "README.md")).size).toBeLessThanOrEqual(25 * 1024);
  });
});
