/**
 * Builds a JSON value that satisfies a JSON schema (the subset pydantic and the OpenAI SDKs emit:
 * `$ref`/`$defs`, `anyOf`, objects with `required`, arrays, enums, `const`, defaults). The caller
 * decides the values that carry meaning through `pick`, keyed by the property path; everything
 * else gets the schema's default, its first enum/const, null where allowed, or a neutral value.
 */
export type JsonSchema = {
  type?: string | string[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  title?: string;
};

/** What the caller wants at one place in the answer; `undefined` means "fill from the schema". */
export type Pick = (path: readonly string[], schema: JsonSchema) => unknown;

const NONE = Symbol('none');

export function answerFromSchema(root: JsonSchema, pick: Pick): unknown {
  const defs = { ...(root.definitions ?? {}), ...(root.$defs ?? {}) };
  const resolve = (s: JsonSchema): JsonSchema => {
    let cur = s;
    for (let i = 0; cur.$ref !== undefined && i < 32; i++) {
      const name = cur.$ref.split('/').pop() ?? '';
      const target = defs[name];
      if (target === undefined) throw new Error(`unresolved $ref ${cur.$ref}`);
      cur = { ...target, ...Object.fromEntries(Object.entries(cur).filter(([k]) => k !== '$ref')) };
    }
    if (cur.allOf !== undefined) cur = Object.assign({}, ...cur.allOf.map(resolve), { ...cur, allOf: undefined });
    return cur;
  };

  const fill = (schemaIn: JsonSchema, path: string[]): unknown => {
    const schema = resolve(schemaIn);
    const chosen = pick(path, schema);
    if (chosen !== undefined) return chosen;
    if (schema.const !== undefined) return schema.const;
    if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
    if (schema.default !== undefined) return schema.default;
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants !== undefined) {
      const resolved = variants.map(resolve);
      if (resolved.some((v) => v.type === 'null')) return null;
      return fill(resolved[0] ?? {}, path);
    }
    const type = Array.isArray(schema.type) ? (schema.type.includes('null') ? 'null' : schema.type[0]) : schema.type;
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        const props = schema.properties ?? {};
        // Strict schemas list every property as required; pydantic's non-strict ones only the
        // fields without defaults. Filling every declared property satisfies both.
        for (const [key, sub] of Object.entries(props)) {
          const value = fill(sub, [...path, key]);
          if (value !== NONE) out[key] = value;
        }
        return out;
      }
      case 'array':
        return [];
      case 'string':
        return '';
      case 'integer':
      case 'number':
        return 0;
      case 'boolean':
        return false;
      case 'null':
        return null;
      default:
        return null;
    }
  };
  return fill(root, []);
}

/** Fills the items of an array at `path` from a list of seeds, each item from the item schema. */
export function arrayOf<T>(schema: JsonSchema, root: JsonSchema, seeds: readonly T[], item: (seed: T, index: number) => Pick): unknown[] {
  const itemSchema = schema.items ?? {};
  return seeds.map((seed, i) => answerFromSchema({ ...itemSchema, $defs: { ...(root.definitions ?? {}), ...(root.$defs ?? {}) } }, item(seed, i)));
}
