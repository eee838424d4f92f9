// Property schemas shared by the registry-link resources and functions.
import { z } from "zod";

export const MNTNER = /^[A-Z][A-Z0-9-]{0,77}-MNT$/;
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DS = /^\d{1,5} \d{1,3} \d{1,3} [0-9A-Fa-f]{20,128}$/;
export const REVERSE_DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+(in-addr|ip6)\.arpa$/;

export const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .transform((s) => s.replace(/\.$/, ""))
  .pipe(z.string().regex(HOST, "must be a host name such as ns1.example.net"));

export const dsRdata = z
  .string()
  .trim()
  .transform((s) => s.replace(/\s+/g, " "))
  .pipe(z.string().regex(DS, "must be DS record data: '<key tag> <algorithm> <digest type> <hex digest>'"));

export const reverseDomain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((s) => s.replace(/\.$/, ""))
  .pipe(z.string().regex(REVERSE_DOMAIN, "must be a reverse domain such as 2.0.192.in-addr.arpa or 8.b.d.0.1.0.0.2.ip6.arpa"));
