import { partnerRoutes } from './api/partner';
import { sessionRoutes } from './api/session';
import { settingsRoutes } from './api/settings';
import { templateRoutes } from './api/templates';
import { userRoutes } from './api/users';
import type { AnyRoute } from './http/route';

/** Every API route in matching order; the OpenAPI document and the API docs are made from this list. */
export const apiRoutes: readonly AnyRoute[] = [...userRoutes, ...templateRoutes, ...partnerRoutes, ...sessionRoutes, ...settingsRoutes];
