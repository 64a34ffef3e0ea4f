import { useCallback, useState } from 'react';
import type { TContract } from '../../../shared/api/contracts';
import { LANGUAGES, REQUIRE_AUTH_VALUES } from '../../../shared/api/enums';
import { isLanguage, LANGUAGE_INFO } from '../../../shared/i18n/languages';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/fields';
import { DateTimeField } from '../../components/date-time-field';
import { Button, Card, DescriptionList, Notice, ProblemAlert } from '../../components/ui';
import { sendJson } from '../../lib/api';
import { joinTimestamp, splitTimestamp } from '../../lib/date-input';
import { useFormState, useHasChanged } from '../../lib/forms';
import { readableErrors } from '../../lib/problem-lines';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useSignedIn } from '../../lib/session';
import { metadataChanges, metadataToText } from '../../lib/metadata-text';

type Draft = {
  name: string;
  language: string;
  require_auth: string;
  expire_date: string;
  expire_clock: string;
  email_invite_content: string;
  party_order_defined: boolean;
  show_identity_number: boolean;
  test_mode: boolean;
  allow_delegation: boolean;
  metadata: string;
};

const draftOf = (contract: TContract): Draft => {
  const expires = splitTimestamp(contract.expire_time);
  return {
    name: contract.name,
    language: contract.language,
    require_auth: contract.require_auth,
    expire_date: expires.date,
    expire_clock: expires.time,
    email_invite_content: contract.email_invite_content,
    party_order_defined: contract.party_order_defined,
    show_identity_number: contract.show_identity_number,
    test_mode: contract.test_mode,
    allow_delegation: contract.allow_delegation,
    metadata: metadataToText(contract.metadata),
  };
};

/** The changed fields only, in the API's shapes; or what is wrong with the date or time typed. */
function changesOf(
  draft: Draft,
  contract: TContract,
): { changes: Record<string, unknown>; problem?: 'date' | 'time' | 'metadata' } {
  const saved = draftOf(contract);
  const changes: Record<string, unknown> = {};
  for (const key of [
    'name',
    'language',
    'require_auth',
    'email_invite_content',
    'party_order_defined',
    'show_identity_number',
    'test_mode',
    'allow_delegation',
  ] as const) {
    if (draft[key] !== saved[key]) changes[key] = draft[key];
  }
  const metadata = metadataChanges(draft.metadata, contract.metadata);
  if ('badLine' in metadata) return { changes, problem: 'metadata' };
  if (Object.keys(metadata.changes).length > 0) changes.metadata = metadata.changes;
  if (draft.expire_date !== saved.expire_date || draft.expire_clock !== saved.expire_clock) {
    const joined = joinTimestamp(draft.expire_date, draft.expire_clock);
    if ('problem' in joined) return { changes, problem: joined.problem };
    if (joined.value !== contract.expire_time) changes.expire_time = joined.value;
  }
  return { changes };
}

