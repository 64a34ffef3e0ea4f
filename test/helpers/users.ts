import { expect } from 'vitest';
import { apiClient, cli, type ApiClient, type TestServer } from './server';

export type OrdinaryUser = { path: string; key: string; api: ApiClient };

/** An ordinary user (CUSTOMER_USER) with an API token of their own, made as an office would. */
export async function ordinaryUser(t: TestServer, username: string): Promise<OrdinaryUser> {
  const made = await t.api('POST', '/api/users', {
    body: { username, email: `${username}@office.test`, password: `${username} password`, permission_template: 'CUSTOMER_USER', firstname: 'Karin', lastname: 'Ek' },
  });
  expect(made.status, made.text).toBe(201);
  const token = await cli(t.dataDir, ['token', 'create', '--name', username, '--user', username, '--rate-limit', '100000']);
  expect(token.code, token.err.join('\n')).toBe(0);
  const key = token.out.at(-1) as string;
  return { path: made.body.self, key, api: apiClient(t.url, key) };
}
