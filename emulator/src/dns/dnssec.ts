// Online signing with ECDSA P-256 (algorithm 13): a real key pair, so the DS and DNSKEY strings
// have the right shape and the DS digest really matches the DNSKEY.
import { createHash, generateKeyPairSync } from "node:crypto";
import type { DnssecKey } from "../model/store";

const FLAGS_KSK = 257;
const PROTOCOL = 3;
const ALG_ECDSAP256SHA256 = 13;
const DIGEST_SHA256 = 2;

function wireName(name: string): Buffer {
  const parts = name
    .toLowerCase()
    .split(".")
    .filter((l) => l !== "")
    .map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, "ascii")]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

/** RFC 4034 appendix B. */
function keyTag(rdata: Buffer): number {
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? (rdata[i] as number) : (rdata[i] as number) << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}

export function generateDnssecKey(zone: string): DnssecKey {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const jwk = publicKey.export({ format: "jwk" });
  const pub = Buffer.concat([Buffer.from(jwk.x ?? "", "base64url"), Buffer.from(jwk.y ?? "", "base64url")]);
  const rdata = Buffer.concat([Buffer.from([FLAGS_KSK >> 8, FLAGS_KSK & 0xff, PROTOCOL, ALG_ECDSAP256SHA256]), pub]);
  const digest = createHash("sha256").update(wireName(zone)).update(rdata).digest("hex").toUpperCase();
  return {
    dnskey: `${FLAGS_KSK} ${PROTOCOL} ${ALG_ECDSAP256SHA256} ${pub.toString("base64")}`,
    ds: `${keyTag(rdata)} ${ALG_ECDSAP256SHA256} ${DIGEST_SHA256} ${digest}`,
  };
}
