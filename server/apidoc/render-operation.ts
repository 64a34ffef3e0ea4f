import { PROBLEMS } from '../../shared/api/problems';
import { fieldTable, parameterTable, type ParameterLike } from './field-table';
import { codeBlock, escapeHtml, inlineCode, paragraphs } from './html';
import { exampleValue, resolveSchema, type JsonSchema, type OpenApiDocumentLike } from './schema-fields';

type MediaType = { schema?: JsonSchema; example?: unknown };
type Response = {
  description: string;
  headers?: Record<string, { description?: string; schema?: JsonSchema }>;
  content?: Record<string, MediaType>;
};
export type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ParameterLike[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response>;
  'x-codeSamples'?: Array<{ lang: string; label: string; source: string }>;
  'x-access'?: string;
};
export type ApiDocument = OpenApiDocumentLike & {
  info: { version: string; 'x-app-version'?: string };
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
};

const ACCESS: Record<string, string> = {
  user: "Any active user's API token (or a signed-in user of the admin UI).",
  admin: 'An administrator: a token whose user (or acting user) is a CUSTOMER_ADMIN_USER.',
  partner: 'A partner API token (or a signed-in administrator of the admin UI).',
  public: 'No token: this is how the admin UI signs in before it has one.',
};

/** Headers every request carries, explained once under Conventions rather than per endpoint. */
const CONVENTION_HEADERS = new Set(['Accept-Api-Version', 'Api-User-Uri']);
const PROBLEM_SCHEMA = '#/components/schemas/JsonProblemResponse';

const isJson = (type: string) => type === 'application/json' || type === 'application/x-www-form-urlencoded';

function requestBodyHtml(document: ApiDocument, operation: Operation): string {
  const body = operation.requestBody;
  if (!body) return '';
  const types = Object.keys(body.content);
  const json = body.content['application/json'];
  const binary = types.filter((type) => !isJson(type));
  const parts = [`<h4>Request body${body.required ? '' : ' <span class="badge optional">optional</span>'}</h4>`];
  if (binary.length > 0) {
    const description = body.content[binary[0] as string]?.schema?.description ?? 'The file itself';
    const types = binary
      .map((type) => (type === '*/*' ? 'any media type' : `<code>${escapeHtml(type)}</code>`))
      .join(', ');
    parts.push(
      `<p>${inlineCode(description)}, sent as the body with <code>Content-Type</code> ${types}.${json ? ' Or a JSON (or form) body:' : ''}</p>`,
    );
  } else {
    parts.push(
      '<p class="muted">JSON (<code>application/json</code>) or a form (<code>application/x-www-form-urlencoded</code>).</p>',
    );
  }
  if (json?.schema) parts.push(fieldTable(document, json.schema, 'request', true));
  return parts.join('\n');
}

/**
 * The problems each status can carry on this operation: those whose titles its OpenAPI response
 * lists (server/http/openapi.ts says which a route can answer, e.g. `plan-limit` only where the
 * office's plan can refuse), else every problem of that status.
 */
function problemLinks(problems: readonly { status: string; description: string }[]): string {
  const items = problems.map(({ status, description }) => {
    const ofStatus = Object.values(PROBLEMS).filter((problem) => String(problem.status) === status);
    const titles = new Set(description.split('; '));
    const listed = ofStatus.filter((problem) => titles.has(problem.title));
    const anchors = [...new Set((listed.length > 0 ? listed : ofStatus).map((problem) => problem.anchor))];
    const links = anchors
      .map((anchor) => `<a href="/apidoc/v1/posting_data#${escapeHtml(anchor)}">${escapeHtml(anchor)}</a>`)
      .join(', ');
    return `<li><code>${escapeHtml(status)}</code> ${links}</li>`;
  });
  return `<h5>Errors</h5><p class="muted">A <a href="#problem-responses">problem response</a> (<code>application/problem+json</code>):</p><ul class="problems">${items.join('')}</ul>`;
}

function responsesHtml(document: ApiDocument, operation: Operation): string {
  const parts = ['<h4>Responses</h4>'];
  const problems: { status: string; description: string }[] = [];
  for (const [status, response] of Object.entries(operation.responses)) {
    const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
    if (media?.schema?.$ref === PROBLEM_SCHEMA) {
      problems.push({ status, description: response.description ?? '' });
      continue;
    }
    parts.push(`<h5><code>${escapeHtml(status)}</code> ${inlineCode(response.description)}</h5>`);
    if (response.headers?.Location)
      parts.push(
        '<p class="muted"><code>Location</code>: the path of the new resource, the same as its <code>self</code>.</p>',
      );
    if (response.headers?.Link)
      parts.push(
        '<p class="muted">One page of the list: follow <code>Link</code> for the next (see <a href="#pagination">Pagination</a>).</p>',
      );
    if (!type || !media?.schema) parts.push('<p class="muted">No body.</p>');
    else if (type !== 'application/json')
      parts.push(`<p class="muted">The file itself (<code>${escapeHtml(type)}</code>).</p>`);
    else parts.push(fieldTable(document, media.schema, `response-${status}`, false));
  }
  if (problems.length > 0) parts.push(problemLinks(problems));
  return parts.join('\n');
}

function exampleResponse(document: ApiDocument, operation: Operation): string {
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!status.startsWith('2')) continue;
    const media = response.content?.['application/json'];
    if (!media?.schema) continue;
    const example = media.example ?? exampleValue(document, media.schema);
    return codeBlock(JSON.stringify(example, null, 2), { class: 'response-example' }, `Response ${status}`);
  }
  return '';
}

/** One endpoint: what it does, who may call it, its parameters, body and answers, with a curl example beside them. */
export function renderOperation(document: ApiDocument, method: string, path: string, operation: Operation): string {
  const parameters = operation.parameters ?? [];
  const byPlace = (place: string) =>
    parameters.filter((parameter) => parameter.in === place && !CONVENTION_HEADERS.has(parameter.name));
  const curl = operation['x-codeSamples']?.find((sample) => sample.label === 'curl')?.source;
  const access = operation['x-access'];
  return `<section id="${escapeHtml(operation.operationId)}" class="operation">
<header><h3><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>
<p><strong>${inlineCode(operation.summary ?? '')}</strong></p></header>
<div class="reference">
${operation.description ? paragraphs(operation.description) : ''}
${access ? `<p class="access">Who may call it: ${escapeHtml(ACCESS[access] ?? access)}</p>` : ''}
${byPlace('path').length > 0 ? `<h4>Path parameters</h4>${parameterTable(document, byPlace('path'), 'path')}` : ''}
${byPlace('query').length > 0 ? `<h4>Query parameters</h4>${parameterTable(document, byPlace('query'), 'query')}` : ''}
${byPlace('header').length > 0 ? `<h4>Headers</h4>${parameterTable(document, byPlace('header'), 'header')}` : ''}
${requestBodyHtml(document, operation)}
${responsesHtml(document, operation)}
</div>
<div class="examples">
${curl ? codeBlock(curl, { class: 'curl', 'data-operation': operation.operationId }, 'Request') : ''}
${exampleResponse(document, operation)}
</div>
</section>`;
}

/** The schema a `$ref` names, for callers that render a component by itself. */
export function componentSchema(document: ApiDocument, name: string): JsonSchema {
  return resolveSchema(document, { $ref: `#/components/schemas/${name}` });
}
