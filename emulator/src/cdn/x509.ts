// Certificates for edge sites: checking an uploaded certificate and key, and issuing origin
// certificates from the service's own origin CA. Node can parse X.509 but not write it, so the
// few DER structures a certificate needs are encoded here by hand.
import { type KeyObject, X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes, sign } from "node:crypto";

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), derLength(content.length), content]);
}

const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, "utf8"));

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split(".").map(Number);
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** A DER INTEGER of the unsigned big-endian `bytes`: minimal, as DER demands and OpenSSL checks. */
function positiveInt(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const minimal = bytes.subarray(start);
  return tlv(0x02, (minimal[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

/** 16 random bytes read as a positive number of 16 bytes: the first is 0x01 to 0x7f. */
export function randomSerial(): Buffer {
  const serial = randomBytes(16);
  serial[0] = 1 + ((serial[0] ?? 0) % 0x7f);
  return serial;
}

/** UTCTime until 2049, GeneralizedTime after, as RFC 5280 asks. */
function time(d: Date): Buffer {
  const iso = `${d.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;
  return d.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(iso.slice(2), "ascii"))
    : tlv(0x18, Buffer.from(iso, "ascii"));
}

const name = (cn: string) => seq(set(seq(oid("2.5.4.10"), utf8("NSP Emulator"))), set(seq(oid("2.5.4.3"), utf8(cn))));
const ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"));

const ORIGIN_CA_NAME = "NSP Emulator Origin CA";
const ORIGIN_CERT_DAYS = 5475; // 15 years: origin certificates are long-lived by design

export interface IssuedCertificate {
  certificate: string;
  private_key: string;
  serial: string;
  hostnames: string[];
  issuer: string;
  expires_at: string;
}

/** A leaf certificate for `hostnames`, signed by `caKey`, with a fresh P-256 key. */
export function issueCertificate(
  caKey: KeyObject,
  hostnames: string[],
  nowMs: number,
  serial: Buffer = randomSerial(),
): IssuedCertificate {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const notBefore = new Date(nowMs - 60_000);
  const notAfter = new Date(nowMs + ORIGIN_CERT_DAYS * 86_400_000);
  const san = seq(oid("2.5.29.17"), tlv(0x04, seq(...hostnames.map((h) => tlv(0x82, Buffer.from(h, "ascii"))))));
  const tbs = seq(
    explicit(0, positiveInt(Buffer.from([2]))),
    positiveInt(serial),
    ECDSA_SHA256,
    name(ORIGIN_CA_NAME),
    seq(time(notBefore), time(notAfter)),
    name(hostnames[0] ?? ""),
    publicKey.export({ type: "spki", format: "der" }),
    explicit(3, seq(san)),
  );
  const signature = sign("sha256", tbs, caKey);
  const der = seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const b64 = der
    .toString("base64")
    .replace(/(.{64})/g, "$1\n")
    .replace(/\n$/, "");
  return {
    certificate: `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`,
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    serial: serial.toString("hex"),
    hostnames,
    issuer: ORIGIN_CA_NAME,
    expires_at: notAfter.toISOString(),
  };
}

export function newCaKey(): KeyObject {
  return generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
}

/**
 * Checks an uploaded certificate and key: both parse, the key belongs to the certificate, the
 * certificate has not expired and covers the site's hostname. Null when all is well.
 */
export function certificateProblem(
  certPem: string,
  keyPem: string,
  hostname: string,
  nowMs: number,
): { field: "cert_pem" | "key_pem"; reason: string } | null {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    return { field: "cert_pem", reason: "must be a PEM-encoded X.509 certificate" };
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    return { field: "key_pem", reason: "must be a PEM-encoded private key" };
  }
  if (!cert.checkPrivateKey(key))
    return { field: "key_pem", reason: "is not the private key of the certificate in cert_pem" };
  if (Date.parse(cert.validTo) < nowMs)
    return { field: "cert_pem", reason: `the certificate expired on ${new Date(cert.validTo).toISOString()}` };
  if (cert.checkHost(hostname) === undefined)
    return { field: "cert_pem", reason: `the certificate does not cover ${hostname}` };
  return null;
}
