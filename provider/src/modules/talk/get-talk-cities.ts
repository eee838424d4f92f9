import { roomCitiesFunction } from "./fields";

export const getTalkCities = roomCitiesFunction(
  "nsp:talk:getTalkCities",
  "0.1.0",
  "/talk/cities",
  "Lists the cities that host chat rooms (`nsp:talk:Room`) and whether each accepts new rooms now.",
);
