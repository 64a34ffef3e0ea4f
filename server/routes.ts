import { partnerRoutes } from './api/partner';
import { templateRoutes } from './api/templates';
import { userRoutes } from './api/users';
import { webhookEventRoutes } from './api/webhook-events';
import { webhookRoutes } from './api/webhooks';
import type { AnyRoute } from './http/route';

/** Every API route in matching order; the OpenAPI document and the API docs are made from this list. */
export const apiRoutes: readonly AnyRoute[] = [
  ...userRoutes,
  ...templateRoutes,
  ...partnerRoutes,
  ...webhookRoutes,
  ...webhookEventRoutes,
];
