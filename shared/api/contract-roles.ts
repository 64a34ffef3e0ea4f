import { z } from 'zod';

export const ZContractRoleSchema = z
  .object({
    role_number: z.number().int().meta({ description: 'The role (1 = the first role of the template)', example: 2 }),
    name: z
      .string()
      .nullable()
      .meta({ description: "The role's name when the contract was made; null if it had none", example: 'Tenant' }),
    party: z.string().nullable().meta({
      description: 'The party that took the role, or null while none has',
      example: '/api/contracts/1/parties/2',
    }),
    fields_waiting: z.number().int().meta({
      description: "How many of the template's fields for this role still wait for a party to take the role",
      example: 0,
    }),
  })
  .meta({ id: 'ApiContractRole' });

export type TContractRole = z.infer<typeof ZContractRoleSchema>;
