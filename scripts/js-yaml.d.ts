// The two functions of js-yaml (which ships no declarations) that scripts/example-programs.ts uses.
declare module "js-yaml" {
  export function load(text: string): unknown;
  export function dump(value: unknown, options?: Record<string, unknown>): string;
}
