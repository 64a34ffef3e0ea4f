import { MAIL_WORD_KINDS, type TMailWordsSettings, type TMailWordsUpdate } from '../../shared/api/brand';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { logOfficeEvent } from '../activity/office-log';
import { MAIL_WORDS_KEY, readMailWords } from '../brand/mail-words';

/** Saves the office's own words of the mails and languages sent; null for a language removes its words. */
export async function updateMailWords(ctx: AppContext, input: TMailWordsUpdate): Promise<TMailWordsSettings> {
  return inTransaction(ctx.db, async () => {
    const current = await readMailWords(ctx);
    const next: TMailWordsSettings = {
      invitation: { ...current.invitation },
      reminder: { ...current.reminder },
      signed: { ...current.signed },
    };
    const changed: string[] = [];
    for (const kind of MAIL_WORD_KINDS) {
      for (const [language, words] of Object.entries(input[kind] ?? {})) {
        const byLanguage = next[kind] as Record<string, unknown>;
        if (words === null) delete byLanguage[language];
        else byLanguage[language] = words;
        changed.push(`${kind}.${language}`);
      }
    }
    const isEmpty = MAIL_WORD_KINDS.every((kind) => Object.keys(next[kind]).length === 0);
    await ctx.repos.settings.write(MAIL_WORDS_KEY, isEmpty ? null : JSON.stringify(next), ctx.now());
    if (changed.length > 0)
      await logOfficeEvent(ctx, {
        event: 'settings.changed',
        subject: '/api/settings/mail_words',
        details: { fields: changed.sort().join(',') },
      });
    return next;
  });
}
