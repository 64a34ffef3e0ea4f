import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

type Answer = { status: number; retryAfter: number | undefined };

/** POST /api/session from a given local address (any of 127.0.0.0/8 reaches the server on 127.0.0.1). */
function signInFrom(url: string, localAddress: string, username: string, password: string): Promise<Answer> {
  const body = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}/api/session`,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'accept-api-version': '1',
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          const retryAfter = response.headers['retry-after'];
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: retryAfter === undefined ? undefined : Number(retryAfter),
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const countOf = (answers: Answer[], status: number) => answers.filter((answer) => answer.status === status).length;

/**
 * Guessing passwords: each try is counted before the slow password check, per username and
 * address and per address, and costs more time the more it fails; someone guessing from
 * another address slows only themselves.
 */
describe('the sign-in throttle', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    // One user per test, so that no test starts where another left its counts.
    for (const username of ['flooded', 'raced', 'slowed']) {
      const created = await t.api('POST', '/api/users', {
        body: { username, email: `${username}@office.test`, password: 'correct horse' },
      });
      expect(created.status).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('checks only a few of 100 wrong passwords sent at once', { timeout: 120_000 }, async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => signInFrom(t.url, '127.0.0.11', 'flooded', 'wrong guess')),
    );
    expect(countOf(answers, 401)).toBeGreaterThan(0);
    expect(countOf(answers, 401)).toBeLessThanOrEqual(5);
    expect(countOf(answers, 429)).toBe(100 - countOf(answers, 401));
  });

  it(
    'does not let the right password in among parallel wrong ones once the limit is reached',
    { timeout: 120_000 },
    async () => {
      const wrong = Array.from({ length: 40 }, () => signInFrom(t.url, '127.0.0.12', 'raced', 'wrong guess'));
      const right = signInFrom(t.url, '127.0.0.12', 'raced', 'correct horse');
      const answers = await Promise.all(wrong);
      expect(countOf(answers, 401)).toBeLessThanOrEqual(5);
      expect((await right).status).toBe(429);
    },
  );

  it('lets the administrator in while a stranger guesses from another address', { timeout: 120_000 }, async () => {
    const stranger = await Promise.all(
      Array.from({ length: 60 }, () => signInFrom(t.url, '127.0.0.13', 'admin', 'wrong guess')),
    );
    expect(countOf(stranger, 429)).toBeGreaterThan(50);
    expect((await signInFrom(t.url, '127.0.0.14', 'admin', 'correct horse')).status).toBe(201);
  });

  it('slows each further failure down more, and forgives once the right password comes', async () => {
    let now = t.clock.now();
    t.clock.set(now);
    try {
      const guess = () => signInFrom(t.url, '127.0.0.15', 'slowed', 'wrong guess');
      for (let free = 0; free < 5; free += 1) expect((await guess()).status).toBe(401);
      const waits: number[] = [];
      for (let round = 0; round < 4; round += 1) {
        const refused = await guess();
        expect(refused.status).toBe(429);
        waits.push(refused.retryAfter as number);
        now += (refused.retryAfter as number) * 1000;
        t.clock.set(now);
        expect((await guess()).status).toBe(401);
      }
      expect(waits).toEqual([1, 2, 4, 8]);
      const waiting = await guess();
      now += (waiting.retryAfter as number) * 1000;
      t.clock.set(now);
      expect((await signInFrom(t.url, '127.0.0.15', 'slowed', 'correct horse')).status).toBe(201);
      expect((await guess()).status).toBe(401);
    } finally {
      t.clock.reset();
    }
  });
});
