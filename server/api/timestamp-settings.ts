import { randomBytes } from 'node:crypto';
import {
  TIMESTAMP_SETTINGS_READ_ONLY_FIELDS,
  ZTimestampSettingsSchema,
  ZTimestampSettingsUpdateSchema,
  ZTimestampTestResultSchema,
  type TTimestampTestResult,
} from '../../shared/api/timestamps';
import { AppError } from '../core/errors';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { requestTimestamp } from '../evidence/timestamps/request-timestamp';
import { isClockOff, presentTimestampSettings, readTsaUrl, saveTsaUrl } from '../evidence/timestamps/tsa-settings';

const tag = 'Settings';

export const timestampSettingsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/settings/timestamps',
    operationId: 'getTimestampSettings',
    summary: 'The RFC 3161 timestamp authority and the state of the timestamps',
    description:
      "A saved value wins over the environment (TSA_URL). With none, signed PDFs carry no trusted time: their times are only the PC clock's word.",
    tag,
    access: 'admin',
    responses: { 200: { description: 'The settings', schema: ZTimestampSettingsSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await presentTimestampSettings(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/timestamps',
    operationId: 'updateTimestampSettings',
    summary: 'Set the RFC 3161 timestamp authority; null returns to TSA_URL (or none)',
    description: 'Contracts whose timestamp is pending are tried again at once with the authority now in force.',
    tag,
    access: 'admin',
    body: ZTimestampSettingsUpdateSchema,
    example: { body: { tsa_url: 'http://tsa.office.lan/tsr' } },
    readOnlyFields: TIMESTAMP_SETTINGS_READ_ONLY_FIELDS,
    responses: { 200: { description: 'The settings', schema: ZTimestampSettingsSchema } },
    handler: async ({ res, ctx, body, act }) => {
      await act(saveTsaUrl, body.tsa_url);
      sendJson(res, 200, await presentTimestampSettings(ctx));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/timestamps/test',
    operationId: 'testTimestampAuthority',
    summary: 'Ask the timestamp authority for a timestamp now and say what it answered',
    description:
      "Answers 200 whether or not the authority answered (see `ok`), with the PC clock's offset from the authority's; 409 when none is configured.",
    tag,
    access: 'admin',
    responses: { 200: { description: 'What the authority answered', schema: ZTimestampTestResultSchema } },
    problemStatuses: [409],
    handler: async ({ res, ctx, act }) => {
      const url = (await readTsaUrl(ctx)).url;
      if (!url) throw new AppError('conflict', 'No timestamp authority is configured.');
      let answer: TTimestampTestResult;
      try {
        const token = await act(requestTimestamp, url, randomBytes(32), { timeoutMs: 15_000 });
        const offset = Math.round(token.clockOffsetMs / 1000);
        answer = {
          ok: true,
          error: null,
          authority_time: ctx.timestamp(token.genTime.getTime()),
          clock_offset_seconds: offset,
          is_clock_off: isClockOff(token.clockOffsetMs),
          authority: token.signer.subject.replaceAll('\n', ', '),
        };
      } catch (error) {
        answer = {
          ok: false,
          error: error instanceof Error ? error.message : String(error),
          authority_time: null,
          clock_offset_seconds: null,
          is_clock_off: false,
          authority: null,
        };
      }
      sendJson(res, 200, answer);
    },
  }),
];
