// Certificates for edge sites: checking an uploaded certificate and key, and issuing origin
// certificates from the service's own origin CA. Node can parse X.509 but not write it: the
// certificate's structures are @peculiar/asn1-x509's, encoded to DER by @peculiar/asn1-schema,
// and node signs them.
import { type KeyObject, X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { AsnConvert, OctetString } from "@peculiar/asn1-schema";
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  Certificate,
  Extension,
  Extensions,
  GeneralName,
  Name,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
  id_ce_subjectAltName,
} from "@peculiar/asn1-x509";

/** The unsigned big-endian `bytes` as a DER INTEGER's content: minimal, as DER demands and OpenSSL checks. */
function positiveInt(bytes: Buffer): ArrayBuffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const minimal = bytes.subarray(start);
  const out = (minimal[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : Buffer.from(minimal);
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.length) as ArrayBuffer;
}

/** 16 random bytes read as a positive number of 16 bytes: the first is 0x01 to 0x7f. */
export function randomSerial(): Buffer {
  const serial = randomBytes(16);
  serial[0] = 1 + ((serial[0] ?? 0) % 0x7f);
  return serial;
}

const name = (cn: string) =>
  new Name(
    [
      ["2.5.4.10", "NSP Emulator"],
      ["2.5.4.3", cn],
    ].map(
      ([type, value]) =>
        new RelativeDistinguishedName([
          new AttributeTypeAndValue({ type, value: new AttributeValue({ utf8String: value }) }),
        ]),
    ),
  );
const ECDSA_SHA256 = "1.2.840.10045.4.3.2";

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
  const san = new SubjectAlternativeName(hostnames.map((h) => new GeneralName({ dNSName: h })));
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: positiveInt(serial),
    signature: new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 }),
    issuer: name(ORIGIN_CA_NAME),
    // UTCTime until 2049, GeneralizedTime after, as RFC 5280 asks.
    validity: new Validity({ notBefore, notAfter }),
    subject: name(hostnames[0] ?? ""),
    subjectPublicKeyInfo: AsnConvert.parse(publicKey.export({ type: "spki", format: "der" }), SubjectPublicKeyInfo),
    extensions: new Extensions([
      new Extension({
        extnID: id_ce_subjectAltName,
        critical: false,
        extnValue: new OctetString(AsnConvert.serialize(san)),
      }),
    ]),
  });
  const signature = sign("sha256", Buffer.from(AsnConvert.serialize(tbs)), caKey);
  const cert = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 }),
    signatureValue: signature.buffer.slice(
      signature.byteOffset,
      signature.byteOffset + signature.length,
    ) as ArrayBuffer,
  });
  const der = Buffer.from(AsnConvert.serialize(cert));
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
