import { paginate, pagingOnlyQuery } from "../paging";
import { route } from "../router";
import { BLOCK_LISTS } from "./block-lists";

export const dnsListRoutes = [
  route({
    method: "GET",
    path: "/dns/lists",
    scope: "read",
    query: pagingOnlyQuery,
    handler: ({ query }) => paginate(BLOCK_LISTS, query, (l) => ({ ...l })),
  }),
];
