import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../server/app/routes';
import { makePdf } from '../helpers/pdfs';
import { sessionClient, signInClient } from '../helpers/session';
import { startTestServer, type RequestOptions, type TestServer } from '../helpers/server';
import { makeUser, type MadeUser } from '../helpers/users';

/**
 * The permission model, route by route: what an ordinary user (CUSTOMER_USER) gets on every
 * route of the route table when the ids are someone else's (an administrator's contract, its
 * parts, an unpublished template, other users, tokens, webhooks). A route added without a
 * decision here fails the first test.
 *
 * 403: an administrators' function (the same answer whatever the id: nothing is confirmed).
 * 404: someone else's contract or unpublished template: it is not there for this user.
 * 2xx: the user's own collections. Public routes answer as they do for anyone.
 */
type Decision = { status: number; body?: unknown; raw?: RequestOptions['raw']; headers?: Record<string, string> };

const PUBLIC: Record<string, Decision> = {
  'GET /api/setup': { status: 200 },
  'POST /api/setup': {
    status: 409,
    body: {
      office_name: 'Ek AB',
      office_email: 'ek@office.test',
      username: 'boss',
      email: 'boss@office.test',
      password: 'boss password',
    },
  },
  // A name of its own on each walk: the sign-in throttle would slow one name tried seven times.
  'POST /api/session': { status: 401, body: { username: 'nobody-:walk_id', password: 'not the password' } },
  // The second step of a sign-in: nothing opens without a pending token from the right password.
  'POST /api/session/second-factor': { status: 401, body: { pending_token: 'not-a-pending-token', code: '123456' } },
  'POST /api/session/enrolment': { status: 401, body: { pending_token: 'not-a-pending-token' } },
  'POST /api/session/enrolment/confirm': {
    status: 401,
    body: { pending_token: 'not-a-pending-token', code: '123456' },
  },
  // Single sign-on is not set up in the walk: nothing to start, and no attempt has this state.
  'GET /api/sso': { status: 200 },
  'POST /api/sso/start': { status: 409 },
  'POST /api/sso/callback': {
    status: 401,
    body: { callback_url: 'http://127.0.0.1/admin/sso-callback?code=a-code&state=no-such-state' },
  },
};

