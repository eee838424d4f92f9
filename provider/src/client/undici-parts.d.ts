// The two files of undici the client uses, imported by their paths: undici's index also loads its
// cookies, WebSocket, EventSource, caches, mocks and interceptors, a third of its load, in every
// plugin process (bench P9). Their types are the index's.
declare module "undici/lib/web/fetch" {
  export const fetch: typeof import("undici").fetch;
}
declare module "undici/lib/dispatcher/agent" {
  const Agent: typeof import("undici").Agent;
  export default Agent;
}
