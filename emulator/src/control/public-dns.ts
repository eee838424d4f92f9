// What "the public DNS tree" says about a name. Zone verification and (later) edge-site
// verification read it; tests write it through /_emulator/public-dns or app.publicDns.

export interface PublicDnsEntry {
  name: string;
  ns: string[];
  cname: string | null;
}

export function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, "");
}

export class PublicDns {
  private readonly entries = new Map<string, PublicDnsEntry>();

  /** Replaces what public DNS reports for `name`. */
  set(input: { name: string; ns?: string[] | undefined; cname?: string | null | undefined }): PublicDnsEntry {
    const entry: PublicDnsEntry = {
      name: normalizeName(input.name),
      ns: (input.ns ?? []).map(normalizeName),
      cname: input.cname ? normalizeName(input.cname) : null,
    };
    this.entries.set(entry.name, entry);
    return entry;
  }

  get(name: string): PublicDnsEntry | undefined {
    return this.entries.get(normalizeName(name));
  }

  delete(name: string): boolean {
    return this.entries.delete(normalizeName(name));
  }

  clear(): void {
    this.entries.clear();
  }

  list(): PublicDnsEntry[] {
    return [...this.entries.values()];
  }
}