const DECIDED: Record<string, Decision> = {
  ...PUBLIC,
  'GET /api/users': { status: 403 },
  'POST /api/users': {
    status: 403,
    body: { username: 'mole', email: 'mole@office.test', permission_template: 'CUSTOMER_ADMIN_USER' },
  },
  'GET /api/users/:user_id': { status: 403 },
  'PUT /api/users/:user_id': { status: 403, body: { email: 'mole@office.test' } },
  'DELETE /api/users/:user_id': { status: 403 },
  'GET /api/contract_templates': { status: 200 },
  'POST /api/contract_templates': { status: 201, body: { name: 'My own template' } },
  'GET /api/contract_templates/:template_id': { status: 404 },
  'PUT /api/contract_templates/:template_id': { status: 404, body: { name: 'Taken over' } },
  'DELETE /api/contract_templates/:template_id': { status: 404 },
  'GET /api/contract_templates/:template_id/pdf_preview': { status: 404 },
  'PUT /api/contract_templates/:template_id/pdf': {
    status: 404,
    raw: { data: '%PDF-1.7 mole', contentType: 'application/pdf' },
  },
  'GET /api/contract_templates/:template_id/fields': { status: 404 },
  'POST /api/contract_templates/:template_id/fields': {
    status: 404,
    body: { role: 1, pdf_page: 1, pos_x: 10, pos_y: 10, width: 50, height: 20, type: 'TEXT' },
  },
  'POST /api/contract_templates/:template_id/fields/from_tags': { status: 404 },
  'GET /api/contract_templates/:template_id/fields/:field_id': { status: 404 },
  'PUT /api/contract_templates/:template_id/fields/:field_id': { status: 404, body: { width: 60 } },
  'DELETE /api/contract_templates/:template_id/fields/:field_id': { status: 404 },
  'POST /api/contract_templates/:template_id/bulk_sends/preview': {
    status: 404,
    raw: { data: 'party1_name,party1_email\nMole,mole@evil.test\n', contentType: 'text/csv' },
  },
  'POST /api/contract_templates/:template_id/bulk_sends': {
    status: 404,
    raw: { data: 'party1_name,party1_email\nMole,mole@evil.test\n', contentType: 'text/csv' },
  },
  'GET /api/bulk_sends': { status: 200 },
  'GET /api/bulk_sends/:bulk_send_id': { status: 404 },
  'GET /api/contract_counts': { status: 200 },
  'GET /api/partner/customer': { status: 403 },
  'PUT /api/partner/customer': { status: 403, body: { name: 'Taken over' } },
  'GET /api/partner/tokens': { status: 403 },
  'POST /api/partner/tokens': { status: 403, body: { name: 'mine', user: '/api/users/1' } },
  'GET /api/partner/tokens/:token_id': { status: 403 },
  'PUT /api/partner/tokens/:token_id': { status: 403, body: { name: 'x' } },
  'DELETE /api/partner/tokens/:token_id': { status: 403 },
  'GET /api/partner/subscription': { status: 403 },
  'PUT /api/partner/subscription': { status: 403, body: { seats: 1000 } },
  'GET /api/partner/subscription/usage': { status: 403 },
  'GET /api/outbox': { status: 403 },
  'GET /api/outbox/:message_id': { status: 403 },
  'POST /api/outbox/:message_id/retry': { status: 403 },
  'GET /api/settings/messaging': { status: 403 },
  'PUT /api/settings/messaging': { status: 403, body: { mail_from: 'mole@evil.test' } },
  'POST /api/settings/messaging/test': { status: 403, body: { to: 'mole@evil.test' } },
  'GET /api/settings/general': { status: 403 },
  'PUT /api/settings/general': { status: 403, body: { public_base_url: 'https://evil.test' } },
  'POST /api/settings/backup': { status: 403, body: { passphrase: 'a passphrase of the mole' } },
  'GET /api/settings/backup_schedule': { status: 403 },
  'PUT /api/settings/backup_schedule': { status: 403, body: { is_enabled: false } },
  'POST /api/settings/backup_schedule/run': { status: 403 },
  'POST /api/settings/backup_schedule/confirm_restored_copy': { status: 403 },
  'GET /api/settings/reminders': { status: 403 },
  'GET /api/settings/storage': { status: 403 },
  'GET /api/settings/timestamps': { status: 403 },
  'GET /api/settings/timestamps/archive_renewal': { status: 403 },
  'POST /api/settings/timestamps/archive_renewal': { status: 403 },
  'GET /api/settings/timestamps/trusted_roots': { status: 403 },
  'POST /api/settings/timestamps/trusted_roots': { status: 403, body: { certificate: 'not checked before access' } },
  'DELETE /api/settings/timestamps/trusted_roots/:root_id': { status: 403 },
  'PUT /api/settings/timestamps': { status: 403, body: { tsa_url: 'http://127.0.0.1:9/tsa' } },
  'POST /api/settings/timestamps/test': { status: 403, body: { tsa_url: 'http://127.0.0.1:9/tsa' } },
  'GET /api/settings/brand': { status: 403 },
  'PUT /api/settings/brand': { status: 403, body: { accent_color: '#1a4d8f' } },
  'GET /api/settings/brand/logo': { status: 403 },
  'PUT /api/settings/brand/logo': { status: 403 },
  'DELETE /api/settings/brand/logo': { status: 403 },
  'GET /api/settings/mail_words': { status: 403 },
  'PUT /api/settings/mail_words': { status: 403, body: {} },
  'POST /api/settings/mail_words/preview': { status: 403, body: { kind: 'invitation', language: 'sv' } },
  'POST /api/settings/mail_words/test': { status: 403, body: { kind: 'reminder', language: 'sv', to: 'a@b.test' } },
  'GET /api/settings/dkim': { status: 403 },
  'PUT /api/settings/dkim': { status: 403, body: { domain: 'office.example' } },
  'GET /api/office_log': { status: 403 },
  'GET /api/office_log/verification': { status: 403 },
  'GET /api/settings/reach': { status: 403 },
  'PUT /api/settings/reach': { status: 403, body: { public_port: 8443 } },
  'POST /api/settings/reach/check': { status: 403 },
  'GET /api/settings/acme': { status: 403 },
  'PUT /api/settings/acme': { status: 403, body: { domain: 'evil.test' } },
  'POST /api/settings/acme/renew': { status: 403 },
  'PUT /api/settings/reminders': { status: 403, body: { reminder_interval_days: 1 } },
  'GET /api/settings/sso': { status: 403 },
  'PUT /api/settings/sso': { status: 403, body: { is_enabled: false } },
  'POST /api/settings/restore': {
    status: 403,
    raw: { data: 'SQLite format 3\0', contentType: 'application/octet-stream' },
  },
  'GET /api/settings/signing_certificate': { status: 403 },
  'POST /api/settings/signing_certificate': { status: 403, body: { pkcs12: 'AAAA', passphrase: 'x' } },
  'GET /api/webhooks': { status: 403 },
  'POST /api/webhooks': { status: 403, body: { url: 'http://127.0.0.1:9/hooks' } },
  'GET /api/webhooks/:webhook_id': { status: 403 },
  'PUT /api/webhooks/:webhook_id': { status: 403, body: { url: 'http://127.0.0.1:9/other' } },
  'DELETE /api/webhooks/:webhook_id': { status: 403 },
  'POST /api/webhooks/:webhook_id/enable': { status: 403 },
  'GET /api/webhooks/:webhook_id/events': { status: 403 },
  'GET /api/webhooks/:webhook_id/events/:event_id': { status: 403 },
  'POST /api/webhooks/:webhook_id/events/:event_id/retry': { status: 403 },
  'POST /api/webhooks/:webhook_id/events/retry': { status: 403, body: { states: ['held', 'failed'] } },
  'GET /api/session': { status: 403 },
  'DELETE /api/session': { status: 403 },
  // One's own authenticator app: a session's, never a token's.
  'GET /api/session/totp': { status: 403 },
  'POST /api/session/totp': { status: 403 },
  'POST /api/session/totp/confirm': { status: 403, body: { code: '123456' } },
  'POST /api/session/totp/remove': { status: 403, body: { password: 'not the password' } },
  'GET /api/settings/sign-in': { status: 403 },
  'PUT /api/settings/sign-in': { status: 403, body: { require_two_factors: true } },
  'GET /api/contracts': { status: 200 },
  'POST /api/contracts': { status: 201, body: { name: 'My own contract' } },
  'GET /api/contracts/:contract_id': { status: 404 },
  'PUT /api/contracts/:contract_id': { status: 404, body: { name: 'Taken over' } },
  'DELETE /api/contracts/:contract_id': { status: 404 },
  'POST /api/contracts/:contract_id/send': { status: 404, body: { silent: true } },
  'GET /api/contracts/:contract_id/pdf': { status: 404 },
  'GET /api/contracts/:contract_id/activity_log': { status: 404 },
  'GET /api/contracts/:contract_id/activity_log/verification': { status: 404 },
  'GET /api/contracts/:contract_id/evidence': { status: 404 },
  'POST /api/contracts/:contract_id/notify': { status: 404 },
  'POST /api/contracts/:contract_id/duplicate': { status: 404, body: {} },
  'POST /api/contracts/:contract_id/withdraw': { status: 404, body: {} },
  'PUT /api/contracts/:contract_id/reminders': { status: 404, body: { reminder_interval_days: 1 } },
  'GET /api/contracts/:contract_id/signed_pdf': { status: 404 },
  'GET /api/contracts/:contract_id/parties': { status: 404 },
  'POST /api/contracts/:contract_id/parties': { status: 404, body: { name: 'Mole', email: 'mole@evil.test' } },
  'GET /api/contracts/:contract_id/parties/:party_id': { status: 404 },
  'PUT /api/contracts/:contract_id/parties/:party_id': { status: 404, body: { email: 'mole@evil.test' } },
  'DELETE /api/contracts/:contract_id/parties/:party_id': { status: 404 },
  'POST /api/contracts/:contract_id/parties/:party_id/correction': {
    status: 404,
    body: { email: 'mole@evil.test', reason: 'mine now' },
  },
  'POST /api/contracts/:contract_id/parties/:party_id/test_answer': { status: 404, body: { answer: 'accept' } },
  'GET /api/contracts/:contract_id/roles': { status: 404 },
  'GET /api/contracts/:contract_id/annotations': { status: 404 },
  'POST /api/contracts/:contract_id/annotations': {
    status: 404,
    body: {
      party_id: '/api/contracts/:contract_id/parties/:party_id',
      type: 'TEXT',
      pdf_page: 1,
      pos_x: 10,
      pos_y: 10,
      width: 50,
      height: 20,
    },
  },
  'GET /api/contracts/:contract_id/annotations/:annotation_id': { status: 404 },
  'PUT /api/contracts/:contract_id/annotations/:annotation_id': { status: 404, body: { width: 60 } },
  'DELETE /api/contracts/:contract_id/annotations/:annotation_id': { status: 404 },
  'POST /api/contracts/:contract_id/annotations/from_tags': { status: 404 },
  'GET /api/contracts/:contract_id/annotations/:annotation_id/file': { status: 404 },
  'GET /api/contracts/:contract_id/attachments': { status: 404 },
  'POST /api/contracts/:contract_id/attachments': {
    status: 404,
    raw: { data: 'mole', contentType: 'text/plain' },
    headers: { 'content-disposition': 'attachment; filename="mole.txt"' },
  },
  'GET /api/contracts/:contract_id/attachments/:attachment_id': { status: 404 },
  'GET /api/contracts/:contract_id/attachments/:attachment_id/preview': { status: 404 },
  'DELETE /api/contracts/:contract_id/attachments/:attachment_id': { status: 404 },
};

