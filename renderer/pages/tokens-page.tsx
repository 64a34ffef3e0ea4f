import { useState } from 'react';
import { useConfirm } from '../components/confirm';
import type { TCreatedToken, TToken } from '../../shared/api/partner';
import type { TokenKind } from '../../shared/api/enums';
import { CopyButton } from '../components/copy-button';
import { PagedTable } from '../components/data-table';
import { SelectField, TextField } from '../components/fields';
import { FormDialog } from '../components/form-dialog';
import { Badge, Button, Dialog, EmptyState, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { sendJson } from '../lib/api';
import { useI18n, useT } from '../lib/i18n';
import { useAction } from '../lib/use-action';
import { usePagedList } from '../lib/use-paged-list';

function CreateTokenDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (token: TCreatedToken) => void }) {
  const t = useT();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<TokenKind>('customer');
  const [rateLimit, setRateLimit] = useState('');
  const create = useAction();
  const { errors } = create;
  const submit = create.submit('create', async () => {
    const body = { name, kind, ...(rateLimit.trim() ? { rate_limit: Number(rateLimit) } : {}) };
    onCreated(await sendJson<TCreatedToken>('POST', '/api/partner/tokens', body));
  });
  const kinds = [
    { value: 'customer', label: t('tokens.kindCustomer') },
    { value: 'partner', label: t('tokens.kindPartner') },
  ];
  return (
    <FormDialog
      title={t('tokens.new')}
      onClose={onClose}
      onSubmit={submit}
      error={create.error}
      isBusy={create.busy === 'create'}
      submitLabel={t('action.create')}
    >
      <TextField
        label={t('field.name')}
        hint={t('tokens.nameHint')}
        error={errors.name}
        value={name}
        onValue={setName}
        required
        // eslint-disable-next-line jsx-a11y/no-autofocus -- a modal dialog puts the focus on its first field (WAI-ARIA dialog pattern)
        autoFocus
      />
      <div className="form-grid">
        <SelectField
          label={t('field.kind')}
          error={errors.kind}
          options={kinds}
          value={kind}
          onValue={(value) => setKind(value as TokenKind)}
        />
        <TextField
          label={t('field.rateLimit')}
          hint={t('tokens.rateLimitHint')}
          error={errors.rate_limit}
          value={rateLimit}
          onValue={setRateLimit}
          inputMode="numeric"
        />
      </div>
    </FormDialog>
  );
}

function RateLimitDialog({ token, onClose, onSaved }: { token: TToken; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const [value, setValue] = useState(token.has_own_rate_limit ? String(token.rate_limit) : '');
  const save = useAction();
  const submit = save.submit('save', async () => {
    await sendJson('PUT', token.self, { rate_limit: value.trim() ? Number(value) : null });
    onSaved();
  });
  return (
    <FormDialog
      title={t('tokens.rateLimitTitle', { name: token.name })}
      onClose={onClose}
      onSubmit={submit}
      error={save.error}
      isBusy={save.busy === 'save'}
      submitLabel={t('action.save')}
    >
      <TextField
        label={t('field.rateLimit')}
        hint={t('tokens.rateLimitHint')}
        error={save.errors.rate_limit}
        value={value}
        onValue={setValue}
        inputMode="numeric"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- a modal dialog puts the focus on its first field (WAI-ARIA dialog pattern)
        autoFocus
      />
    </FormDialog>
  );
}

function KeyShownOnce({ token, onClose }: { token: TCreatedToken; onClose: () => void }) {
  const t = useT();
  return (
    <Dialog
      title={t('tokens.createdTitle', { name: token.name })}
      isOpen
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          {t('tokens.stored')}
        </Button>
      }
    >
      <Notice tone="warning" title={t('tokens.onceTitle')}>
        {t('tokens.onceBody')}
      </Notice>
      <div className="secret-box">
        <code className="secret" aria-label={t('tokens.key')} data-testid="api-key">
          {token.api_key}
        </code>
        <CopyButton value={token.api_key} label={t('tokens.copyKey')} />
      </div>
      <p className="muted">{t('tokens.usage')}</p>
      <pre
        className="code-block"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take the focus
        tabIndex={0}
        aria-label={t('tokens.example')}
      >{`curl -H 'Accept-Api-Version: 1' \\\n     -H 'Authorization: token ${token.api_key}' \\\n     ${window.location.origin}/api/contracts`}</pre>
    </Dialog>
  );
}

