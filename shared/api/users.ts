import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants';
import { PERMISSION_TEMPLATES } from './enums';
import { shortText, ZTimestampSchema } from './common';

export const ZUserSchema = z
  .object({
    self: z.string().meta({ description: "The user's path", example: '/api/users/1' }),
    permission_template: z.enum(PERMISSION_TEMPLATES).meta({
      description:
        'CUSTOMER_ADMIN_USER: everything, including users, tokens and webhooks; CUSTOMER_USER: contracts and templates',
    }),
    firstname: z.string().meta({ example: 'Signe' }),
    lastname: z.string().meta({ example: 'Svensson' }),
    username: z.string().meta({ example: 'signe' }),
    password: z.null().meta({ description: 'Write-only: always null in responses' }),
    email: z.string().meta({ example: 'signe@office.example' }),
    active: z.boolean().meta({ description: 'false: cannot sign in, and its tokens are refused', example: true }),
    created_time: ZTimestampSchema,
  })
  .meta({ id: 'ApiUser' });

const password = z.string().min(MIN_PASSWORD_LENGTH).max(1_000);
const username = z
  .string()
  .min(1)
  .max(1_000)
  .regex(/^[^\s]+$/, 'must not contain spaces');

export const ZUserCreateSchema = z
  .strictObject({
    permission_template: z.enum(PERMISSION_TEMPLATES).optional(),
    firstname: shortText().optional(),
    lastname: shortText().optional(),
    username,
    password: password.optional(),
    email: z.email().max(1_000),
    active: z.boolean().optional(),
  })
  .meta({ id: 'ApiUserCreate' });

export const ZUserUpdateSchema = ZUserCreateSchema.partial().meta({ id: 'ApiUserUpdate' });

export const USER_READ_ONLY_FIELDS = ['self', 'created_time'] as const;

export type TUser = z.infer<typeof ZUserSchema>;
export type TUserCreate = z.infer<typeof ZUserCreateSchema>;
export type TUserUpdate = z.infer<typeof ZUserUpdateSchema>;