const keyOf = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

describe('the permission model, walked over every route', () => {
  let t: TestServer;
  let clerk: MadeUser;
  let gone: MadeUser;
  let goneSession: ReturnType<typeof sessionClient>;
  /** The administrator's resources the ordinary user aims at. */
  const ids: Record<string, number> = { user_id: 1, token_id: 1, message_id: 1, webhook_id: 1, event_id: 1 };

  beforeAll(async () => {
    t = await startTestServer();
    clerk = await makeUser(t, 'clerk');
    gone = await makeUser(t, 'gone');
    goneSession = await signInClient(t.url, gone.username, gone.password);
    expect((await t.api('PUT', gone.path, { body: { active: false } })).status).toBe(200);

    const contract = await t.api('POST', '/api/contracts', {
      raw: { data: await makePdf(), contentType: 'application/pdf' },
    });
    ids.contract_id = contract.body.id ?? Number(contract.body.self.split('/').at(-1));
    const party = await t.api('POST', `${contract.body.self}/parties`, {
      body: { name: 'Eva', email: 'eva@office.test' },
    });
    ids.party_id = Number(party.body.self.split('/').at(-1));
    const annotation = await t.api('POST', `${contract.body.self}/annotations`, {
      body: { party_id: party.body.self, type: 'SIGNATURE', pdf_page: 1, pos_x: 10, pos_y: 10, width: 100, height: 30 },
    });
    ids.annotation_id = Number(annotation.body.self.split('/').at(-1));
    const attachment = await t.api('POST', `${contract.body.self}/attachments`, {
      raw: { data: 'salary annex', contentType: 'text/plain' },
      headers: { 'content-disposition': 'attachment; filename="annex.txt"' },
    });
    ids.attachment_id = Number(attachment.body.self.split('/').at(-1));
    const template = await t.api('POST', '/api/contract_templates', {
      body: { name: 'Board only', content: 'Secret terms' },
    });
    ids.template_id = Number(template.body.self.split('/').at(-1));
    // A PDF template with a field for its role, and a bulk send made from it: the administrator's own.
    expect(
      (
        await t.api('PUT', `${template.body.self}/pdf`, {
          raw: { data: await makePdf(), contentType: 'application/pdf' },
        })
      ).status,
    ).toBe(200);
    const field = await t.api('POST', `${template.body.self}/fields`, {
      body: { role: 1, pdf_page: 1, pos_x: 10, pos_y: 10, width: 100, height: 30, type: 'SIGNATURE' },
    });
    expect(field.status, field.text).toBe(201);
    ids.field_id = Number(field.body.self.split('/').at(-1));
    const bulk = await t.api('POST', `${template.body.self}/bulk_sends`, {
      raw: { data: 'party1_name,party1_email\nEva,eva@office.test\n', contentType: 'text/csv' },
    });
    expect(bulk.status, bulk.text).toBe(201);
    ids.bulk_send_id = Number(bulk.body.self.split('/').at(-1));
    // The ids are real: the administrator reaches each of them.
    for (const path of [
      contract.body.self,
      party.body.self,
      annotation.body.self,
      attachment.body.self,
      template.body.self,
      field.body.self,
      bulk.body.self,
    ]) {
      expect((await t.api('GET', path)).status, path).toBe(200);
    }
  });
  afterAll(() => t.close());

  it('has a decision for every route of the route table', () => {
    expect(Object.keys(DECIDED).sort()).toEqual(apiRoutes.map(keyOf).sort());
  });

  const walk = async (
    request: (method: string, path: string, decision: Decision) => Promise<number>,
    expected: (key: string, decision: Decision) => number,
  ) => {
    const wrong: string[] = [];
    ids.walk_id = (ids.walk_id ?? 0) + 1;
    for (const route of apiRoutes) {
      const key = keyOf(route);
      const decision = DECIDED[key] as Decision;
      const path = route.path.replace(/:(\w+)/g, (_match: string, name: string) => String(ids[name] ?? 1));
      const body =
        decision.body === undefined
          ? undefined
          : JSON.parse(
              JSON.stringify(decision.body).replace(/:(\w+_id)/g, (_match: string, name: string) => String(ids[name])),
            );
      const status = await request(route.method.toUpperCase(), path, { ...decision, body });
      if (status !== expected(key, decision)) wrong.push(`${key}: ${status}, decided ${expected(key, decision)}`);
    }
    return wrong;
  };
  const asToken =
    (key: string, headers: Record<string, string> = {}) =>
    async (method: string, path: string, decision: Decision) =>
      (
        await t.api(method, path, {
          key,
          headers: { ...decision.headers, ...headers },
          ...(decision.raw ? { raw: decision.raw } : decision.body ? { body: decision.body } : {}),
        })
      ).status;

  it("answers an ordinary user's token as decided", async () => {
    expect(await walk(asToken(clerk.key), (_key, decision) => decision.status)).toEqual([]);
  });

  it('answers the same when the token names its own user in Api-User-Uri', async () => {
    expect(await walk(asToken(clerk.key, { 'api-user-uri': clerk.path }), (_key, decision) => decision.status)).toEqual(
      [],
    );
  });

  it("refuses an ordinary user's token acting as an administrator (403) on every route", async () => {
    const expected = (key: string, decision: Decision) => (key in PUBLIC ? decision.status : 403);
    expect(await walk(asToken(clerk.key, { 'api-user-uri': '/api/users/1' }), expected)).toEqual([]);
  });

  it("refuses a deactivated user's token (401) on every route, with or without Api-User-Uri", async () => {
    const expected = (key: string, decision: Decision) => (key in PUBLIC ? decision.status : 401);
    expect(await walk(asToken(gone.key), expected)).toEqual([]);
    expect(await walk(asToken(gone.key, { 'api-user-uri': '/api/users/1' }), expected)).toEqual([]);
    expect(await walk(asToken(gone.key, { 'api-user-uri': gone.path }), expected)).toEqual([]);
  });

  it("refuses a deactivated user's session (401) on every route", async () => {
    const expected = (key: string, decision: Decision) => (key in PUBLIC ? decision.status : 401);
    const request = async (method: string, path: string, decision: Decision) => {
      const saved = goneSession.cookie;
      const raw = decision.raw
        ? {
            data: new TextEncoder().encode(String(decision.raw.data)),
            contentType: decision.raw.contentType ?? 'text/plain',
          }
        : undefined;
      const response = await goneSession.request(method, path, {
        headers: decision.headers ?? {},
        ...(raw ? { raw } : decision.body ? { body: decision.body } : {}),
      });
      goneSession.cookie = saved;
      return response.status;
    };
    expect(await walk(request, expected)).toEqual([]);
  });
});
