// The exchange's one table: the networks that applied for membership, by their `ixm_` id.
import { areaState } from "../model/store";

export interface MemberRow {
  id: string;
  account: string;
  asn: number;
  name: string;
  as_set: string | null;
  contact: string;
  listed: boolean;
  state: "applied" | "active";
  created_at: string;
}

export const ixMembers = areaState(() => new Map<string, MemberRow>());
