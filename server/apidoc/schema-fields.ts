/**
 * The fields of a schema in the OpenAPI document, flattened for a table: references resolved,
 * nullable unions unwrapped, nested objects as `parent.child` and arrays of objects as
 * `parent[].child`, each with its type, whether it is required, its bounds, its allowed values,
 * its description and its example.
 */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
};

export type OpenApiDocumentLike = { components?: { schemas?: Record<string, JsonSchema> } };

export type FieldRow = {
  name: string;
  type: string;
  isRequired: boolean;
  isNullable: boolean;
  description: string;
  /** Bounds and formats in words: "at most 1,000 characters", "1 to 100". */
  constraints: string[];
  values: readonly unknown[] | undefined;
  example: unknown;
};

/** Follows `$ref`s to `#/components/schemas/…`; the referring object's own keywords win. */
export function resolveSchema(document: OpenApiDocumentLike, schema: JsonSchema): JsonSchema {
  let current = schema;
  const seen = new Set<string>();
  while (current.$ref) {
    const ref = current.$ref;
    if (seen.has(ref)) throw new Error(`circular schema reference ${ref}`);
    seen.add(ref);
    const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
    const target = name === undefined ? undefined : document.components?.schemas?.[decodeURIComponent(name)];
    if (!target) throw new Error(`unresolved schema reference ${ref}`);
    const { $ref: _ref, ...own } = current;
    current = { ...target, ...own };
  }
  return current;
}

/** `X | null` as X with a nullable flag. */
export function unwrapNullable(
  document: OpenApiDocumentLike,
  schema: JsonSchema,
): { schema: JsonSchema; isNullable: boolean } {
  const resolved = resolveSchema(document, schema);
  const union = resolved.anyOf ?? resolved.oneOf;
  if (union) {
    const others = union.filter((member) => resolveSchema(document, member).type !== 'null');
    if (others.length === 1 && others.length < union.length) {
      const { anyOf: _anyOf, oneOf: _oneOf, ...own } = resolved;
      const inner = resolveSchema(document, others[0] as JsonSchema);
      return { schema: { ...inner, ...own }, isNullable: true };
    }
  }
  if (Array.isArray(resolved.type) && resolved.type.includes('null')) {
    const types = resolved.type.filter((type) => type !== 'null');
    return { schema: { ...resolved, type: types.length === 1 ? types[0] : types }, isNullable: true };
  }
  return { schema: resolved, isNullable: false };
}

export function describeType(document: OpenApiDocumentLike, given: JsonSchema): string {
  const { schema } = unwrapNullable(document, given);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return `enum (${typeof schema.enum[0] === 'number' ? 'number' : 'string'})`;
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((member) => describeType(document, member)).join(' or ');
  if (schema.type === 'array') return schema.items ? `array of ${describeType(document, schema.items)}` : 'array';
  const base = Array.isArray(schema.type)
    ? schema.type.join(' or ')
    : (schema.type ?? (schema.properties ? 'object' : 'any'));
  return schema.format && schema.format !== 'binary' ? `${base} (${schema.format})` : base;
}

const count = (n: number) => n.toLocaleString('en');

function describeBounds(schema: JsonSchema): string[] {
  const notes: string[] = [];
  const { minLength, maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minItems, maxItems } = schema;
  if (minLength !== undefined && maxLength !== undefined)
    notes.push(`${count(minLength)} to ${count(maxLength)} characters`);
  else if (maxLength !== undefined) notes.push(`at most ${count(maxLength)} characters`);
  else if (minLength !== undefined) notes.push(`at least ${count(minLength)} characters`);
  // Integers carry the safe-integer range as bounds: only bounds of our own are worth saying.
  const lower = minimum !== undefined && minimum > -Number.MAX_SAFE_INTEGER ? minimum : undefined;
  const upper = maximum !== undefined && maximum < Number.MAX_SAFE_INTEGER ? maximum : undefined;
  if (lower !== undefined && upper !== undefined) notes.push(`${count(lower)} to ${count(upper)}`);
  else if (lower !== undefined) notes.push(`at least ${count(lower)}`);
  else if (upper !== undefined) notes.push(`at most ${count(upper)}`);
  if (exclusiveMinimum !== undefined) notes.push(`greater than ${count(exclusiveMinimum)}`);
  if (exclusiveMaximum !== undefined) notes.push(`less than ${count(exclusiveMaximum)}`);
  if (minItems !== undefined) notes.push(`at least ${count(minItems)} items`);
  if (maxItems !== undefined) notes.push(`at most ${count(maxItems)} items`);
  // A described field says its form in words; the pattern is for the others.
  if (schema.pattern !== undefined && !schema.description) notes.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

function exampleOf(schema: JsonSchema): unknown {
  return schema.example !== undefined ? schema.example : schema.examples?.[0];
}

/** The object a list's items or a field's array holds, when it holds objects. */
function objectInside(
  document: OpenApiDocumentLike,
  given: JsonSchema,
): { schema: JsonSchema; suffix: string } | undefined {
  const { schema } = unwrapNullable(document, given);
  if (schema.properties) return { schema, suffix: '.' };
  if (schema.type === 'array' && schema.items) {
    const inner = objectInside(document, schema.items);
    return inner ? { schema: inner.schema, suffix: `[]${inner.suffix}` } : undefined;
  }
  return undefined;
}

function collectRows(document: OpenApiDocumentLike, object: JsonSchema, prefix: string, rows: FieldRow[]): void {
  const required = new Set(object.required ?? []);
  for (const [name, field] of Object.entries(object.properties ?? {})) {
    const { schema, isNullable } = unwrapNullable(document, field);
    rows.push({
      name: `${prefix}${name}`,
      type: describeType(document, field),
      isRequired: required.has(name),
      isNullable,
      description: schema.description ?? '',
      constraints: describeBounds(schema),
      values: schema.enum,
      example: exampleOf(schema),
    });
    const inner = objectInside(document, schema);
    if (inner) collectRows(document, inner.schema, `${prefix}${name}${inner.suffix}`, rows);
  }
}

/** Every field of a body: of the object itself, or of the items of a list. Empty for scalars. */
export function fieldRows(document: OpenApiDocumentLike, schema: JsonSchema): FieldRow[] {
  const rows: FieldRow[] = [];
  const inner = objectInside(document, schema);
  if (inner) collectRows(document, inner.schema, '', rows);
  return rows;
}

/** Whether a body is a list of its items (the tables then show an item's fields). */
export function isList(document: OpenApiDocumentLike, schema: JsonSchema): boolean {
  return unwrapNullable(document, schema).schema.type === 'array';
}

/** An example value made from the schema: its own examples where given, else a plain value of its type. */
export function exampleValue(document: OpenApiDocumentLike, given: JsonSchema, depth = 0): unknown {
  const { schema } = unwrapNullable(document, given);
  const own = exampleOf(schema);
  if (own !== undefined) return own;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (depth > 8) return null;
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.[0]) return exampleValue(document, union[0], depth + 1);
  if (schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties).map(([name, field]) => [name, exampleValue(document, field, depth + 1)]),
    );
  }
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'array':
      return schema.items ? [exampleValue(document, schema.items, depth + 1)] : [];
    case 'integer':
    case 'number':
      return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      return schema.format === 'email' ? 'someone@office.example' : 'string';
    default:
      return null;
  }
}
