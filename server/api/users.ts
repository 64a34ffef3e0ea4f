import { z } from 'zod';
import { ZPageQuerySchema } from '../../shared/api/common';
import {
  USER_READ_ONLY_FIELDS,
  ZUserCreateSchema,
  ZUserSchema,
  ZUserUpdateSchema,
  type TUser,
} from '../../shared/api/users';
import type { RouteContext } from '../http/route';
import type { UserRow } from '../db/repos/users';
import { notFound } from '../core/errors';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { createUser } from '../users/create-user';
import { deleteUser } from '../users/delete-user';
import { updateUser } from '../users/update-user';

export function presentUser(ctx: RouteContext, row: UserRow): TUser {
  return {
    self: `/api/users/${row.id}`,
    permission_template: row.permissionTemplate as TUser['permission_template'],
    firstname: row.firstname,
    lastname: row.lastname,
    username: row.username,
    password: null,
    email: row.email,
    active: row.active,
    created_time: ctx.timestamp(row.createdAt),
  };
}

const tag = 'Users';

export const userRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/users',
    operationId: 'listUsers',
    summary: 'List users, newest first',
    tag,
    access: 'admin',
    query: ZPageQuerySchema,
    responses: { 200: { description: 'A page of users', schema: z.array(ZUserSchema), isPaginated: true } },
    handler: async ({ req, res, ctx, query }) => {
      const request = readPageRequest(query, 'users:-id', 1);
      const page = await ctx.repos.users.listPage(request);
      await sendPage(req, res, ctx.baseUrl(), request, page, await ctx.repos.users.count(), (row) =>
        presentUser(ctx, row),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/users',
    operationId: 'createUser',
    summary: 'Create a user',
    tag,
    access: 'admin',
    body: ZUserCreateSchema,
    readOnlyFields: USER_READ_ONLY_FIELDS,
    example: {
      body: {
        username: 'signe',
        email: 'signe@office.example',
        firstname: 'Signe',
        lastname: 'Svensson',
        password: 'a long secret',
        permission_template: 'CUSTOMER_USER',
      },
    },
    responses: { 201: { description: 'The user', schema: ZUserSchema } },
    handler: async ({ res, ctx, body, act }) => {
      sendJson(res, 201, presentUser(ctx, await act(createUser, body)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/users/:user_id',
    operationId: 'getUser',
    summary: 'Get a user',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The user', schema: ZUserSchema } },
    handler: async ({ res, ctx, ids }) => {
      const row = await ctx.repos.users.findById(ids.user_id);
      if (!row) throw notFound('user');
      sendJson(res, 200, presentUser(ctx, row));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/users/:user_id',
    operationId: 'updateUser',
    summary: 'Change a user; only the fields sent change',
    tag,
    access: 'admin',
    body: ZUserUpdateSchema,
    readOnlyFields: USER_READ_ONLY_FIELDS,
    example: { body: { firstname: 'Signe', lastname: 'Berg' } },
    responses: { 200: { description: 'The user', schema: ZUserSchema } },
    handler: async ({ res, ctx, ids, body, act }) => {
      sendJson(res, 200, presentUser(ctx, await act(updateUser, ids.user_id, body)));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/users/:user_id',
    operationId: 'deleteUser',
    summary: 'Delete a user and revoke their API tokens',
    tag,
    access: 'admin',
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ res, ids, act }) => {
      await act(deleteUser, ids.user_id);
      res.status(204).end();
    },
  }),
];
