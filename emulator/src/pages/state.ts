// Static-site projects and their deploys. The tables hang off the Store through a WeakMap, like
// the other areas; ids come from the store's one counter and rows carry their account.
import { accountTable } from "../model/store";

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

export const pagesProjects = accountTable<PagesProjectRow>("pages_projects");
