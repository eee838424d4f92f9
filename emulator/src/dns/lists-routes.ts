import { paginate, pagingOnlyQuery } from "../model/paging";
import { route } from "../pipeline/route";
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
