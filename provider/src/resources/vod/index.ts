// The video-on-demand area's definitions, listed once for the registry.
import type { AnyResource } from "../../framework/definition";
import { asset } from "./asset";
import { signingKey } from "./signing-key";
import { webhook } from "./webhook";

export const vodResources: readonly AnyResource[] = [asset, signingKey, webhook];
