// Types of scripts/build-inputs.mjs, for the tests that import it.
export declare const BUILD_INPUTS: string[];
export declare const BUILD_OUTPUTS: string[];
export declare const RELEASE_INPUTS: string[];
export declare const BUILD_STAMP: string;
export declare const RELEASE_STAMP: string;
export declare function fingerprint(root: string, paths: string[]): string;
export declare function staleness(root: string, stamp: string, inputs: string[], outputs: string[]): string | undefined;
export declare function writeStamp(root: string, stamp: string, inputs: string, outputs: string[], extra?: Record<string, unknown>): void;
