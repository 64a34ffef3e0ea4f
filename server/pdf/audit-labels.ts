import type { Language } from '../../shared/api/enums';
import { optionalMessage, translatorFor } from '../../shared/i18n/catalogues';
import type { Translate } from '../../shared/i18n/translator';
import type { KeyOf } from '../../shared/i18n/catalogues';

/**
 * The words of the audit page and the stamps in the contract's language: the catalogue's
 * `audit` namespace, the names of the activity log's events (`events`) and of their details
 * (`details`). An event, detail or value the catalogue does not know shows as its code.
 */
export type AuditLabels = {
  language: Language;
  t: Translate<KeyOf<'audit'>>;
  event(code: string): string | undefined;
  detail(key: string): string;
  role(signType: string): string;
  authentication(code: string): string;
  value(value: string): string;
};

export function auditLabels(language: Language = 'en'): AuditLabels {
  const t = translatorFor(language, 'audit');
  const audit = (key: string) => optionalMessage(language, 'audit', key);
  return {
    language,
    t,
    event: (code) => optionalMessage(language, 'events', code),
    detail: (key) => optionalMessage(language, 'details', key) ?? key,
    role: (signType) => audit(`role.${signType}`) ?? signType,
    authentication: (code) => audit(`authentication.${code}`) ?? code,
    value: (value) => audit(`value.${value}`) ?? value,
  };
}
