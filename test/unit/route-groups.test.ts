import { describe, expect, it } from 'vitest';
import { groupKeyOfRequest, groupKeyOfRoute } from '../../server/http/route-groups';
import { apiRoutes } from '../../server/app/routes';

describe('route groups', () => {
  it('give every request a route matches the key of that route', () => {
    for (const route of apiRoutes) {
      const key = groupKeyOfRoute(route.path);
      const concrete = route.path.replace(/:\w+/g, '12');
      for (const path of [concrete, `${concrete}/`, concrete.toUpperCase()]) {
        expect(groupKeyOfRequest(path), `${route.path} as ${path}`).toBe(key);
      }
    }
  });

  it('tell routes of different depth or resource apart', () => {
    expect(groupKeyOfRoute('/api/contracts')).not.toBe(groupKeyOfRoute('/api/contracts/:contract_id'));
    expect(groupKeyOfRoute('/api/contracts/:contract_id')).not.toBe(
      groupKeyOfRoute('/api/contract_templates/:template_id'),
    );
    expect(groupKeyOfRequest('/api/users/1/extra')).not.toBe(groupKeyOfRoute('/api/users/:user_id'));
    expect(groupKeyOfRequest('/api/users//1')).not.toBe(groupKeyOfRoute('/api/users/:user_id'));
    expect(groupKeyOfRequest('/api/users/1//')).not.toBe(groupKeyOfRoute('/api/users/:user_id'));
    expect(groupKeyOfRequest('/')).toBe('');
    expect(groupKeyOfRequest('/api')).toBe('');
  });

  it('refuse a route path they cannot group', () => {
    expect(() => groupKeyOfRoute('/api/:anything')).toThrow();
    expect(() => groupKeyOfRoute('/api/files/*rest')).toThrow();
    expect(() => groupKeyOfRoute('/api')).toThrow();
  });
});
