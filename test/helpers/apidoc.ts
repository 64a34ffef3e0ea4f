/**
 * Reading the served /apidoc HTML as a reader's tools would: sections by id, field tables by
 * the body they show, code blocks by their attributes. Deliberately independent of the
 * renderer's own code.
 */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

export function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_match, name: string) => ENTITIES[name] ?? '');
}

/** The inside of `<section id="…" …>` up to its own end (operation sections hold no nested sections). */
export function sectionOf(html: string, id: string): string | undefined {
  const start = html.indexOf(`<section id="${id}"`);
  if (start < 0) return undefined;
  const end = html.indexOf('</section>', start);
  return html.slice(start, end);
}

/** The field names of the table that shows `dataFor` (`request`, `response-200`, …), or undefined when there is none. */
export function tableFields(html: string, dataFor: string): string[] | undefined {
  const match = new RegExp(`<table class="fields" data-for="${dataFor}">([\\s\\S]*?)</table>`).exec(html);
  if (!match?.[1]) return undefined;
  return [...match[1].matchAll(/<tr data-field="([^"]+)"><td[^>]*>[\s\S]*?<\/td><td class="type">([^<]+)<\/td>/g)].map(
    (row) => {
      if (!row[2]?.trim()) throw new Error(`${dataFor}: field ${row[1]} has no type`);
      return unescapeHtml(row[1] as string);
    },
  );
}

export type CodeBlock = { attributes: Record<string, string>; code: string };

/** Every `<pre …><code>…</code></pre>` with its attributes and its text as a reader copies it. */
export function codeBlocks(html: string): CodeBlock[] {
  return [...html.matchAll(/<pre([^>]*)><code>([\s\S]*?)<\/code><\/pre>/g)].map((match) => ({
    attributes: Object.fromEntries(
      [...(match[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map((attr) => [attr[1], unescapeHtml(attr[2] ?? '')]),
    ),
    code: unescapeHtml(match[2] ?? ''),
  }));
}

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Components = { components?: { schemas?: Record<string, Schema> } };

function resolve(document: Components, schema: Schema): Schema {
  let current = schema;
  while (current.$ref) current = document.components?.schemas?.[current.$ref.split('/').at(-1) as string] as Schema;
  const union = (current.anyOf ?? current.oneOf)?.filter((member) => resolve(document, member).type !== 'null');
  return union?.length === 1 ? resolve(document, union[0] as Schema) : current;
}

/** The names a complete field table must show: `a`, `a.b` for nested objects, `a[].b` for arrays of objects. */
export function expectedFields(document: Components, schema: Schema, prefix = ''): string[] {
  let object = resolve(document, schema);
  while (object.type === 'array' && object.items) object = resolve(document, object.items);
  const names: string[] = [];
  for (const [name, field] of Object.entries(object.properties ?? {})) {
    names.push(`${prefix}${name}`);
    let inner = resolve(document, field);
    let suffix = '.';
    while (inner.type === 'array' && inner.items) {
      inner = resolve(document, inner.items);
      suffix = `[]${suffix}`;
    }
    if (inner.properties) names.push(...expectedFields(document, inner, `${prefix}${name}${suffix}`));
  }
  return names;
}
