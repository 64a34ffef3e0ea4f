import fs from 'node:fs';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { expect, vi } from 'vitest';
import { run } from './pdf-tools';
import type { TestServer } from './server';
import { makeContract, signingClient, type PartySpec } from './signing';

/** Sends a one-party contract and signs it through the party's link, as a person would. */
export async function signedContract(
  t: TestServer,
  parties: PartySpec[] = [{ name: 'Åsa Öberg', email: 'asa@example.test' }],
  settings: Record<string, unknown> = {},
) {
  const contract = await makeContract(t, parties, settings);
  expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);
  for (const party of contract.parties) {
    const client = signingClient(party.contract_url);
    await client.open();
    await client.state();
    const signed = await client.accept({}, party.name);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  }
  return contract;
}

/** GET of a binary API resource. */
export async function download(
  t: TestServer,
  pathname: string,
): Promise<{ status: number; type: string; bytes: Buffer }> {
  const response = await fetch(new URL(pathname, t.url), {
    headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

export async function waitForTimestampStatus(
  t: TestServer,
  contractPath: string,
  status: string,
): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> = {};
  await vi.waitFor(
    async () => {
      body = (await t.api('GET', contractPath)).body;
      if (body.timestamp_status !== status) throw new Error(`timestamp_status is ${String(body.timestamp_status)}`);
    },
    { timeout: 30_000, interval: 100 },
  );
  return body;
}

export async function waitForLtvStatus(t: TestServer, contractPath: string, status: string) {
  await vi.waitFor(
    async () => {
      const body = (await t.api('GET', contractPath)).body;
      if (body.ltv_status !== status)
        throw new Error(`ltv_status is ${String(body.ltv_status)} (${String(body.ltv_error)})`);
    },
    { timeout: 30_000, interval: 100 },
  );
}

/** The signatures pdfsig reports, one text block each (index 0 is "Signature #1"). */
export function pdfsigBlocks(file: string): string[] {
  return run('pdfsig', [file])
    .stdout.split(/^Signature #\d+:$/m)
    .slice(1);
}

/** `pdfsig -dump` in its own folder: the raw /Contents of each signature, zero padding included. */
export function dumpSignatures(file: string): Buffer[] {
  const dir = fs.mkdtempSync(`${file}-dump-`);
  const copy = path.join(dir, 'f.pdf');
  fs.copyFileSync(file, copy);
  const result = run('bash', ['-c', `cd "${dir}" && pdfsig -dump f.pdf`]);
  expect(result.status, result.stderr).toBe(0);
  return fs
    .readdirSync(dir)
    .filter((name) => /^f\.pdf\.sig\d+$/.test(name))
    .sort()
    .map((name) => fs.readFileSync(path.join(dir, name)));
}

/** The DER of a padded /Contents (what pdfsig -dump writes): the ContentInfo without the zeros after it. */
export function trimDer(padded: Buffer): Buffer {
  const parsed = asn1js.fromBER(new Uint8Array(padded).buffer);
  expect(parsed.offset).toBeGreaterThan(0);
  return padded.subarray(0, parsed.offset);
}

/**
 * The seal's signature value and its signature timestamp token, read from the CMS with pkijs
 * here in the test (not with the server's code that wrote them).
 */
export function sealTimestampParts(cmsDer: Buffer): { signatureValue: Buffer; token: Buffer | undefined } {
  const info = pkijs.ContentInfo.fromBER(new Uint8Array(cmsDer).buffer);
  const signed = new pkijs.SignedData({ schema: info.content });
  const signer = signed.signerInfos[0]!;
  const attribute = signer.unsignedAttrs?.attributes.find((item) => item.type === '1.2.840.113549.1.9.16.2.14');
  return {
    signatureValue: Buffer.from(signer.signature.valueBlock.valueHexView),
    token: attribute ? Buffer.from(attribute.values[0].toBER()) : undefined,
  };
}

/** The bytes a signature's /ByteRange covers. */
export function byteRangeData(pdf: Buffer, range: number[]): Buffer {
  const [a, b, c, d] = range as [number, number, number, number];
  return Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
}

export function byteRangesOf(pdf: Buffer): number[][] {
  return [...pdf.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((match) =>
    match.slice(1, 5).map(Number),
  );
}
