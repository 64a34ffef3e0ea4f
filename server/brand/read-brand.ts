import { createHash } from 'node:crypto';
import { DEFAULT_ACCENT } from '../../shared/brand';
import type { ReadContext } from '../context/read-context';

/** The keys of the brand in the settings table. */
export const BRAND_KEYS = {
  accent: 'brand.accent_color',
  /** JSON: the logo PNG SignDesk made (base64), its size, and what was uploaded. */
  logo: 'brand.logo',
} as const;

/** The office's logo as parties get it: always a PNG SignDesk made itself, never the upload's bytes. */
export type BrandLogo = {
  png: Buffer;
  width: number;
  height: number;
  sha256: string;
  uploadedType: 'image/png' | 'image/svg+xml';
};

/** What the office shows parties: its name, its accent (null: SignDesk's own) and its logo. */
export type Brand = { officeName: string; accentColor: string | null; logo: BrandLogo | null };

export type StoredLogo = { png: string; width: number; height: number; uploadedType: BrandLogo['uploadedType'] };

/** The last logo read, decoded: the signing page reads the brand on every load and the logo rarely changes. */
let decoded: { stored: string; logo: BrandLogo | null } | undefined;

function decodeLogo(stored: string | undefined): BrandLogo | null {
  if (stored === undefined) return null;
  if (decoded?.stored === stored) return decoded.logo;
  let logo: BrandLogo | null = null;
  try {
    const parsed = JSON.parse(stored) as Partial<StoredLogo>;
    if (typeof parsed.png === 'string' && Number.isInteger(parsed.width) && Number.isInteger(parsed.height)) {
      const png = Buffer.from(parsed.png, 'base64');
      logo = {
        png,
        width: parsed.width!,
        height: parsed.height!,
        sha256: createHash('sha256').update(png).digest('hex'),
        uploadedType: parsed.uploadedType === 'image/svg+xml' ? 'image/svg+xml' : 'image/png',
      };
    }
  } catch {
    logo = null;
  }
  decoded = { stored, logo };
  return logo;
}

/** The brand in force; `senderName` (a contract's email_from_name) stands for the office's name where the contract gives one. */
export async function readBrand(ctx: ReadContext, senderName = ''): Promise<Brand> {
  const [office, saved] = await Promise.all([
    ctx.repos.office.get(ctx.now()),
    ctx.repos.settings.getMany(Object.values(BRAND_KEYS)),
  ]);
  return {
    officeName: senderName || office.name,
    accentColor: saved.get(BRAND_KEYS.accent) ?? null,
    logo: decodeLogo(saved.get(BRAND_KEYS.logo)),
  };
}

export const accentOf = (brand: Brand): string => brand.accentColor ?? DEFAULT_ACCENT;

/** Where a party's browser (or mail client) gets the logo: on the party surface, named by its content. */
export const logoPath = (logo: BrandLogo): string => `/sign/brand/logo-${logo.sha256.slice(0, 16)}.png`;
/** The style sheet that carries the office's accent into the pages (their CSP takes no inline style). */
export const accentStylePath = (accent: string): string => `/sign/brand/accent-${accent.slice(1)}.css`;
