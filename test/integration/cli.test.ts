import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../server/index';
import { testBackend } from '../helpers/databases';
import { apiClient, cli, makeTempDir, testConfig } from '../helpers/server';

describe('the CLI', () => {
  it('refuses to make a token before any administrator exists, and says what to do', async () => {
    const result = await cli(makeTempDir(), ['token', 'create', '--name', 'x']);
    expect(result.code).not.toBe(0);
    expect(result.err.join('\n')).toContain('user create');
  });

  it('refuses to back up a folder that holds no office, and makes none there', async () => {
    const empty = makeTempDir();
    const out = path.join(makeTempDir(), 'office.sdbackup');
    const result = await cli(empty, ['backup', 'create', '--out', out]);
    expect(result.code).toBe(2);
    expect(result.err.join('\n')).toContain(`${empty} holds no SignDesk office: nothing was backed up.`);
    expect(fs.existsSync(out)).toBe(false);
    if (testBackend() === 'sqlite') expect(fs.readdirSync(empty)).toEqual([]);
  });

  it('makes users and tokens against DATA_DIR with the server stopped; the key is the last line', async () => {
    const dataDir = makeTempDir();
    const made = async (args: string[]) => {
      const result = await cli(dataDir, args);
      expect(result.err, args.join(' ')).toEqual([]);
      expect(result.code).toBe(0);
      return result.out.at(-1) as string;
    };
    const user = (name: string, isAdmin: boolean) => [
      'user',
      'create',
      '--username',
      name,
      '--password',
      'a long secret',
      '--email',
      `${name}@office.test`,
      ...(isAdmin ? ['--admin'] : []),
    ];
    await made(user('boss', true));
    await made(user('clerk', false));
    const key = await made(['token', 'create', '--name', 'erp', '--rate-limit', '77']);
    expect(key).toMatch(/^sdk_[\w-]+:[\w-]{43}$/);
    const clerkKey = await made(['token', 'create', '--name', 'clerk', '--user', 'clerk']);
    const partnerKey = await made(['token', 'create', '--name', 'msp', '--kind', 'partner']);

    const server = await createServer(testConfig(dataDir));
    try {
      const api = apiClient(server.url, key);
      const me = await api('GET', '/api/users/1');
      expect(me.body.username).toBe('boss');
      expect(me.headers.get('x-ratelimit-limit')).toBe('77');
      const clerk = apiClient(server.url, clerkKey);
      expect((await clerk('GET', '/api/users')).status).toBe(403);
      expect((await clerk('GET', '/api/contract_templates')).status).toBe(200);
      expect((await apiClient(server.url, partnerKey)('GET', '/api/partner/tokens')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('explains bad arguments', async () => {
    const dataDir = makeTempDir();
    await cli(dataDir, [
      'user',
      'create',
      '--username',
      'boss',
      '--password',
      'a long secret',
      '--email',
      'boss@office.test',
      '--admin',
    ]);
    const cases: Array<[string[], RegExp]> = [
      [['token', 'create'], /--name/],
      [['token', 'create', '--name', 'x', '--kind', 'root'], /--kind/],
      [['token', 'create', '--name', 'x', '--rate-limit', 'lots'], /--rate-limit/],
      [['token', 'create', '--name', 'x', '--user', 'nobody'], /nobody/],
      [['user', 'create', '--username', 'x', '--password', 'short', '--email', 'x@y.se'], /--password/],
      [['user', 'create', '--username', 'boss', '--password', 'long enough', '--email', 'x@y.se'], /already taken/],
      [['user', 'create', '--username', 'y', '--password', 'long enough', '--email', 'not-mail'], /--email/],
      [['frobnicate'], /Unknown command/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(dataDir, args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.err.join('\n'), args.join(' ')).toMatch(message);
    }
  });
});
