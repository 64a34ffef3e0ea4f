import { useState } from 'react';
import type { TCustomer } from '../../../shared/api/partner';
import type { TSubscription, TSubscriptionUsage } from '../../../shared/api/subscription';
import { TextField } from '../../components/fields';
import { FormDialog } from '../../components/form-dialog';
import { partnerText } from '../../components/plan-banner';
import { Button, Card, DescriptionList, Loading, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

type Plan = { subscription: TSubscription; usage: TSubscriptionUsage; customer: TCustomer };

const loadPlan = async (signal: AbortSignal): Promise<Plan> => {
  const [subscription, usage, customer] = await Promise.all([
    getJson<TSubscription>('/api/partner/subscription', signal),
    getJson<TSubscriptionUsage>('/api/partner/subscription/usage', signal),
    getJson<TCustomer>('/api/partner/customer', signal),
  ]);
  return { subscription, usage, customer };
};

const limitText = (value: number | null) => (value === null ? '' : String(value));
/** An empty field is no limit (null); anything else goes as typed, for the server to judge. */
const limitValue = (text: string) => (text.trim() === '' ? null : /^\d+$/.test(text.trim()) ? Number(text) : text);
const textValue = (text: string) => (text.trim() === '' ? null : text.trim());

/** The plan's limits and the IT partner's contact, as the partner API sets them. */
function PlanDialog({ plan, onClose, onSaved }: { plan: Plan; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const { subscription: current, customer } = plan;
  const [form, setForm] = useState({
    plan_name: current.plan_name ?? '',
    seats: limitText(current.seats),
    contracts_per_month: limitText(current.contracts_per_month),
    sms_per_month: limitText(current.sms_per_month),
    end_date: current.end_date ?? '',
    partner_name: customer.partner_name ?? '',
    partner_email: customer.partner_email ?? '',
    partner_phone: customer.partner_phone ?? '',
  });
  const bind = (field: keyof typeof form) => ({
    value: form[field],
    onValue: (value: string) => setForm((last) => ({ ...last, [field]: value })),
  });
  const save = useAction();
  const { errors } = save;
  const submit = save.submit('save', async () => {
    await sendJson('PUT', '/api/partner/subscription', {
      plan_name: textValue(form.plan_name),
      seats: limitValue(form.seats),
      contracts_per_month: limitValue(form.contracts_per_month),
      sms_per_month: limitValue(form.sms_per_month),
      end_date: textValue(form.end_date),
    });
    await sendJson('PUT', '/api/partner/customer', {
      partner_name: textValue(form.partner_name),
      partner_email: textValue(form.partner_email),
      partner_phone: textValue(form.partner_phone),
    });
    onSaved();
  });
  const number = { type: 'number', min: 0, inputMode: 'numeric' } as const;
  return (
    <FormDialog
      title={t('plan.change')}
      onClose={onClose}
      onSubmit={submit}
      error={save.error}
      isBusy={save.busy === 'save'}
      submitLabel={t('action.save')}
    >
      <p className="muted small">{t('plan.changeHint')}</p>
      <TextField label={t('plan.fieldName')} error={errors.plan_name} {...bind('plan_name')} />
      <div className="form-grid">
        <TextField label={t('plan.fieldSeats')} error={errors.seats} {...bind('seats')} {...number} min={1} />
        <TextField
          label={t('plan.fieldContracts')}
          error={errors.contracts_per_month}
          {...bind('contracts_per_month')}
          {...number}
        />
        <TextField label={t('plan.fieldSms')} error={errors.sms_per_month} {...bind('sms_per_month')} {...number} />
        <TextField label={t('plan.fieldEndDate')} error={errors.end_date} {...bind('end_date')} type="date" />
        <TextField label={t('plan.fieldPartnerName')} error={errors.partner_name} {...bind('partner_name')} />
        <TextField
          label={t('plan.fieldPartnerEmail')}
          error={errors.partner_email}
          {...bind('partner_email')}
          type="email"
        />
        <TextField
          label={t('plan.fieldPartnerPhone')}
          error={errors.partner_phone}
          {...bind('partner_phone')}
          type="tel"
        />
      </div>
    </FormDialog>
  );
}

/** Settings → Plan: the plan's name and limits beside this month's use, the end date, and whom to ask. */
export function PlanSettings() {
  const t = useT();
  const loaded = useLoad(loadPlan, []);
  const [isEditing, setIsEditing] = useState(false);
  const plan = loaded.data;
  const used = (allowance: { used: number; allowed: number | null }) =>
    allowance.allowed === null
      ? t('plan.usedUnlimited', { used: String(allowance.used) })
      : t('plan.used', { used: String(allowance.used), allowed: String(allowance.allowed) });
  return (
    <Card
      title={t('plan.title')}
      description={t('plan.description')}
      actions={plan ? <Button onClick={() => setIsEditing(true)}>{t('plan.change')}</Button> : undefined}
    >
      {!plan ? loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading /> : null}
      {plan ? (
        <div data-testid="plan-settings">
          <DescriptionList
            items={[
              { term: t('plan.name'), value: plan.usage.plan_name ?? t('plan.noName') },
              { term: t('plan.seats'), value: used(plan.usage.seats) },
              { term: t('plan.contracts', { month: plan.usage.month }), value: used(plan.usage.contracts_sent) },
              { term: t('plan.sms', { month: plan.usage.month }), value: used(plan.usage.sms) },
              {
                term: t('plan.endDate'),
                value:
                  plan.usage.end_date === null
                    ? t('plan.noEnd')
                    : plan.usage.is_ended
                      ? t('plan.endedOn', { date: plan.usage.end_date })
                      : plan.usage.end_date,
              },
              { term: t('plan.partner'), value: partnerText(plan.customer) ?? t('plan.noPartner') },
            ]}
          />
          <p className="muted small">{t('plan.turns', { time: plan.usage.month_turns_time })}</p>
        </div>
      ) : null}
      {plan && isEditing ? (
        <PlanDialog
          plan={plan}
          onClose={() => setIsEditing(false)}
          onSaved={() => {
            setIsEditing(false);
            void loaded.reload();
          }}
        />
      ) : null}
    </Card>
  );
}
