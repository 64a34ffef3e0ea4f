import type { TCustomer } from '../../shared/api/partner';
import type { TPlanWarning, TSubscriptionUsage } from '../../shared/api/subscription';
import { getJson } from '../lib/api';
import type { MessageKey } from '../i18n/en';
import { useT } from '../lib/i18n';
import { Link } from '../lib/router';
import { useLoad } from '../lib/use-load';
import { Notice } from './ui';

/** The usage, and with any warning the customer record (the partner to ask); nothing more is fetched. */
export type PlanNotice = { usage: TSubscriptionUsage; customer: TCustomer | undefined };

export async function loadPlanNotice(signal: AbortSignal): Promise<PlanNotice> {
  const usage = await getJson<TSubscriptionUsage>('/api/partner/subscription/usage', signal);
  const customer = usage.warnings.length > 0 ? await getJson<TCustomer>('/api/partner/customer', signal) : undefined;
  return { usage, customer };
}

/** "Acme IT (support@acme.example, +46 8 123 456)", or undefined when the customer record names nobody. */
export function partnerText(customer: TCustomer | undefined): string | undefined {
  if (!customer) return undefined;
  const reach = [customer.partner_email, customer.partner_phone].filter((part): part is string => Boolean(part));
  if (!customer.partner_name) return reach.length > 0 ? reach.join(', ') : undefined;
  return reach.length > 0 ? `${customer.partner_name} (${reach.join(', ')})` : customer.partner_name;
}

function warningLine(
  t: (key: MessageKey, values?: Record<string, string>) => string,
  warning: TPlanWarning,
  turns: string,
): string {
  const values = {
    used: String(warning.used ?? ''),
    allowed: String(warning.allowed ?? ''),
    time: turns,
    date: warning.end_date ?? '',
    days: String(warning.days_left ?? ''),
  };
  switch (warning.check) {
    case 'seats':
      return t(warning.is_reached ? 'plan.warnSeatsFull' : 'plan.warnSeats', values);
    case 'contracts_per_month':
      return t(warning.is_reached ? 'plan.warnContractsFull' : 'plan.warnContracts', values);
    case 'sms_per_month':
      return t(warning.is_reached ? 'plan.warnSmsFull' : 'plan.warnSms', values);
    case 'end_date':
      if (warning.is_reached) return t('plan.warnEnded', values);
      if (warning.days_left === 0) return t('plan.warnEndsToday', values);
      return t(warning.days_left === 1 ? 'plan.warnEndsTomorrow' : 'plan.warnEnds', values);
  }
}

/**
 * On every admin page: a limit at 80 % of its use (or used up) and an end date within 14 days
 * (or past), each in a line, and whom to ask: the partner on the customer record. Loaded for
 * administrators only (the plan is theirs to read); looked at again every minute.
 */
export function PlanBanner({ isAdmin, path }: { isAdmin: boolean; path: string }) {
  const t = useT();
  const loaded = useLoad((signal) => (isAdmin ? loadPlanNotice(signal) : Promise.resolve(undefined)), [isAdmin], {
    pollMs: 60_000,
  });
  const notice = loaded.data;
  if (!notice || notice.usage.warnings.length === 0) return null;
  const partner = partnerText(notice.customer);
  return (
    <div data-testid="plan-banner">
      <Notice tone="warning" title={t('plan.bannerTitle')}>
        <ul className="alert-lines">
          {notice.usage.warnings.map((warning) => (
            <li key={warning.check}>{warningLine(t, warning, notice.usage.month_turns_time)}</li>
          ))}
        </ul>
        <p className="plan-ask">
          {partner ? t('plan.ask', { partner }) : t('plan.askYourPartner')}
          {path === '/settings' ? null : (
            <>
              {' '}
              <Link to="/settings">{t('plan.seePlan')}</Link>
            </>
          )}
        </p>
      </Notice>
    </div>
  );
}
