// Just enough XML for the RFC 8183 out-of-band setup documents: a strict well-formedness parser
// (no DTDs, so no entity expansion from the outside) and the child request / parent response
// shapes.

const RPKI_SETUP_NS = "http://www.hactrn.net/uris/rpki/rpki-setup/";

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*/;
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

class XmlSyntaxError extends Error {}

/** Parses one XML document; throws an Error whose message says what is wrong and where. */
export function parseXml(src: string): XmlElement {
  let i = src.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (what: string): never => {
    const line = src.slice(0, i).split("\n").length;
    throw new XmlSyntaxError(`${what} (line ${line})`);
  };
  const skipSpace = () => {
    while (i < src.length && /\s/.test(src[i]!)) i++;
  };
  const readName = (): string => {
    const m = NAME.exec(src.slice(i, i + 256));
    if (!m) fail("expected a name");
    i += m![0].length;
    return m![0];
  };
  const decode = (raw: string): string =>
    raw.replace(/&([^;\s&]*);?/g, (whole, ref: string) => {
      if (!whole.endsWith(";")) fail(`unterminated reference &${ref}`);
      if (ref in ENTITIES) return ENTITIES[ref]!;
      const num = /^#(x[0-9a-fA-F]{1,6}|[0-9]{1,7})$/.exec(ref);
      if (!num) fail(`unknown entity &${ref};`);
      const code = num![1]!.startsWith("x") ? parseInt(num![1]!.slice(1), 16) : Number(num![1]);
      if (code > 0x10ffff) fail(`character reference &${ref}; is out of range`);
      return String.fromCodePoint(code);
    });
  // Comments and processing instructions, allowed before, inside and after the root element.
  const skipMisc = (): boolean => {
    if (src.startsWith("<!--", i)) {
      const end = src.indexOf("-->", i + 4);
      if (end < 0) fail("unterminated comment");
      i = end + 3;
      return true;
    }
    if (src.startsWith("<?", i)) {
      const end = src.indexOf("?>", i + 2);
      if (end < 0) fail("unterminated processing instruction");
      i = end + 2;
      return true;
    }
    if (src.startsWith("<!DOCTYPE", i)) fail("a DOCTYPE is not allowed");
    return false;
  };

  const element = (): XmlElement => {
    i++; // "<"
    const name = readName();
    const attrs: Record<string, string> = {};
    for (;;) {
      const before = i;
      skipSpace();
      if (src.startsWith("/>", i)) {
        i += 2;
        return { name, attrs, children: [], text: "" };
      }
      if (src[i] === ">") {
        i++;
        break;
      }
      if (i === before) fail(`expected whitespace, '>' or '/>' in <${name}>`);
      const attr = readName();
      skipSpace();
      if (src[i] !== "=") fail(`attribute ${attr} of <${name}> has no value`);
      i++;
      skipSpace();
      const quote = src[i];
      if (quote !== '"' && quote !== "'") fail(`the value of attribute ${attr} must be quoted`);
      const end = src.indexOf(quote!, i + 1);
      if (end < 0) fail(`unterminated value of attribute ${attr}`);
      const raw = src.slice(i + 1, end);
      if (raw.includes("<")) fail(`'<' in the value of attribute ${attr}`);
      if (attr in attrs) fail(`attribute ${attr} repeated in <${name}>`);
      attrs[attr] = decode(raw);
      i = end + 1;
    }
    const children: XmlElement[] = [];
    let text = "";
    for (;;) {
      if (i >= src.length) fail(`<${name}> is not closed`);
      if (src.startsWith("</", i)) {
        i += 2;
        const closing = readName();
        if (closing !== name) fail(`</${closing}> closes <${name}>`);
        skipSpace();
        if (src[i] !== ">") fail(`expected '>' after </${closing}`);
        i++;
        return { name, attrs, children, text };
      }
      if (src.startsWith("<![CDATA[", i)) {
        const end = src.indexOf("]]>", i + 9);
        if (end < 0) fail("unterminated CDATA section");
        text += src.slice(i + 9, end);
        i = end + 3;
        continue;
      }
      if (skipMisc()) continue;
      if (src[i] === "<") {
        children.push(element());
        continue;
      }
      const next = src.indexOf("<", i);
      const end = next < 0 ? src.length : next;
      text += decode(src.slice(i, end));
      i = end;
    }
  };

  try {
    for (;;) {
      skipSpace();
      if (!skipMisc()) break;
    }
    if (src[i] !== "<") fail("expected the root element");
    const root = element();
    for (;;) {
      skipSpace();
      if (i >= src.length) break;
      if (!skipMisc()) fail("content after the root element");
    }
    return root;
  } catch (e) {
    if (e instanceof XmlSyntaxError) throw new Error(`not well-formed XML: ${e.message}`);
    throw e;
  }
}

