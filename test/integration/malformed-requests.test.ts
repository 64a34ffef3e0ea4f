import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problems';
import { makeContract } from '../helpers/signing';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Requests that cannot even be read (a path that is not valid percent-encoding, a body that does
 * not decompress) are the client's fault: a 400, nothing changed, and nothing in the log but
 * their access line (no error, no stack), since anyone can send them as often as they like
 * without a token.
 */
describe('malformed requests', () => {
  let t: TestServer;
  let link: string;
  const logFile = () => path.join(t.dataDir, 'logs', 'signdesk.log');
  /** The log but its access lines (one per request, at info: access-log.ts): what these requests must not add to. */
  const logLines = () =>
    fs
      .readFileSync(logFile(), 'utf8')
      .split('\n')
      .filter(Boolean)
      .filter((line) => (JSON.parse(line) as { msg?: string }).msg !== 'request');
  beforeAll(async () => {
    t = await startTestServer({ logLevel: 'info' });
    const contract = await makeContract(t, [{ name: 'Eva', email: 'eva@example.test' }]);
    await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    link = contract.parties[0]!.contract_url;
  });
  afterAll(() => t.close());

  const read = async (response: Response) => {
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      headers: response.headers,
      body: type.includes('json') ? JSON.parse(text) : text,
    };
  };
  const post = (target: string, body: Uint8Array | string, headers: Record<string, string>) =>
    fetch(target.startsWith('http') ? target : `${t.url}${target}`, {
      method: 'POST',
      headers: { 'accept-api-version': '1', authorization: `token ${t.adminKey}`, ...headers },
      body,
    }).then(read);

  it('answers 400 to paths that are not valid percent-encoding, and logs nothing', async () => {
    const before = logLines().length;
    for (const target of [
      '/admin/%ff',
      '/admin/contracts/%E0%A4%A',
      '/sign/%E0%A4%A/state',
      '/sign/%E0%A4%A',
      '/sign/%ff/document.pdf',
      `${new URL(link).pathname}/attachments/%ff`,
    ]) {
      for (let round = 0; round < 20; round += 1) {
        const response = await read(await fetch(`${t.url}${target}`));
        expectProblem(response, 400, 'malformed-request');
      }
    }
    // An id in the API that cannot be decoded is no resource at all (decided earlier): 404.
    expectProblem(await t.api('GET', '/api/users/%ff'), 404, 'not-found');
    expect(logLines().length).toBe(before);
  });

  it('answers 400 to bodies that do not decompress, signing in included, changes nothing, and logs nothing', async () => {
    const before = logLines().length;
    const contractsBefore = (await t.api('GET', '/api/contracts')).headers.get('pagination-items-total');
    const json = { 'content-type': 'application/json' };
    const truncated = zlib.gzipSync(JSON.stringify({ name: 'Cut short' })).subarray(0, 12);
    const cases: Array<[string, Uint8Array | string, Record<string, string>]> = [
      ['/api/session', 'not compressed at all', { ...json, 'content-encoding': 'gzip' }],
      ['/api/session', 'not compressed at all', { ...json, 'content-encoding': 'deflate' }],
      ['/api/session', 'not compressed at all', { ...json, 'content-encoding': 'br' }],
      ['/api/setup', 'not compressed at all', { ...json, 'content-encoding': 'gzip' }],
      ['/api/contracts', 'not compressed at all', { ...json, 'content-encoding': 'gzip' }],
      ['/api/contracts', truncated, { ...json, 'content-encoding': 'gzip' }],
      ['/api/contracts', 'not a compressed PDF', { 'content-type': 'application/pdf', 'content-encoding': 'deflate' }],
      [`${link}/accept`, 'not compressed at all', { ...json, 'content-encoding': 'br' }],
    ];
    for (const [target, body, headers] of cases) {
      for (let round = 0; round < 10; round += 1)
        expectProblem(await post(target, body, headers), 400, 'malformed-request');
    }
    expect((await t.api('GET', '/api/contracts')).headers.get('pagination-items-total')).toBe(contractsBefore);
    // A body that does decompress is read as usual.
    const gzipped = await post('/api/contracts', zlib.gzipSync(JSON.stringify({ name: 'Packed' })), {
      ...json,
      'content-encoding': 'gzip',
    });
    expect(gzipped.status).toBe(201);
    expect(logLines().filter((line) => JSON.parse(line).level >= 50)).toEqual([]);
    expect(logLines().length).toBe(before);
  });
});
