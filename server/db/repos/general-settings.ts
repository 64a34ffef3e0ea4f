import { eq } from 'drizzle-orm';
import type { Db } from '../open-database';
import { generalSettings } from '../schema';

export const GENERAL_SETTING_KEYS = ['public_base_url', 'time_zone'] as const;
export type GeneralSettingKey = (typeof GENERAL_SETTING_KEYS)[number];

/** Key-value rows; a missing key means the environment's default applies. */
export function createGeneralSettingsRepo(db: Db) {
  return {
    readAll: (): Partial<Record<GeneralSettingKey, string>> => {
      const values: Partial<Record<GeneralSettingKey, string>> = {};
      for (const row of db.select().from(generalSettings).all()) {
        if ((GENERAL_SETTING_KEYS as readonly string[]).includes(row.key)) values[row.key as GeneralSettingKey] = row.value;
      }
      return values;
    },
    /** null removes the row: back to the default. */
    write: (key: GeneralSettingKey, value: string | null, now: number): void => {
      if (value === null) {
        db.delete(generalSettings).where(eq(generalSettings.key, key)).run();
        return;
      }
      db.insert(generalSettings)
        .values({ key, value, updatedAt: now })
        .onConflictDoUpdate({ target: generalSettings.key, set: { value, updatedAt: now } })
        .run();
    },
  };
}

export type GeneralSettingsRepo = ReturnType<typeof createGeneralSettingsRepo>;
