import { lowerCaseMatching } from "../../framework/api/validators";
import { z } from "zod";
import { singleton } from "../../framework/api/shapes/singleton";
import { idFormat } from "../../framework/api/ids";

const TOKEN = "nsp:meet:Settings";
/** The account has one settings object; this is its id, and its import id. */
const SETTINGS_ID = "meet-settings";

// Every setting is patched; one the program stops setting stays as it is (there is nothing to reset it to).
const flag = (what: string) =>
  z
    .boolean()
    .optional()
    .meta({ description: `${what} Left as the account has it when unset.`, patch: true });

const settingsArgs = z.object({
  waitingRoom: flag("Whether guests wait in a waiting room until admitted."),
  waitingRoomAll: flag("Whether everybody (members too) waits in the waiting room; needs `waitingRoom`."),
  guestsAllowed: flag("Whether people outside the organisation may join."),
  muteOnEntry: flag("Whether microphones are muted on entry."),
  camOffOnEntry: flag("Whether cameras are off on entry."),
  chat: flag("Whether the in-meeting chat is on."),
  reactions: flag("Whether reactions are on."),
  hostMustJoinFirst: flag("Whether the meeting starts only when the host joins."),
  lockedDefault: flag("Whether new meetings start locked."),
  sharePolicy: z
    .enum(["anyone", "host_only", "host_approve"])
    .optional()
    .meta({ description: "Who may share a screen. Left as the account has it when unset.", patch: true }),
  recordPolicy: z.enum(["off", "host", "auto"]).optional().meta({
    description: "Recording: `off`, by the `host`, or `auto`matic. Left as the account has it when unset.",
    patch: true,
  }),
  city: lowerCaseMatching(/^[a-z]{3}$/, "must be a three-letter city code such as fra")
    .optional()
    .meta({
      description: "City that hosts new meetings; one of `cities`. Left as the account has it when unset.",
      patch: true,
    }),
  phoneLang: z
    .enum(["en", "zh"])
    .optional()
    .meta({ description: "Language of the dial-in prompts. Left as the account has it when unset.", patch: true }),
  retention: z
    .object({
      days: z
        .number()
        .int()
        .min(1, "must be at least 1")
        .max(3650, "must be at most 3650")
        .meta({ description: "Days recordings are kept (1 to 3650)." }),
    })
    .optional()
    .meta({
      typeName: "MeetRetention",
      description: "How long recordings are kept. Left as the account has it when unset.",
      patch: true,
    }),
});

const settingsState = z.object({
  cities: z
    .array(
      z
        .object({
          id: z.string().meta({ description: "City code." }),
          name: z.string().optional().meta({ description: "Display name." }),
          country: z.string().optional().meta({ description: "Country code." }),
        })
        .meta({ typeName: "MeetCity", description: "A city that accepts new meetings." }),
    )
    .meta({ description: "The cities that accept new meetings." }),
});

const meetSettings = singleton({
  token: TOKEN,
  path: "/meet/settings",
  args: settingsArgs,
  state: settingsState,
  id: idFormat("meeting settings object", { name: "settingsId", pattern: SETTINGS_ID }),
  objectId: () => SETTINGS_ID,
  stays: "the settings as they are (new meetings keep using them)",
});

export const settings = meetSettings.resource({
  since: "0.1.0",
  notListed: "account-wide defaults the API makes with the account; import id `meet-settings` by hand if wanted",
  description:
    `The account's defaults for new meetings (one object per account; existing meetings keep the policy ` +
    `they were made with). Only the settings the program sets are managed; the others stay as the ` +
    `account has them. Deleting the resource leaves the settings as they are and says so. Import id: \`${SETTINGS_ID}\`.`,
  importId: SETTINGS_ID,

  check(args) {
    return args.waitingRoomAll === true && args.waitingRoom === false
      ? [{ property: "waitingRoomAll", reason: "needs waitingRoom" }]
      : [];
  },
});
