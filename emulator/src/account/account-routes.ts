// The account's quota: its limits and what it uses of them.
import { route } from "../pipeline/route";

export const accountQuotaRoutes = [
  route({
    method: "GET",
    path: "/account/quota",
    scope: "read",
    handler: ({ store, account }) => {
      const usage = store.usage(account.name);
      // One unmetered pack: every limit 0, which the API defines as "unmetered".
      const limits = Object.fromEntries(Object.keys(usage).map((k) => [k, 0]));
      return {
        label: "Emulator Unlimited",
        limits,
        usage,
        packs: [{ plan: "emulator_unlimited", label: "Emulator Unlimited", qty: 1, note: null }],
      };
    },
  }),
];
