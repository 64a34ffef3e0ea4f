import { expect } from 'vitest';

const PROBLEM_FIELDS = ['detail', 'instance', 'status', 'title', 'type', 'validation_errors'];

/** A problem response of the given status and `type` anchor, with all six fields. */
export function expectProblem(
  response: { status: number; headers: Headers; body: any },
  status: number,
  anchor: string,
): void {
  expect({ status: response.status, body: response.body }).toMatchObject({ status, body: { status } });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(Object.keys(response.body).sort()).toEqual(PROBLEM_FIELDS);
  expect(response.body.type).toMatch(new RegExp(`/apidoc/v1/posting_data#${anchor}$`));
}