function DraftSettings({ contract, onSaved }: { contract: TContract; onSaved: () => Promise<void> }) {
  const t = useT();
  const session = useSignedIn();
  const [isSaved, setIsSaved] = useState(false);
  const [hasTried, setHasTried] = useState(false);
  const { form, setForm, bind } = useFormState(
    () => draftOf(contract),
    useCallback(() => setIsSaved(false), []),
  );
  const save = useAction();
  const labels = {
    fields: {
      name: t('field.name'),
      language: t('field.language'),
      require_auth: t('field.requireAuth'),
      expire_time: t('field.expireTime'),
      email_invite_content: t('field.inviteMessage'),
      party_order_defined: t('field.signInOrder'),
      metadata: t('field.metadata'),
    },
  };
  const errors = readableErrors(save.errors, labels);
  // Another contract on the same page: its own values.
  if (useHasChanged(contract.self)) setForm(draftOf(contract));
  const { changes, problem } = changesOf(form, contract);
  const edit = (changed: Partial<Draft>) => {
    setIsSaved(false);
    setForm({ ...form, ...changed });
  };
  const submit = save.submit('save', async () => {
    setHasTried(true);
    if (problem) return;
    await sendJson('PUT', contract.self, changes);
    await onSaved();
    setIsSaved(true);
  });
  const typedProblem = hasTried ? problem : undefined;
  const expireError =
    typedProblem === 'date'
      ? t('date.invalidDate')
      : typedProblem === 'time'
        ? t('date.invalidTime')
        : typedProblem === 'metadata'
          ? undefined
          : errors.expire_time;
  return (
    <form onSubmit={submit} noValidate aria-label={t('contract.details')}>
      <ProblemAlert error={save.error} labels={labels} />
      {isSaved ? <Notice tone="success">{t('state.saved')}</Notice> : null}
      <TextField label={t('field.name')} error={errors.name} {...bind('name')} />
      <div className="form-grid">
        <SelectField
          label={t('field.language')}
          error={errors.language}
          options={LANGUAGES.map((value) => ({ value, label: LANGUAGE_INFO[value].name }))}
          {...bind('language')}
        />
        <SelectField
          label={t('field.requireAuth')}
          hint={t('field.requireAuthHint')}
          error={errors.require_auth}
          options={REQUIRE_AUTH_VALUES.map((value) => ({ value, label: t(`auth.${value}`) }))}
          {...bind('require_auth')}
        />
        <DateTimeField
          legend={t('field.expireTime')}
          hint={t('field.expireTimeHint', { zone: session.office.time_zone })}
          error={expireError}
          date={form.expire_date}
          time={form.expire_clock}
          onChange={(value) => edit({ expire_date: value.date, expire_clock: value.time })}
        />
        <div className="field field-checkbox">
          <CheckboxField
            label={t('field.signInOrder')}
            hint={t('field.signInOrderHint')}
            checked={form.party_order_defined}
            onChecked={(checked) => edit({ party_order_defined: checked })}
          />
        </div>
        <div className="field field-checkbox">
          <CheckboxField
            label={t('field.showIdentityNumber')}
            hint={t('field.showIdentityNumberHint')}
            checked={form.show_identity_number}
            onChecked={(checked) => edit({ show_identity_number: checked })}
          />
        </div>
        <div className="field field-checkbox">
          <CheckboxField
            label={t('field.testMode')}
            hint={t('field.testModeHint')}
            checked={form.test_mode}
            onChecked={(checked) => edit({ test_mode: checked })}
          />
        </div>
        <div className="field field-checkbox">
          <CheckboxField
            label={t('field.allowDelegation')}
            hint={t('field.allowDelegationHint')}
            checked={form.allow_delegation}
            onChecked={(checked) => edit({ allow_delegation: checked })}
          />
        </div>
      </div>
      <TextAreaField
        label={t('field.inviteMessage')}
        hint={t('field.inviteMessageHint')}
        error={errors.email_invite_content}
        {...bind('email_invite_content')}
        rows={3}
      />
      <TextAreaField
        label={t('field.metadata')}
        hint={t('field.metadataHint')}
        error={typedProblem === 'metadata' ? t('field.metadataBadLine') : errors.metadata}
        {...bind('metadata')}
        rows={3}
      />
      <div className="form-actions">
        <Button type="submit" isBusy={save.busy === 'save'} disabled={Object.keys(changes).length === 0 && !problem}>
          {t('action.save')}
        </Button>
      </div>
    </form>
  );
}

/** The contract's settings: editable while a draft, then shown as they were sent. */
export function DetailsCard({
  contract,
  isDraft,
  onSaved,
}: {
  contract: TContract;
  isDraft: boolean;
  onSaved: () => Promise<void>;
}) {
  const t = useT();
  return (
    <Card title={t('contract.details')} description={t('contract.settingsDescription')}>
      {isDraft ? (
        <DraftSettings contract={contract} onSaved={onSaved} />
      ) : (
        <DescriptionList
          items={[
            {
              term: t('field.language'),
              value: isLanguage(contract.language) ? LANGUAGE_INFO[contract.language].name : contract.language,
            },
            {
              term: t('field.order'),
              value: contract.party_order_defined ? t('order.inOrder') : t('order.sideBySide'),
            },
            { term: t('field.requireAuth'), value: t(`auth.${contract.require_auth}`) },
            ...(contract.show_identity_number ? [{ term: t('field.identityNumber'), value: t('identity.shown') }] : []),
            ...(contract.test_mode ? [{ term: t('field.testMode'), value: t('field.testModeShown') }] : []),
            ...(Object.keys(contract.metadata).length > 0
              ? [
                  {
                    term: t('field.metadata'),
                    value: <span className="pre-line">{metadataToText(contract.metadata)}</span>,
                  },
                ]
              : []),
            ...(contract.allow_delegation
              ? [{ term: t('field.allowDelegation'), value: t('field.allowDelegationShown') }]
              : []),
            ...(contract.email_invite_content
              ? [
                  {
                    term: t('field.inviteMessage'),
                    value: <span className="pre-line">{contract.email_invite_content}</span>,
                  },
                ]
              : []),
          ]}
        />
      )}
    </Card>
  );
}
