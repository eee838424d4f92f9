import { roomCitiesFunction } from "../talk/fields";

export const getRtcCities = roomCitiesFunction(
  "nsp:rtc:getRtcCities",
  "0.1.0",
  "/rtc/cities",
  "Lists the cities that host realtime rooms (`nsp:rtc:Room`) and whether each accepts new rooms now.",
);
