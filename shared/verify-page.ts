import type { Language } from './api/enums';

/** What the server inlines into the verify page: its texts in the chosen language, and the office's name and logo. */
export type TVerifyBootstrap = {
  texts: { language: Language; messages: Record<string, string> };
  brand: { officeName: string; logo: { url: string; width: number; height: number } | null };
};
