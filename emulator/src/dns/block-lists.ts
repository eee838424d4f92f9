// The block-list catalogue: listed at GET /dns/lists, and what a resolver's filters may name.
// A fixed catalogue: the emulator has no real blocklists, only their description.
export const BLOCK_LISTS = [
  { key: "ads", name: "Advertising", description: "Ad servers and ad networks", entries: 48213 },
  { key: "trackers", name: "Trackers", description: "Analytics and cross-site tracking", entries: 31877 },
  { key: "malware", name: "Malware", description: "Malware distribution and command-and-control", entries: 120455 },
  { key: "phishing", name: "Phishing", description: "Known phishing sites", entries: 65021 },
  { key: "adult", name: "Adult content", description: "Adult and explicit material", entries: 250310 },
  { key: "gambling", name: "Gambling", description: "Online gambling", entries: 18040 },
] as const;

export const BLOCK_LIST_KEYS: ReadonlySet<string> = new Set(BLOCK_LISTS.map((l) => l.key));
