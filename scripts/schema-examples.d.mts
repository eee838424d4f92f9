// Types of scripts/schema-examples.mjs, for the tests that import it.
type Schema = { resources: Record<string, { description: string }>; functions: Record<string, { description: string }> };
export declare function exampleSections(schema: Schema): Record<string, string>;
export declare function withExampleSections<T extends Schema>(schema: T, sections: Record<string, string>): T;
export declare function withoutExampleSections<T extends Schema>(schema: T): T;
