// Voice numbers' table: the numbers an account claimed, each addressed by its E.164 string, and
// the PBX extensions each rings.
import { areaState } from "../model/store";
import { onPbxDelete } from "../vgate/state";

/** What the emulator's packs allow: numbers claimable per account. */
export const VOICE_NUMBER_LIMIT = 10;

export interface VoiceNumberRow {
  /** The number itself, which is how the API addresses it (not shown apart in the view). */
  id: string;
  number: string;
  account: string;
  label: string | null;
  sip_in: boolean;
  noanswer: string | null;
  dest: string | null;
  endpoints: Array<{ pbx_id: string; ext: string }>;
  created_at: string;
}

interface VoiceTables {
  numbers: Map<string, VoiceNumberRow>;
  /** The serial of the next number handed out. */
  next: number;
}

export const voice = areaState((store): VoiceTables => {
  const t: VoiceTables = { numbers: new Map(), next: 1 };
  // A deleted PBX takes with it the endpoints that rang its extensions (docs/api-assumptions.md).
  onPbxDelete(store, (pbx) => {
    for (const n of t.numbers.values()) n.endpoints = n.endpoints.filter((e) => e.pbx_id !== pbx.id);
  });
  return t;
});
