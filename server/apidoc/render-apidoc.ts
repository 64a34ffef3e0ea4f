import { z } from 'zod';
import { PROBLEM_ANCHORS, PROBLEMS } from '../../shared/api/problems';
import { DEFAULT_PAGE_SIZE, DEFAULT_RATE_LIMIT, MAX_PAGE_SIZE } from '../../shared/constants';
import type { AnyRoute } from '../http/route';
import { toOpenApiPath } from '../http/openapi';
import { escapeHtml, inlineCode, page } from './html';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  maxLength?: number;
  description?: string;
  format?: string;
  const?: unknown;
};

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map(String).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.type === 'array' && schema.items) return `array of ${typeOf(schema.items)}`;
  const base = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  return schema.format ? `${base} (${schema.format})` : base;
}

function fieldTable(schema: z.ZodType, io: 'input' | 'output'): string {
  let json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  if (json.type === 'array' && json.items) json = json.items;
  const properties = Object.entries(json.properties ?? {});
  if (properties.length === 0) return '';
  const required = new Set(json.required ?? []);
  const rows = properties
    .map(([name, field]) => {
      const notes = [
        io === 'input' && required.has(name) ? 'required' : '',
        field.maxLength ? `at most ${field.maxLength.toLocaleString('en')} characters` : '',
        field.description ?? '',
      ].filter(Boolean);
      return `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(typeOf(field))}</td><td>${inlineCode(notes.join('; '))}</td></tr>`;
    })
    .join('\n');
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Notes</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function operationSection(route: AnyRoute): string {
  const path = toOpenApiPath(route.path);
  const parts = [
    `<section id="${escapeHtml(route.operationId)}">`,
    `<h3><span class="method ${route.method}">${route.method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
    `<p>${inlineCode(route.summary)}${route.description ? ` ${inlineCode(route.description)}` : ''}</p>`,
  ];
  if (route.query) parts.push('<p class="muted">Query parameters</p>', fieldTable(route.query, 'input'));
  if (route.body) parts.push('<p class="muted">Body (JSON or form)</p>', fieldTable(route.body, 'input'));
  if (route.rawBody) parts.push(`<p class="muted">Body: ${inlineCode(route.rawBody.description)}</p>`);
  for (const [status, spec] of Object.entries(route.responses)) {
    parts.push(`<p class="muted">${status}: ${inlineCode(spec.description)}</p>`);
    if (spec.schema) parts.push(fieldTable(spec.schema, 'output'));
  }
  parts.push('</section>');
  return parts.join('\n');
}

export function renderIndex(routes: readonly AnyRoute[]): string {
  const byTag = new Map<string, AnyRoute[]>();
  for (const route of routes) byTag.set(route.tag, [...(byTag.get(route.tag) ?? []), route]);
  const toc = [...byTag.keys()]
    .map((tag) => `<li><a href="#tag-${escapeHtml(tag.replace(/\W+/g, '-'))}">${escapeHtml(tag)}</a></li>`)
    .join('');
  const sections = [...byTag.entries()]
    .map(
      ([tag, list]) =>
        `<h2 id="tag-${escapeHtml(tag.replace(/\W+/g, '-'))}">${escapeHtml(tag)}</h2>\n${list.map(operationSection).join('\n')}`,
    )
    .join('\n');
  return page(
    'Endpoints',
    `<h1>SignDesk API, version 1</h1>
<p>Every request carries <code>Accept-Api-Version: 1</code> and <code>Authorization: token &lt;public_id&gt;:&lt;secret&gt;</code>.
Read <a href="/apidoc/v1/posting_data">conventions and errors</a> first; the machine-readable contract is <a href="/api/openapi.json">/api/openapi.json</a>.
To show parties' signing pages inside your own web app, see <a href="/apidoc/v1/embedding">embedding the signing page</a>.</p>
<ul>${toc}</ul>
${sections}`,
  );
}

export function renderPostingData(): string {
  const problems = Object.entries(PROBLEM_ANCHORS)
    .map(([anchor, info]) => {
      const uses = Object.values(PROBLEMS).filter((problem) => problem.anchor === anchor);
      const statuses = uses.map((problem) => `${problem.status} <em>${escapeHtml(problem.title)}</em>`).join(', ');
      return `<section id="${escapeHtml(anchor)}"><h3>${escapeHtml(info.heading)} <span class="muted">#${escapeHtml(anchor)}</span></h3>
<p>Status: ${statuses}</p><p>${inlineCode(info.explanation)}</p></section>`;
    })
    .join('\n');
  return page(
    'Conventions and errors',
    `<h1>Posting data: conventions and errors</h1>
<section id="conventions">
<h2>Conventions</h2>
<h3>Headers</h3>
<p><code>Accept-Api-Version</code> is required on every request; <code>1</code> selects this version.
<code>Authorization</code> is <code>token &lt;public_id&gt;:&lt;secret&gt;</code>. <code>Api-User-Uri</code> (optional) names the user
the request acts as, <code>/api/users/&lt;id&gt;</code>; without it the request acts as the token's owner.</p>
<h3>Bodies</h3>
<p>POST and PUT take <code>application/json</code> or <code>application/x-www-form-urlencoded</code> (form values <code>true</code>/<code>false</code> and numerals are read as booleans and numbers).
Contracts and attachments also take binary bodies of at most 2 MiB. Unknown fields are refused; read-only fields are ignored. On PUT only the fields sent change.
Strings hold at most 1,000 characters, <code>content</code> fields 100,000.</p>
<h3>Timestamps</h3>
<p><code>YYYY-MM-DD HH:MM:SS</code> in the appliance's time zone (default Europe/Stockholm).</p>
<h3>Pagination</h3>
<p>Every list pages: ${DEFAULT_PAGE_SIZE} items by default, <code>per_page</code> up to ${MAX_PAGE_SIZE}. Follow the <code>Link</code> header's
<code>rel="next"</code> and <code>rel="previous"</code> URLs; their <code>page</code> token is opaque and stays right while items are added.
<code>Pagination-Page</code>, <code>Pagination-Items-Total</code> and <code>Pagination-Num-Pages</code> say where you are.</p>
<h3>Rate limit</h3>
<p>${DEFAULT_RATE_LIMIT} requests a minute per token unless the token has its own limit. Every response carries <code>X-RateLimit-Limit</code> and
<code>X-RateLimit-Remaining</code>; once the quota is used up, <code>X-RateLimit-Reset</code> says when one new request can be made.</p>
</section>
<h2 id="errors">Problem responses</h2>
<p>Every 4xx and 5xx answer is <code>application/problem+json</code> with <code>title</code>, <code>status</code>, <code>detail</code>,
<code>instance</code> (the request path), <code>type</code> (a link to a section below) and <code>validation_errors</code> (one line per field, or empty).</p>
${problems}`,
  );
}
