/// <reference types="vite/client" />
import type { MessageKey } from './en';

/** One language of the admin UI: its own name and its messages (ICU, English's keys). */
export type AdminCatalogue = { name: string; messages: Record<MessageKey, string> };

/**
 * The admin UI's languages: every `renderer/i18n/<code>.ts` that exports a `catalogue` (English
 * defines the keys; `sv.ts` is typed by them). A new language is a new file of that name;
 * test/unit/catalogues.test.ts holds it to English's keys and placeholders.
 */
const modules = import.meta.glob<AdminCatalogue>('./[a-z][a-z].ts', { eager: true, import: 'catalogue' });

export const ADMIN_CATALOGUES: Record<string, AdminCatalogue> = Object.fromEntries(
  Object.entries(modules).map(([file, catalogue]) => [file.slice(2, -3), catalogue]),
);
