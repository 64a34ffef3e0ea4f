import type { TContract } from '../../shared/api/contracts';
import { request, sendJson } from './api';

/** The name a contract gets from its uploaded file: the file's name without `.pdf`. */
export const nameFromFile = (fileName: string): string =>
  fileName
    .replace(/\.pdf$/i, '')
    .trim()
    .slice(0, 1_000);

type Source = { file: File } | { template: string; name: string };

/**
 * A new draft named after its file or its template, as an office expects, not "Contract 12
 * (no name)". An upload's body is the PDF itself, so its name follows in a PUT.
 */
export async function createNamedContract(source: Source): Promise<TContract> {
  if ('template' in source) {
    return sendJson<TContract>('POST', '/api/contracts', {
      template: source.template,
      ...(source.name ? { name: source.name } : {}),
    });
  }
  const name = nameFromFile(source.file.name);
  const contract = (await (
    await request('POST', '/api/contracts', { raw: source.file, contentType: 'application/pdf' })
  ).json()) as TContract;
  return name ? sendJson<TContract>('PUT', contract.self, { name }) : contract;
}
