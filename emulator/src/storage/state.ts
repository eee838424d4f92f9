// Storage destinations' one table: the customer buckets that receive copies, by their `dst_` id.
import { areaState } from "../model/store";

export interface DestinationRow {
  id: string;
  account: string;
  name: string;
  region: string | null;
  prefix: string;
  endpoint: string;
  bucket: string;
  access_key: string;
  secret_key: string;
  auto_meet: boolean;
  last_test_at: string;
  created_at: string;
}

export const destinations = areaState(() => new Map<string, DestinationRow>());
