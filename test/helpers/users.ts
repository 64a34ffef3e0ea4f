import { expect } from 'vitest';
import { cli, type TestServer } from './server';

export type MadeUser = { id: number; path: string; username: string; password: string; key: string };

/** A user made by the administrator through the API, with a customer token of its own made by the CLI. */
export async function makeUser(t: TestServer, username: string, options: { isAdmin?: boolean; tokenKind?: 'customer' | 'partner' } = {}): Promise<MadeUser> {
  const password = `${username} password`;
  const created = await t.api('POST', '/api/users', {
    body: {
      username,
      email: `${username}@office.test`,
      password,
      permission_template: options.isAdmin ? 'CUSTOMER_ADMIN_USER' : 'CUSTOMER_USER',
    },
  });
  expect(created.status, created.text).toBe(201);
  const token = await cli(t.dataDir, ['token', 'create', '--name', `${username} key`, '--user', username, '--rate-limit', '100000', '--kind', options.tokenKind ?? 'customer']);
  expect(token.code, token.err.join('\n')).toBe(0);
  const path = created.body.self as string;
  return { id: Number(path.split('/').at(-1)), path, username, password, key: token.out.at(-1) as string };
}
