// Public surface of the emulator for in-process use (tests, the demo, the provider's tests).
export { buildApp, type BuildOptions } from "./app";
export type { AccountCredentials, AccountSpec, EmulatorApp } from "./emulator-app";
export { listen, startEmulator, type ListenOptions, type RunningEmulator, type RunningServer } from "./server";
export { ApiError, ERROR_STATUS, type ErrorCode } from "./errors";
export type { FaultConfig, FaultKind } from "./faults";
export type { StatsSnapshot } from "./stats";
export { route, type Route } from "./router";