/** The local part of a possibly prefixed name (`rpki:parent_response` -> `parent_response`). */
function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

/** The namespace of an element, resolved from its own declarations only (enough for a root). */
function namespaceOf(el: XmlElement): string | undefined {
  const colon = el.name.indexOf(":");
  return colon < 0 ? el.attrs.xmlns : el.attrs[`xmlns:${el.name.slice(0, colon)}`];
}

const HANDLE = /^[-_A-Za-z0-9/]{1,255}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface ParentResponse {
  parentHandle: string;
  childHandle: string;
  serviceUri: string;
}

/**
 * Checks an RFC 8183 parent response (section 5.2.4): root `parent_response` in the setup
 * namespace, version 1, `service_uri`, `child_handle`, `parent_handle`, and a base64
 * `parent_bpki_ta`. Returns a problem in words, or the fields the CA keeps.
 */
export function readParentResponse(xml: string): { ok: true; value: ParentResponse } | { ok: false; problem: string } {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (e) {
    return { ok: false, problem: (e as Error).message };
  }
  const name = localName(root.name);
  if (name !== "parent_response")
    return { ok: false, problem: `the root element must be parent_response, not ${name}` };
  if (namespaceOf(root) !== RPKI_SETUP_NS)
    return { ok: false, problem: `parent_response must be in the namespace ${RPKI_SETUP_NS}` };
  if (root.attrs.version !== "1") return { ok: false, problem: 'parent_response must have version="1"' };
  for (const attr of ["service_uri", "child_handle", "parent_handle"]) {
    if (!root.attrs[attr]) return { ok: false, problem: `parent_response has no ${attr} attribute` };
  }
  const {
    service_uri: serviceUri,
    child_handle: childHandle,
    parent_handle: parentHandle,
  } = root.attrs as Record<string, string>;
  if (!/^https?:\/\/[^\s/]+/.test(serviceUri!))
    return { ok: false, problem: "service_uri must be an http or https URI" };
  for (const [attr, v] of [
    ["child_handle", childHandle],
    ["parent_handle", parentHandle],
  ] as const) {
    if (!HANDLE.test(v!)) return { ok: false, problem: `${attr} must be 1 to 255 letters, digits, '-', '_' or '/'` };
  }
  const ta = root.children.find((c) => localName(c.name) === "parent_bpki_ta");
  if (!ta) return { ok: false, problem: "parent_response has no parent_bpki_ta element" };
  const b64 = ta.text.replace(/\s+/g, "");
  if (!BASE64.test(b64) || b64.length % 4 !== 0)
    return { ok: false, problem: "parent_bpki_ta must be a base64 certificate" };
  return { ok: true, value: { parentHandle: parentHandle!, childHandle: childHandle!, serviceUri: serviceUri! } };
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
}

/** The RFC 8183 child request (section 5.2.3) the CA hands to its parent. */
export function childRequestXml(handle: string, bpkiTa: string): string {
  const lines = bpkiTa.match(/.{1,64}/g) ?? [];
  return [
    `<child_request xmlns="${RPKI_SETUP_NS}" version="1" child_handle="${escapeAttr(handle)}">`,
    "  <child_bpki_ta>",
    ...lines.map((l) => `    ${l}`),
    "  </child_bpki_ta>",
    "</child_request>",
    "",
  ].join("\n");
}
