import type { z } from 'zod';
import { validationFailed } from '../core/errors';

type Issue = z.core.$ZodIssue;

function fieldName(path: PropertyKey[], fallback: string): string {
  return path.length === 0 ? fallback : path.map(String).join('.');
}

function hasValueAt(data: unknown, path: PropertyKey[]): boolean {
  let node: unknown = data;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node !== undefined;
}

/** One readable line per problem, `<field>: <what is wrong>`. */
export function describeIssues(issues: readonly Issue[], data: unknown, fallback = 'body'): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const field = fieldName(issue.path, fallback);
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) lines.push(`${fieldName([...issue.path, key], fallback)}: unknown field`);
        break;
      case 'invalid_type': {
        // A schema may say in its own words what it wants (a path where a bare id was sent);
        // zod's own messages start with "Invalid input".
        const own = issue.message.startsWith('Invalid input') ? undefined : issue.message;
        const isGiven = hasValueAt(data, issue.path) || issue.path.length === 0;
        lines.push(isGiven ? `${field}: ${own ?? `must be ${article(issue.expected)}`}` : `${field}: is required`);
        break;
      }
      case 'invalid_value':
        lines.push(`${field}: must be one of ${issue.values.map(String).join(', ')}`);
        break;
      case 'too_big':
        lines.push(
          `${field}: must be ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}${unitOf(issue.origin)}`,
        );
        break;
      case 'too_small':
        if (issue.origin === 'string' && issue.minimum === 1) lines.push(`${field}: must not be empty`);
        else if (issue.inclusive === false)
          lines.push(`${field}: must be greater than ${String(issue.minimum)}${unitOf(issue.origin)}`);
        else lines.push(`${field}: must be at least ${String(issue.minimum)}${unitOf(issue.origin)}`);
        break;
      case 'invalid_format':
        lines.push(`${field}: ${issue.format === 'regex' ? issue.message : `must be a valid ${issue.format}`}`);
        break;
      default:
        lines.push(`${field}: ${issue.message}`);
    }
  }
  return lines;
}

function article(expected: string): string {
  const words: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    int: 'an integer',
    boolean: 'true or false',
    object: 'an object',
    array: 'an array',
    null: 'null',
  };
  return words[expected] ?? expected;
}

function unitOf(origin: string): string {
  if (origin === 'string') return ' characters';
  if (origin === 'array') return ' items';
  return '';
}

/** Parses `data` with `schema`, or throws a 400 validation-failed problem listing every field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, data: unknown, fallback = 'body'): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw validationFailed(describeIssues(result.error.issues, data, fallback));
  return result.data;
}

/** Read-only fields are returned by the API but ignored when sent back. */
export function withoutReadOnly(body: unknown, readOnly: readonly string[]): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || readOnly.length === 0) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of readOnly) delete copy[field];
  return copy;
}

type Def = { type: string; innerType?: { _zod: { def: Def } } };

function baseType(field: z.ZodType): { type: string; isNullable: boolean } {
  let def = field._zod.def as unknown as Def;
  let isNullable = false;
  while ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) {
    if (def.type === 'nullable') isNullable = true;
    def = def.innerType._zod.def;
  }
  return { type: def.type, isNullable };
}

/**
 * Form bodies carry only strings: turn `true`/`false` and numerals into the types the JSON
 * schema expects, so that one schema validates both content types.
 */
export function coerceFormBody(schema: z.ZodType, body: Record<string, unknown>): Record<string, unknown> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const field = shape[key];
    if (!field || typeof value !== 'string') {
      out[key] = value;
      continue;
    }
    const { type, isNullable } = baseType(field);
    if (isNullable && value === '') out[key] = null;
    else if (type === 'boolean' && (value === 'true' || value === 'false')) out[key] = value === 'true';
    else if (type === 'number' && /^-?\d+(\.\d+)?$/.test(value)) out[key] = Number(value);
    else out[key] = value;
  }
  return out;
}
