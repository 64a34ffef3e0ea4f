import { describe, expect, it } from 'vitest';
import { examplesIn, foreignTimestamps } from '../helpers/timestamps';

describe('the timestamp-form check of the API tests', () => {
  it('finds timestamps in any other form, wherever they are, and passes the interface form and non-timestamps', () => {
    const body = {
      created_time: '2026-11-26 12:03:01',
      recorded_time: '2026-11-26T12:03:01.054Z',
      parties: [{ sign_time: '2026-11-26 12:03' }, { sign_time: null }],
      details: { at: '2026-11-26T13:03:01+01:00', note: 'signed on 2026-11-26T12:03:01Z by Eva' },
      date: '2026-11-26',
      count: 20261126,
    };
    expect(foreignTimestamps(body)).toEqual([
      '$.recorded_time: 2026-11-26T12:03:01.054Z',
      '$.parties[0].sign_time: 2026-11-26 12:03',
      '$.details.at: 2026-11-26T13:03:01+01:00',
    ]);
    expect(foreignTimestamps(['2026-11-26 12:03:01', 'x'])).toEqual([]);
  });

  it('collects the examples of an OpenAPI document: schema, property and media type examples', () => {
    const document = {
      components: { schemas: { A: { properties: { t: { type: 'string', example: '2026-01-01T00:00:00Z' } } } } },
      paths: {
        '/x': { get: { responses: { 200: { content: { 'application/json': { examples: { one: { value: 1 } } } } } } } },
      },
    };
    expect(examplesIn(document)).toEqual([
      { at: '$.components.schemas.A.properties.t.example', example: '2026-01-01T00:00:00Z' },
      { at: '$.paths./x.get.responses.200.content.application/json.examples', example: { one: { value: 1 } } },
    ]);
  });
});
