import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app/app';
import type { AppContext } from '../../server/context/app-context';
import { inTransaction } from '../../server/db/database';
import { defineRoute } from '../../server/http/route';
import { updateGeneralSettings } from '../../server/settings/update-general-settings';
import { makePdf } from '../helpers/pdfs';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

/**
 * A route's `ctx` is a view made for it at run time (server/http/route-view.ts): a route that
 * casts it back to the full context finds no database and no repository write to call, and its
 * reads of contracts and parties are narrowed to what the acting user may see.
 */
describe("a route's view of the context", () => {
  let t: TestServer;
  let planted: http.Server;
  let base = '';
  const seen: Record<string, unknown> = {};

  beforeAll(async () => {
    t = await startTestServer();
    const cast = (ctx: unknown) => ctx as AppContext;
    const routes = [
      defineRoute({
        method: 'post',
        path: '/api/_planted/repository_write',
        operationId: 'plantedRepositoryWrite',
        summary: 'planted',
        tag: 'planted',
        access: 'admin',
        responses: { 204: { description: 'nothing' } },
        handler: async ({ ctx, res }) => {
          const full = cast(ctx);
          seen.hasUpdate = typeof full.repos.office.update;
          await full.repos.office.update({ name: 'Written by a route' });
          res.status(204).end();
        },
      }),
      defineRoute({
        method: 'post',
        path: '/api/_planted/transaction',
        operationId: 'plantedTransaction',
        summary: 'planted',
        tag: 'planted',
        access: 'admin',
        responses: { 204: { description: 'nothing' } },
        handler: async ({ ctx, res }) => {
          const full = cast(ctx);
          seen.db = full.db;
          await inTransaction(full.db, async () => undefined);
          res.status(204).end();
        },
      }),
      defineRoute({
        method: 'post',
        path: '/api/_planted/service',
        operationId: 'plantedService',
        summary: 'planted',
        tag: 'planted',
        access: 'admin',
        responses: { 204: { description: 'nothing' } },
        handler: async ({ act, res }) => {
          await act(updateGeneralSettings, { office_name: 'Renamed through a service' } as never);
          res.status(204).end();
        },
      }),
      defineRoute({
        method: 'get',
        path: '/api/_planted/contracts/:contract_id',
        operationId: 'plantedContractRead',
        summary: 'planted',
        tag: 'planted',
        access: 'user',
        responses: { 200: { description: 'what the view finds' } },
        handler: async ({ ctx, ids, res }) => {
          const contract = await ctx.repos.contracts.findById(ids.contract_id);
          const parties = await ctx.repos.parties.listInContract(ids.contract_id);
          res.json({ contract: contract?.id ?? null, parties: parties.length });
        },
      }),
    ];
    const { listener } = createApp(t.server.ctx, { routes, examplesDir: '' });
    planted = http.createServer(listener);
    await new Promise<void>((resolve) => planted.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(planted.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => planted?.close(resolve));
    await t?.close();
  });

  const call = (method: string, path: string, key = t.adminKey) =>
    fetch(`${base}${path}`, { method, headers: { authorization: `token ${key}`, 'accept-api-version': '1' } });
  const officeName = async () => (await t.server.ctx.repos.office.get(Date.now())).name;

  it('holds no repository write and no database, whatever the cast', async () => {
    const before = await officeName();
    expect((await call('POST', '/api/_planted/repository_write')).status).toBe(500);
    expect(seen.hasUpdate).toBe('undefined');
    expect((await call('POST', '/api/_planted/transaction')).status).toBe(500);
    expect(seen.db).toBeUndefined();
    expect(await officeName()).toBe(before);
  });

  it('writes through a service called with act', async () => {
    expect((await call('POST', '/api/_planted/service')).status).toBe(204);
    expect(await officeName()).toBe('Renamed through a service');
  });

  it("reads another user's contract and its parties as none at all", async () => {
    const upload = await t.api('POST', '/api/contracts?name=Admin%27s', {
      raw: { data: await makePdf(), contentType: 'application/pdf' },
    });
    const self: string = upload.body.self;
    await t.api('POST', `${self}/parties`, { body: { name: 'Ada', email: 'ada@example.test' } });
    const id = self.split('/').at(-1);
    const asAdmin = await (await call('GET', `/api/_planted/contracts/${id}`)).json();
    expect(asAdmin).toEqual({ contract: Number(id), parties: 1 });
    const user = await makeUser(t, 'clerk');
    const asOther = await (await call('GET', `/api/_planted/contracts/${id}`, user.key)).json();
    expect(asOther).toEqual({ contract: null, parties: 0 });
  });
});
