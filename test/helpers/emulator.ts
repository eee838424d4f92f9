// Talks to a running emulator over HTTP: the API as a user's script would, plus its test-control
// endpoints (request counts, faults, accounts) under /_emulator.

type Obj = Record<string, unknown>;

export class EmulatorControl {
  readonly root: string;

  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {
    this.root = baseUrl.replace(/\/api\/v1\/?$/, "");
  }

  async api<T = Obj>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T = Obj>(path: string) {
    return this.api<T>("GET", path);
  }
  post<T = Obj>(path: string, body: unknown) {
    return this.api<T>("POST", path, body);
  }
  put<T = Obj>(path: string, body: unknown) {
    return this.api<T>("PUT", path, body);
  }
  patch<T = Obj>(path: string, body: unknown) {
    return this.api<T>("PATCH", path, body);
  }
  delete(path: string) {
    return this.api("DELETE", path);
  }

  /** Every item of a list endpoint, following next_offset (or, for a bare array, until a short page). */
  async list<T = Obj>(path: string): Promise<T[]> {
    const items: T[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const sep = path.includes("?") ? "&" : "?";
      const page: T[] | { data: T[]; paging: { next_offset: number | null } } = await this.get(`${path}${sep}limit=500&offset=${offset}`);
      const rows: T[] = Array.isArray(page) ? page : page.data;
      items.push(...rows);
      offset = Array.isArray(page) ? (rows.length < 500 ? null : offset + rows.length) : page.paging.next_offset;
    }
    return items;
  }

  services() {
    return this.list<{ id: number; type: string; name: string }>("/services");
  }

  private async control<T = Obj>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.root}/_emulator${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} /_emulator${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  stats() {
    return this.control<{ total: number; mutating: number; byMethod: Record<string, number>; byRoute: Record<string, number>; rateLimited: number; faults: Record<string, number> }>("GET", "/stats");
  }
  resetStats() {
    return this.control("POST", "/stats/reset");
  }
  setFaults(config: Obj) {
    return this.control("PUT", "/faults", config);
  }
  clearFaults() {
    return this.control("DELETE", "/faults");
  }
  /** Ends a service outside the API (its subscription cancelled), with the objects that belong to it. */
  endService(id: string | number) {
    return this.control("DELETE", `/services?id=${id}`);
  }
  /** Switches the running emulator to other answers for points the API leaves "not shown". */
  setAlternatives(alternatives: readonly string[]) {
    return this.control("PUT", "/alternatives", { alternatives });
  }
  setPublicDns(name: string, ns: string[]) {
    return this.control("PUT", "/public-dns", { name, ns });
  }
  async addAccount(name: string, token?: string, scope?: "read" | "write"): Promise<string> {
    const res = await this.control<{ token: string }>("POST", "/accounts", { name, token, scope });
    return res.token;
  }
  /** Every credential partners minted for their customers so far, expired and revoked ones included. */
  async partnerCredentials(): Promise<{ token: string; partner: string; subject: string; scope: string; expired: boolean; revoked: boolean }[]> {
    return (await this.control<{ data: { token: string; partner: string; subject: string; scope: string; expired: boolean; revoked: boolean }[] }>("GET", "/partner/credentials")).data;
  }
}
