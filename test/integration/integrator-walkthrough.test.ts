import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, type CodeBlock } from '../helpers/apidoc';
import { pdfsig } from '../helpers/pdf-tools';
import { makePdf } from '../helpers/pdfs';
import { startReceiverProcess, type ReceiverProcess } from '../helpers/receiver-process';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { linkIn, mailsTo, signingClient, verifiedEvents, waitForMailsTo } from '../helpers/signing';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver';
import { refusedPort, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

/** The address the docs' receiver listens on by default; the test's receiver gets a free port instead. */
const DOCUMENTED_RECEIVER = 'http://127.0.0.1:4242';

type CurlAnswer = { status: number; headers: Headers; body: any };

/** curl's `-D -` output: the (last) header block, then the body. */
function parseCurlOutput(output: string): CurlAnswer {
  let rest = output;
  let head = '';
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n');
    head = rest.slice(0, end);
    rest = rest.slice(end + 4);
  }
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = new Headers(
    lines.map(
      (line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string],
    ),
  );
  const isJson = (headers.get('content-type') ?? '').includes('json');
  return { status: Number(statusLine?.split(' ')[1]), headers, body: isJson && rest ? JSON.parse(rest) : rest };
}

/**
 * An integrator with nothing but /apidoc/v1/: the quick start's blocks, taken from the served
 * HTML in their order and run by bash as printed, with two variables set (SIGNDESK_URL,
 * SIGNDESK_KEY) and the receiver's documented address swapped for a free port. curl commands
 * get `-sS -D -` appended so that the test sees status and headers.
 */
