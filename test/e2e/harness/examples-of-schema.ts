// The examples a user sees in schema.json (and so in the registry and the SDKs' doc comments):
// each `{{% example %}}` of a resource's or function's description, with its code per language.

export interface SchemaExample {
  token: string;
  /** Its position among the token's examples. */
  index: number;
  title: string;
  /** language (typescript, python, go, yaml) → program */
  code: Record<string, string>;
}

export function examplesOfSchema(schema: {
  resources: Record<string, { description: string }>;
  functions: Record<string, { description: string }>;
}): SchemaExample[] {
  const out: SchemaExample[] = [];
  for (const [token, spec] of [...Object.entries(schema.resources), ...Object.entries(schema.functions)]) {
    const blocks = spec.description
      .split("{{% example %}}")
      .slice(1)
      .map((b) => b.split("{{% /example %}}")[0]!);
    blocks.forEach((block, index) => {
      const code: Record<string, string> = {};
      for (const m of block.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)) code[m[1]!] = `${m[2]!}\n`;
      out.push({ token, index, title: /^### (.*)$/m.exec(block)?.[1] ?? "", code });
    });
  }
  return out;
}
