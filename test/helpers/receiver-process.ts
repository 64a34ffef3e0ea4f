import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { Ed25519Signer } from '../../server/crypto/webhook-keys';
import { signWebhookRequest } from '../../server/webhooks/http-signature';

/**
 * One of the documented webhook receivers (docs/examples) running as its own process, as an
 * integrator runs it: the events it handled are the JSON lines of its stdout, its refusals
 * the lines of its stderr.
 */
export type ReceiverProcess = {
  url: string;
  events(): Array<{ webhookId?: string; type: string; timestamp: string; data: { id: string; party?: string } }>;
  refusals(): string[];
  close(): Promise<void>;
};

export async function startReceiverProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; port: number },
): Promise<ReceiverProcess> {
  // Its own process group: a shell running the receiver is stopped together with it.
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(options.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  // Ready once it says where it listens (an event, not a poll); an exit first is a failure.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} did not start listening within 60 s: ${stderr}`)),
      60_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited: ${stderr}`));
    });
  });
  return {
    url: `http://127.0.0.1:${options.port}/webhooks`,
    events: () =>
      stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line)),
    refusals: () => stderr.split('\n').filter((line) => line.startsWith('refused: ')),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        process.kill(-(child.pid as number), 'SIGTERM');
      }),
  };
}

export type SignedPost = {
  body: string;
  signer: Ed25519Signer;
  keyId: string;
  /** When the signature was made (default now). */
  nowMs?: number;
  /** Changes made after signing, as an attacker would. */
  tamper?: { body?: string; headers?: Record<string, string> };
};

/** A POST signed exactly as SignDesk signs its events, optionally tampered with afterwards; resolves with the status. */
export function postSigned(url: string, post: SignedPost): Promise<number> {
  const target = new URL(url);
  const headers = signWebhookRequest({
    url: target,
    body: Buffer.from(post.body),
    keyId: post.keyId,
    signer: post.signer,
    nowMs: post.nowMs ?? Date.now(),
  });
  const body = Buffer.from(post.tamper?.body ?? post.body);
  const sent = { ...headers, ...post.tamper?.headers, 'content-length': String(body.length) };
  return new Promise((resolve, reject) => {
    const request = http.request(
      { method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname, headers: sent },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
