import { z } from 'zod';
import type { ReadContext } from '../context/read-context';

/** The settings key of the IT partner's contact, part of the customer record. */
export const PARTNER_CONTACT_KEY = 'partner_contact';

/** Who the office asks about its plan: the partner that set it up and bills it. */
export type PartnerContact = { name: string | null; email: string | null; phone: string | null };

export const NO_PARTNER_CONTACT: PartnerContact = Object.freeze({ name: null, email: null, phone: null });

const ZStoredSchema = z.object({
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});

export async function readPartnerContact(ctx: ReadContext): Promise<PartnerContact> {
  const text = await ctx.repos.settings.get(PARTNER_CONTACT_KEY);
  if (text === undefined) return NO_PARTNER_CONTACT;
  try {
    const parsed = ZStoredSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Read below as none.
  }
  ctx.logger.error({ key: PARTNER_CONTACT_KEY }, 'the stored partner contact cannot be read; it is left out');
  return NO_PARTNER_CONTACT;
}

/** "Acme IT (it@acme.example, +46 8 12 34 56)", or undefined when the customer record names no partner. */
export function partnerContactText(contact: PartnerContact): string | undefined {
  const reach = [contact.email, contact.phone].filter((part): part is string => Boolean(part));
  if (!contact.name && reach.length === 0) return undefined;
  if (!contact.name) return reach.join(', ');
  return reach.length > 0 ? `${contact.name} (${reach.join(', ')})` : contact.name;
}
