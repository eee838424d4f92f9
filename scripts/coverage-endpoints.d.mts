// Types of scripts/coverage-endpoints.mjs, for the tests that import it.
export interface Endpoint {
  method: string;
  path: string;
  scope: string;
  section: string;
}
export declare const API_DOCS: string[];
export declare const ENDPOINTS_FILE: string;
export declare function documentEndpoints(): Endpoint[];
export declare function allEndpoints(): Endpoint[];
export declare function renderEndpointsFile(endpoints: Endpoint[]): string;
