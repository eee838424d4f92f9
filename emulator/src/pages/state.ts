// Static-site projects and their deploys. The tables hang off the Store through a WeakMap, like
// the other areas; ids come from the store's one counter and rows carry their account.
import type { Store } from "../store";

export interface DeployRow {
  id: number;
  status: "uploading" | "ready";
  created_at: string;
  finished_at: string | null;
}

export interface PagesProjectRow {
  id: number;
  account: string;
  name: string;
  /** Deploys in creation order; the newest is last. */
  deploys: DeployRow[];
  live_deploy_id: number | null;
  created_at: string;
}

export const PAGES_DOMAIN = "pages.nsp-emulator.test";

const tables = new WeakMap<Store, Map<number, PagesProjectRow>>();

export function pagesProjects(store: Store): Map<number, PagesProjectRow> {
  let t = tables.get(store);
  if (!t) {
    const created = new Map<number, PagesProjectRow>();
    store.registerUsage("pages_projects", (a) => store.list(created, a).length);
    tables.set(store, created);
    t = created;
  }
  return t;
}