describe("the integrator's walk-through, from the docs' own examples", () => {
  let t: TestServer;
  let work: string;
  let receiverPort: number;
  let receiver: ReceiverProcess | undefined;
  let steps: CodeBlock[];

  beforeAll(async () => {
    t = await startTestServer({ webhookFirstDelayS: 0 });
    work = makeTempDir('signdesk-walkthrough-');
    fs.writeFileSync(path.join(work, 'contract.pdf'), await makePdf({ pages: 1 }));
    receiverPort = await refusedPort();
    const html = await (await fetch(`${t.url}/apidoc/v1/`)).text();
    steps = codeBlocks(html)
      .filter((block) => block.attributes['data-step'] !== undefined)
      .sort((a, b) => Number(a.attributes['data-step']) - Number(b.attributes['data-step']));
  });
  afterAll(async () => {
    await receiver?.close();
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const env = () => ({ PATH: process.env.PATH ?? '', HOME: work, SIGNDESK_URL: t.url, SIGNDESK_KEY: t.adminKey });
  const translate = (code: string) => code.replaceAll(DOCUMENTED_RECEIVER, `http://127.0.0.1:${receiverPort}`);

  /** Runs a step in bash; asynchronously, since the server answering it runs in this process. */
  async function runStep(step: CodeBlock): Promise<CurlAnswer | undefined> {
    const isCurl = step.attributes.class === 'curl';
    const script = isCurl ? `${translate(step.code)} -sS -D -` : translate(step.code);
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'bash',
        ['-o', 'pipefail', '-c', script],
        { cwd: work, env: env(), timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(result.code, `${script}\n${result.stderr}`).toBe(0);
    return isCurl ? parseCurlOutput(result.stdout) : undefined;
  }

  it(
    'makes, sends and signs a contract and verifies its webhooks with the documented receiver',
    { timeout: 120_000 },
    async () => {
      expect(steps.map((step) => step.attributes['data-operation'] ?? step.attributes.class)).toEqual([
        'createWebhook',
        'shell',
        'shell',
        'createContract',
        'createContractParty',
        'createContractAnnotation',
        'sendContract',
        'getContract',
        'getSignedPdf',
      ]);
      const answers: Record<string, CurlAnswer | undefined> = {};
      for (const step of steps) {
        if (step.attributes['data-background'] === 'true') {
          // The receiver runs in "another terminal": in the background, until the test ends.
          receiver = await startReceiverProcess('bash', ['-c', translate(step.code)], {
            cwd: work,
            env: env(),
            port: receiverPort,
          });
          continue;
        }
        const answer = await runStep(step);
        if (answer) answers[step.attributes['data-operation'] as string] = answer;
      }

      const webhook = answers.createWebhook as CurlAnswer;
      expect(webhook.status).toBe(201);
      expect(webhook.body.url).toBe(`http://127.0.0.1:${receiverPort}/webhooks`);
      expect(fs.readFileSync(path.join(work, 'signdesk-public-key.pem'), 'utf8').trim()).toBe(
        webhook.body.public_key.trim(),
      );
      expect(fs.readFileSync(path.join(work, 'webhook-receiver.mjs'), 'utf8')).toBe(
        fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/examples/webhook-receiver.mjs'), 'utf8'),
      );

      const contract = answers.createContract as CurlAnswer;
      expect(contract.status).toBe(201);
      expect(contract.headers.get('location')).toBe('/api/contracts/1');
      expect(contract.body).toMatchObject({ self: '/api/contracts/1', name: 'Lease agreement', is_signed: false });
      expect(answers.createContractParty?.status).toBe(201);
      expect(answers.createContractAnnotation?.status).toBe(201);
      expect(answers.sendContract?.status).toBe(200);
      expect(answers.getContract?.body).toMatchObject({ self: '/api/contracts/1', is_signed: true, is_answered: true });
      expect(answers.getSignedPdf?.status).toBe(200);
      expect(pdfsig(path.join(work, 'signed.pdf'))).toContain('Signature is Valid');

      // The receiver verified and handled both events; SignDesk's log says they were delivered.
      const handled = receiver as ReceiverProcess;
      await expect
        .poll(
          () =>
            handled
              .events()
              .map((event) => event.type)
              .sort(),
          { timeout: 30_000, interval: 50 },
        )
        .toEqual(['contract.party_signed', 'contract.signed']);
      expect(handled.events().find((event) => event.type === 'contract.party_signed')?.data).toEqual({
        id: '/api/contracts/1',
        party: '/api/contracts/1/parties/1',
        party_name: expect.any(String),
      });
      expect(handled.refusals()).toEqual([]);
      await expect
        .poll(
          async () =>
            (await t.api('GET', '/api/webhooks/1/events')).body.map((event: { state: string }) => event.state),
          { timeout: 30_000, interval: 50 },
        )
        .toEqual(['delivered', 'delivered']);
    },
  );
});

/**
 * The recipes of /apidoc/v1/#recipes, taken from the served HTML and run by bash as printed: each
 * recipe's blocks in one shell after the setup block (they share variables), with the receivers'
 * documented addresses swapped for the test's receivers. Its printed lines, the mail the parties
 * receive (a real SMTP server) and the events the receivers verify are what the docs promise.
 */
describe("the integrator's recipes, from the docs' own examples", () => {
  let t: TestServer;
  let smtp: SmtpReceiver;
  let chosen: WebhookReceiver;
  let plain: WebhookReceiver;
  let work: string;
  let blocks: CodeBlock[];

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    [chosen, plain] = [await startWebhookReceiver(), await startWebhookReceiver()];
    t = await startTestServer({ smtpUrl: smtp.url, mailFrom: 'SignDesk <office@example.test>', webhookFirstDelayS: 0 });
    work = makeTempDir('signdesk-recipes-');
    fs.writeFileSync(path.join(work, 'contract.pdf'), await makePdf({ pages: 1 }));
    blocks = codeBlocks(await (await fetch(`${t.url}/apidoc/v1/`)).text());
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([smtp.close(), chosen.close(), plain.close()]);
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** A recipe's blocks in one bash, after the setup block; returns each block's printed lines. */
  async function runRecipe(name: string): Promise<string[][]> {
    const setup = blocks.find((block) => block.attributes['data-recipe-setup'] === 'true')?.code ?? '';
    const steps = blocks
      .filter((block) => block.attributes['data-recipe'] === name)
      .sort((a, b) => Number(a.attributes['data-recipe-step']) - Number(b.attributes['data-recipe-step']));
    expect(steps.length, name).toBeGreaterThan(0);
    const script = [setup, ...steps.map((step) => `echo '@@step'\n${step.code}`)]
      .join('\n')
      .replaceAll('http://127.0.0.1:4242', chosen.url)
      .replaceAll('http://127.0.0.1:4243', plain.url);
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'bash',
        ['-e', '-o', 'pipefail', '-c', script],
        {
          cwd: work,
          env: { PATH: process.env.PATH ?? '', HOME: work, SIGNDESK_URL: t.url, SIGNDESK_KEY: t.adminKey },
          timeout: 60_000,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(result.code, `${script}\n${result.stderr}`).toBe(0);
    return result.stdout
      .split('@@step\n')
      .slice(1)
      .map((output) => output.split('\n').filter((line) => line !== ''));
  }

  it(
    'chooses events, uploads once, corrects a sent party and signs a test contract, as the docs print',
    { timeout: 180_000 },
    async () => {
      expect(await runRecipe('events')).toEqual([['["contract.sent","contract.party_opened"]'], ['[]']]);
      const consumers = (await t.api('GET', '/api/webhooks')).body as Array<Record<string, string>>;
      for (const [receiver, consumer] of [chosen, plain].map((each) => [
        each,
        consumers.find((one) => one.url?.startsWith(each.url)),
      ]) as Array<[WebhookReceiver, Record<string, string>]>)
        receiver.trust(consumer.key_id as string, consumer.public_key as string);

      const [[first, second]] = (await runRecipe('idempotency')) as [string[]];
      expect(first).toMatch(/^\/api\/contracts\/\d+$/);
      expect(second).toBe(first);
      const uploads = await t.api('GET', '/api/contracts?name=Lease%200042');
      expect(uploads.body.map((contract: { self: string }) => contract.self)).toEqual([first]);

      const [sent, put, corrected] = await runRecipe('correction');
      expect(sent).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)]);
      expect(put).toEqual([expect.stringMatching(/^409 \S+contract-state/)]);
      expect(corrected).toEqual(['signe@example.com', '404']);
      const [typo] = await waitForMailsTo(smtp, 'signe@exmaple.com', 1);
      const [invitation] = await waitForMailsTo(smtp, 'signe@example.com', 1);
      const [oldLink, newLink] = [linkIn(typo!), linkIn(invitation!)];
      expect(newLink).not.toBe(oldLink);
      expect((await signingClient(oldLink).state()).status).toBe(404);
      expect(mailsTo(smtp, 'signe@exmaple.com')).toHaveLength(1);
      const signer = signingClient(newLink);
      expect((await signer.open()).status).toBe(200);
      await signer.state();
      expect((await signer.accept()).status).toBe(200);
      const contract = (await t.api('GET', '/api/contracts?name=Lease%20Storgatan%201')).body[0].self as string;
      await expect.poll(async () => (await t.api('GET', contract)).body.is_signed).toBe(true);

      expect(await runRecipe('test-signing')).toEqual([['true', 'true']]);

      // Deliveries run side by side: which arrives first is not promised, what arrives is.
      const typesFor = (receiver: WebhookReceiver, self: string) =>
        verifiedEvents(receiver)
          .filter((event) => event.id === self)
          .map((event) => event.type)
          .sort();
      await expect
        .poll(() => typesFor(chosen, contract), { timeout: 30_000 })
        .toEqual(['contract.party_opened', 'contract.party_signed', 'contract.sent', 'contract.signed']);
      await expect
        .poll(() => typesFor(plain, contract), { timeout: 30_000 })
        .toEqual(['contract.party_signed', 'contract.signed']);
      await expect.poll(() => verifiedEvents(plain).length, { timeout: 30_000 }).toBe(4);
      expect(new Set(verifiedEvents(plain).map((event) => event.type))).toEqual(
        new Set(['contract.party_signed', 'contract.signed']),
      );
      expect(chosen.requests.length).toBe(chosen.verified().length);
    },
  );
});
