import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, loadConfig, type Config, type SignDeskServer } from '../../server/index';
import { runCli } from '../../server/cli/run-cli';
import { createTestClock, type TestClock } from './clock';
import { testDatabaseEnv } from './databases';
import { createResponseValidator, type OpenApiDocument, type ResponseValidator } from './openapi';

export type TestServer = {
  server: SignDeskServer;
  url: string;
  dataDir: string;
  /** API key of a customer token owned by the first administrator (rate limit raised for tests). */
  adminKey: string;
  adminPath: string;
  api: ApiClient;
  /** The server's time: the system's until the test moves it. */
  clock: TestClock;
  close(): Promise<void>;
};

export type ApiResponse<T = unknown> = {
  status: number;
  headers: Headers;
  body: T;
  text: string;
};

export type RequestOptions = {
  body?: unknown;
  /** Sent as is, with its own content type. */
  raw?: { data: string | Uint8Array; contentType?: string };
  form?: Record<string, string>;
  key?: string | null;
  headers?: Record<string, string>;
  version?: string | null;
  /** Ends the request (the test fails) if no answer came by then. */
  signal?: AbortSignal;
};

export type ApiClient = <T = any>(
  method: string,
  pathname: string,
  options?: RequestOptions,
) => Promise<ApiResponse<T>>;

export function makeTempDir(prefix = 'signdesk-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function apiClient(baseUrl: string, defaultKey: string, validate?: ResponseValidator): ApiClient {
  return async (method, pathname, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? defaultKey : options.key;
    if (key !== null) headers.authorization = `token ${key}`;
    const version = options.version === undefined ? '1' : options.version;
    if (version !== null) headers['accept-api-version'] = version;
    let body: string | Uint8Array | undefined;
    if (options.raw) {
      body = options.raw.data;
      if (options.raw.contentType) headers['content-type'] = options.raw.contentType;
    } else if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const url = new URL(pathname, baseUrl);
    const response = await fetch(url, { method, headers, body, signal: options.signal });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const parsed = type.includes('json') && text.length > 0 ? JSON.parse(text) : text;
    validate?.(method, url, response.status, type, parsed, response.headers);
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
}

/**
 * The PDF at `self` + `/pdf` (a contract's or a template's) as the office downloads it, byte for
 * byte; anything but a 200 of application/pdf fails the test with what was answered.
 */
export async function servedPdf(server: { url: string; adminKey: string }, self: string): Promise<Buffer> {
  const response = await fetch(`${server.url}${self}/pdf`, {
    headers: { authorization: `token ${server.adminKey}`, 'accept-api-version': '1' },
  });
  const type = response.headers.get('content-type');
  if (response.status !== 200 || type !== 'application/pdf')
    throw new Error(`${self}/pdf answered ${response.status} ${type}: ${(await response.text()).slice(0, 300)}`);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * The servers startTestServer runs, by DATA_DIR: a command for one of them runs inside it (the
 * CLI cannot take a DATA_DIR a server holds; test/integration/data-dir-lock.test.ts shows that).
 */
const runningServers = new Map<string, SignDeskServer>();

/**
 * Runs a CLI command against a DATA_DIR, as `npm run cli` would; returns its output lines. For
 * a DATA_DIR a test server of this process serves, the command runs in that server's context.
 */
export async function cli(dataDir: string, args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const context = runningServers.get(dataDir)?.ctx;
  const code = await runCli(
    args,
    { DATA_DIR: dataDir, ...testDatabaseEnv(dataDir) },
    { out: (line) => out.push(line), err: (line) => err.push(line), ...(context ? { context } : {}) },
  );
  return { code, out, err };
}

export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: process.env.SIGNDESK_TEST_LOG_LEVEL ?? 'silent',
      ...testDatabaseEnv(dataDir),
    }),
    ...overrides,
  };
}

/**
 * The administrator `admin` (password "correct horse"; kept when it exists already) and a new
 * API key of theirs, made through the CLI in `dataDir` as an installer would. Returns the key.
 */
export async function makeAdminAndKey(dataDir: string, tokenName: string): Promise<string> {
  const admin = await cli(dataDir, [
    'user',
    'create',
    '--username',
    'admin',
    '--password',
    'correct horse',
    '--email',
    'admin@office.test',
    '--admin',
  ]);
  if (admin.code !== 0 && !admin.err.join().includes('already taken')) throw new Error(admin.err.join('\n'));
  const token = await cli(dataDir, ['token', 'create', '--name', tokenName, '--rate-limit', '100000']);
  if (token.code !== 0) throw new Error(token.err.join('\n'));
  return token.out.at(-1) as string;
}

/**
 * The real server on an ephemeral port over a fresh DATA_DIR, with an administrator and a
 * customer token made through the CLI, as an installer would.
 */
export async function startTestServer(overrides: Partial<Config> = {}, dataDir = makeTempDir()): Promise<TestServer> {
  const clock = createTestClock();
  const server = await createServer(testConfig(dataDir, overrides), { clock });
  runningServers.set(dataDir, server);
  const adminKey = await makeAdminAndKey(dataDir, 'tests');
  const document = (await (await fetch(new URL('/api/openapi.json', server.url))).json()) as OpenApiDocument;
  return {
    server,
    url: server.url,
    dataDir,
    adminKey,
    adminPath: '/api/users/1',
    api: apiClient(server.url, adminKey, createResponseValidator(document)),
    clock,
    close: () => {
      runningServers.delete(dataDir);
      return server.close();
    },
  };
}

/** Follows a `Link` header's relation. */
export function linkOf(headers: Headers, rel: 'next' | 'previous'): string | undefined {
  const link = headers.get('link');
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (match?.[2] === rel) return match[1];
  }
  return undefined;
}
