import { z } from 'zod';
import { SECRET_MASK } from './messaging-settings';

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const SELECTOR = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export const ZDkimSettingsSchema = z
  .object({
    domain: z
      .string()
      .nullable()
      .meta({ description: 'The domain mails are signed for (d=)', example: 'office.example' }),
    selector: z.string().nullable().meta({ description: 'The key’s selector (s=)', example: 'signdesk' }),
    private_key: z
      .string()
      .nullable()
      .meta({ description: `The private key: ${SECRET_MASK} when one is saved (never shown)`, example: SECRET_MASK }),
    dns_record: z
      .object({ name: z.string(), type: z.literal('TXT'), value: z.string() })
      .nullable()
      .meta({ description: 'The record to publish in the domain’s DNS so that receivers can check the signatures' }),
  })
  .meta({ id: 'DkimSettings' });

export const ZDkimSettingsUpdateSchema = z
  .strictObject({
    domain: z.string().trim().regex(HOST, 'must be a domain name such as office.example').nullable().optional(),
    selector: z
      .string()
      .trim()
      .regex(SELECTOR, 'must be a selector such as signdesk or mail2026')
      .nullable()
      .optional(),
    private_key: z
      .string()
      .max(20_000)
      .nullable()
      .optional()
      .meta({
        description: `A PEM private key (RSA of 2048 bits or more, or Ed25519); ${SECRET_MASK} keeps the saved one`,
      }),
  })
  .meta({
    id: 'DkimSettingsUpdate',
    description:
      'Mails are signed once domain, selector and private key are all set; null removes one (and signing stops).',
  });

export type TDkimSettings = z.infer<typeof ZDkimSettingsSchema>;
export type TDkimSettingsUpdate = z.infer<typeof ZDkimSettingsUpdateSchema>;
