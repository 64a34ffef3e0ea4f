import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { foreignTimestamps } from './timestamps';

type Operation = {
  responses?: Record<
    string,
    { headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema?: unknown }> }
  >;
};
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components?: unknown };

/**
 * Checks every response a test receives against the server's own /api/openapi.json: the
 * operation must exist for a 2xx, the body must match the schema published for its status, and
 * every timestamp in it must be in the interface's form.
 */
export type ResponseValidator = (
  method: string,
  url: URL,
  status: number,
  contentType: string,
  body: unknown,
  headers?: Headers,
) => void;

const escapePointer = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

/** The template of the path with this method; a literal segment wins over a parameter (`/events/retry` over `/events/{event_id}`). */
function matchPath(document: OpenApiDocument, pathname: string, method: string): string | undefined {
  const matches = Object.keys(document.paths).filter((template) => {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(pathname);
  });
  const params = (template: string) => (template.match(/\{/g) ?? []).length;
  const withMethod = matches.filter((template) => document.paths[template]?.[method.toLowerCase()]);
  return (withMethod.length > 0 ? withMethod : matches).sort((a, b) => params(a) - params(b))[0];
}

export function createResponseValidator(document: OpenApiDocument): ResponseValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document as object, 'openapi');
  const compiled = new Map<string, ValidateFunction>();
  return (method, url, status, contentType, body, headers) => {
    const template = matchPath(document, url.pathname, method);
    const operation = template ? document.paths[template]?.[method.toLowerCase()] : undefined;
    if (!operation) {
      if (status < 300 && url.pathname.startsWith('/api/')) {
        throw new Error(`${method} ${url.pathname} answered ${status} but is not in /api/openapi.json`);
      }
      return;
    }
    const response = operation.responses?.[String(status)];
    if (!response) {
      if (status === 500) return;
      throw new Error(`${method} ${template} answered ${status}, which /api/openapi.json does not list`);
    }
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && headers && !headers.has(name) && method !== 'HEAD') {
        throw new Error(
          `${method} ${url.pathname} ${status} lacks the header ${name} that /api/openapi.json says it always has`,
        );
      }
    }
    const mediaType = contentType.split(';')[0]?.trim() ?? '';
    if (!response.content || typeof body !== 'object' || body === null) return;
    if (!response.content[mediaType]) {
      throw new Error(`${method} ${template} ${status} answered ${mediaType}, not listed in /api/openapi.json`);
    }
    const pointer = [
      'paths',
      template as string,
      method.toLowerCase(),
      'responses',
      String(status),
      'content',
      mediaType,
      'schema',
    ]
      .map(escapePointer)
      .join('/');
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#/${pointer}` });
      compiled.set(pointer, validate);
    }
    if (!validate(body)) {
      throw new Error(
        `${method} ${url.pathname} ${status}: the body does not match /api/openapi.json: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
      );
    }
    // The interface's one timestamp form, also where a schema says only "string" (details, …).
    const foreign = foreignTimestamps(body);
    if (foreign.length > 0) {
      throw new Error(
        `${method} ${url.pathname} ${status} has timestamps not in the form YYYY-MM-DD HH:MM:SS: ${foreign.join(', ')}`,
      );
    }
  };
}
