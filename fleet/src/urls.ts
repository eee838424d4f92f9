// The rule for an address the fleet sends something to over HTTP (a webhook): https, or plain
// http to a host that never leaves the machine. It is the rule the provider applies to its
// baseUrl (provider/src/config/provider-config.ts), restated here because the fleet does not
// import the provider's code: what crosses a network must be encrypted, and only loopback is
// sure not to cross one.

/** True for hosts that never leave the machine: 127.0.0.0/8, [::1] and `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  // URL keeps IPv6 literals in brackets and normalises both families (`127.1` is `127.0.0.1`,
  // `[0:0::1]` is `[::1]`), so a literal compare covers every spelling of them.
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Why plain `url` may not be used, or undefined when it may: https anywhere, http on loopback. */
export function insecureTransport(url: URL): string | undefined {
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") {
    return isLoopbackHost(url.hostname)
      ? undefined
      : `uses plain http to ${url.hostname}, which would cross the network unencrypted`;
  }
  return `is not an http or https URL`;
}

/**
 * The URL as messages and records show it: no user name or password, no query (either may hold
 * a credential), no fragment.
 */
export function shownAddress(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}
