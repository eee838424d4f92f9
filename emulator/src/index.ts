// Public surface of the emulator for in-process use (tests, the demo, the provider's tests).
export { buildApp, type BuildOptions } from "./pipeline/app";
export type { AccountCredentials, AccountSpec, EmulatorApp } from "./pipeline/emulator-app";
export { listen, startEmulator, type ListenOptions, type RunningEmulator, type RunningServer } from "./process/server";
export { ApiError, ERROR_STATUS, type ErrorCode } from "./pipeline/errors";
export type { FaultConfig, FaultKind } from "./control/faults";
export type { StatsSnapshot } from "./control/stats";
export { route, type Route } from "./pipeline/route";