export function TokensPage() {
  const { t, language } = useI18n();
  const count = new Intl.NumberFormat(language === 'sv' ? 'sv-SE' : 'en-GB');
  const list = usePagedList<TToken>('/api/partner/tokens?per_page=20');
  const [dialog, setDialog] = useState<
    { kind: 'create' } | { kind: 'created'; token: TCreatedToken } | { kind: 'rate'; token: TToken }
  >();
  const action = useAction();
  const confirm = useConfirm();

  const revoke = async (token: TToken) => {
    if (
      !(await confirm({
        title: t('confirm.title'),
        body: t('tokens.confirmRevoke', { name: token.name }),
        confirmLabel: t('action.revoke'),
      }))
    )
      return;
    void action.run(token.self, async () => {
      await sendJson('DELETE', token.self);
      await list.reload();
    });
  };
  const closeAndReload = () => {
    setDialog(undefined);
    void list.reload();
  };
  const newToken = (
    <Button variant="primary" onClick={() => setDialog({ kind: 'create' })}>
      {t('tokens.new')}
    </Button>
  );

  return (
    <>
      <PageHeader title={t('tokens.title')} description={t('tokens.description')} actions={newToken} />
      <ProblemAlert error={action.error ?? list.error} onDismiss={action.error ? action.dismiss : undefined} />
      <PagedTable
        list={list}
        caption={t('tokens.title')}
        columns={[
          t('field.name'),
          t('field.publicId'),
          t('field.kind'),
          t('field.rateLimit'),
          t('field.lastUsed'),
          t('field.state'),
        ]}
        hasActions
        empty={<EmptyState title={t('tokens.emptyTitle')} body={t('tokens.emptyBody')} action={newToken} />}
      >
        {(token) => {
          const isRevoked = token.revoked_time !== null;
          return (
            <tr key={token.self} className={isRevoked ? 'row-muted' : undefined}>
              <td>{token.name}</td>
              <td className="mono">{token.public_id}</td>
              <td>
                {token.kind === 'partner' ? (
                  <Badge tone="info">{t('tokens.kindPartner')}</Badge>
                ) : (
                  <Badge>{t('tokens.kindCustomer')}</Badge>
                )}
              </td>
              <td className="numeric">
                {t('tokens.perMinute', { n: count.format(token.rate_limit) })}
                {token.has_own_rate_limit ? null : <span className="muted"> · {t('tokens.default')}</span>}
              </td>
              <td className="numeric">{token.last_used_time ?? <span className="muted">{t('tokens.never')}</span>}</td>
              <td>
                {isRevoked ? (
                  <Badge tone="danger">{t('tokens.revokedAt', { time: token.revoked_time ?? '' })}</Badge>
                ) : (
                  <Badge tone="success">{t('state.active')}</Badge>
                )}
              </td>
              <td className="row-actions">
                {isRevoked ? null : (
                  <>
                    <Button
                      size="small"
                      onClick={() => setDialog({ kind: 'rate', token })}
                      aria-label={t('tokens.rateLimitTitle', { name: token.name })}
                    >
                      {t('tokens.rateLimit')}
                    </Button>
                    <Button
                      size="small"
                      variant="ghost"
                      onClick={() => revoke(token)}
                      aria-label={t('tokens.revoke', { name: token.name })}
                    >
                      {t('action.revoke')}
                    </Button>
                  </>
                )}
              </td>
            </tr>
          );
        }}
      </PagedTable>
      {dialog?.kind === 'create' ? (
        <CreateTokenDialog
          onClose={() => setDialog(undefined)}
          onCreated={(token) => {
            setDialog({ kind: 'created', token });
            void list.reload();
          }}
        />
      ) : null}
      {dialog?.kind === 'created' ? <KeyShownOnce token={dialog.token} onClose={() => setDialog(undefined)} /> : null}
      {dialog?.kind === 'rate' ? (
        <RateLimitDialog token={dialog.token} onClose={() => setDialog(undefined)} onSaved={closeAndReload} />
      ) : null}
    </>
  );
}
