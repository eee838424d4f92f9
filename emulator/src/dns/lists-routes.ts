import { paginate, pagingOnlyQuery } from "../paging";
import { route } from "../router";

// A fixed catalogue: the emulator has no real blocklists, only their description.
const LISTS = [
  { key: "ads", name: "Advertising", description: "Ad servers and ad networks", entries: 48213 },
  { key: "trackers", name: "Trackers", description: "Analytics and cross-site tracking", entries: 31877 },
  { key: "malware", name: "Malware", description: "Malware distribution and command-and-control", entries: 120455 },
  { key: "phishing", name: "Phishing", description: "Known phishing sites", entries: 65021 },
  { key: "adult", name: "Adult content", description: "Adult and explicit material", entries: 250310 },
  { key: "gambling", name: "Gambling", description: "Online gambling", entries: 18040 },
];

export const dnsListRoutes = [
  route({
    method: "GET",
    path: "/dns/lists",
    scope: "read",
    query: pagingOnlyQuery,
    handler: ({ query }) => paginate(LISTS, query, (l) => ({ ...l })),
  }),
];
