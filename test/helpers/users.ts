import { expect } from 'vitest';
import { apiClient, cli, type ApiClient, type TestServer } from './server';

export type MadeUser = { id: number; path: string; username: string; password: string; key: string; api: ApiClient };

type UserOptions = { isAdmin?: boolean; tokenKind?: 'customer' | 'partner'; firstname?: string; lastname?: string };

/**
 * A user made by the administrator through the API (an ordinary user, CUSTOMER_USER, unless
 * `isAdmin`), with an API token of its own made by the CLI, as an office would.
 */
export async function makeUser(t: TestServer, username: string, options: UserOptions = {}): Promise<MadeUser> {
  const password = `${username} password`;
  const created = await t.api('POST', '/api/users', {
    body: {
      username,
      email: `${username}@office.test`,
      password,
      permission_template: options.isAdmin ? 'CUSTOMER_ADMIN_USER' : 'CUSTOMER_USER',
      ...(options.firstname ? { firstname: options.firstname } : {}),
      ...(options.lastname ? { lastname: options.lastname } : {}),
    },
  });
  expect(created.status, created.text).toBe(201);
  const token = await cli(t.dataDir, [
    'token',
    'create',
    '--name',
    `${username} key`,
    '--user',
    username,
    '--rate-limit',
    '100000',
    '--kind',
    options.tokenKind ?? 'customer',
  ]);
  expect(token.code, token.err.join('\n')).toBe(0);
  const path = created.body.self as string;
  const key = token.out.at(-1) as string;
  return { id: Number(path.split('/').at(-1)), path, username, password, key, api: apiClient(t.url, key) };
}
