import { useState, type FormEvent } from 'react';
import type { TCreatedToken, TToken } from '../../shared/api/partner';
import type { TokenKind } from '../../shared/api/enums';
import { Badge, Button, CopyButton, Dialog, EmptyState, Field, Loading, Notice, PageHeader, Pagination, ProblemAlert } from '../components/ui';
import { getPage, sendJson, type ApiError } from '../lib/api';
import { asApiError, fieldErrors } from '../lib/forms';
import { useI18n, useT } from '../lib/i18n';
import { useLoad } from '../lib/use-load';

function CreateTokenDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (token: TCreatedToken) => void }) {
  const t = useT();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<TokenKind>('customer');
  const [rateLimit, setRateLimit] = useState('');
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);
  const errors = fieldErrors(error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    try {
      const body = { name, kind, ...(rateLimit.trim() ? { rate_limit: Number(rateLimit) } : {}) };
      onCreated(await sendJson<TCreatedToken>('POST', '/api/partner/tokens', body));
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Dialog title={t('tokens.new')} isOpen onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <ProblemAlert error={error} />
        <Field label={t('field.name')} hint={t('tokens.nameHint')} error={errors.name}>
          {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" value={name} onChange={(event) => setName(event.target.value)} required autoFocus />}
        </Field>
        <div className="form-grid">
          <Field label={t('field.kind')} error={errors.kind}>
            {(id) => (
              <select id={id} className="input" value={kind} onChange={(event) => setKind(event.target.value as TokenKind)}>
                <option value="customer">{t('tokens.kindCustomer')}</option>
                <option value="partner">{t('tokens.kindPartner')}</option>
              </select>
            )}
          </Field>
          <Field label={t('field.rateLimit')} hint={t('tokens.rateLimitHint')} error={errors.rate_limit}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" inputMode="numeric" value={rateLimit} onChange={(event) => setRateLimit(event.target.value)} />}
          </Field>
        </div>
        <div className="form-actions">
          <Button onClick={onClose}>{t('action.cancel')}</Button>
          <Button type="submit" variant="primary" isBusy={isBusy}>
            {t('action.create')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function RateLimitDialog({ token, onClose, onSaved }: { token: TToken; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const [value, setValue] = useState(token.has_own_rate_limit ? String(token.rate_limit) : '');
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    try {
      await sendJson('PUT', token.self, { rate_limit: value.trim() ? Number(value) : null });
      onSaved();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Dialog title={t('tokens.rateLimitTitle', { name: token.name })} isOpen onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <ProblemAlert error={error} />
        <Field label={t('field.rateLimit')} hint={t('tokens.rateLimitHint')} error={fieldErrors(error).rate_limit}>
          {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" inputMode="numeric" value={value} onChange={(event) => setValue(event.target.value)} autoFocus />}
        </Field>
        <div className="form-actions">
          <Button onClick={onClose}>{t('action.cancel')}</Button>
          <Button type="submit" variant="primary" isBusy={isBusy}>
            {t('action.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function KeyShownOnce({ token, onClose }: { token: TCreatedToken; onClose: () => void }) {
  const t = useT();
  return (
    <Dialog title={t('tokens.createdTitle', { name: token.name })} isOpen onClose={onClose} footer={<Button variant="primary" onClick={onClose}>{t('tokens.stored')}</Button>}>
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
      <pre className="code-block" tabIndex={0} aria-label={t('tokens.example')}>{`curl -H 'Accept-Api-Version: 1' \\\n     -H 'Authorization: token ${token.api_key}' \\\n     ${window.location.origin}/api/contracts`}</pre>
    </Dialog>
  );
}

export function TokensPage() {
  const { t, language } = useI18n();
  const count = new Intl.NumberFormat(language === 'sv' ? 'sv-SE' : 'en-GB');
  const [pagePath, setPagePath] = useState('/api/partner/tokens?per_page=20');
  const list = useLoad((signal) => getPage<TToken>(pagePath, signal), [pagePath]);
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'created'; token: TCreatedToken } | { kind: 'rate'; token: TToken }>();
  const [error, setError] = useState<ApiError>();

  const revoke = async (token: TToken) => {
    if (!window.confirm(t('tokens.confirmRevoke', { name: token.name }))) return;
    try {
      await sendJson('DELETE', token.self);
      await list.reload();
    } catch (err) {
      setError(asApiError(err));
    }
  };

  const page = list.data;
  return (
    <>
      <PageHeader title={t('tokens.title')} description={t('tokens.description')} actions={<Button variant="primary" onClick={() => setDialog({ kind: 'create' })}>{t('tokens.new')}</Button>} />
      <ProblemAlert error={error ?? list.error} onDismiss={error ? () => setError(undefined) : undefined} />
      {list.isLoading && !page ? <Loading /> : null}
      {page && page.items.length === 0 ? (
        <EmptyState title={t('tokens.emptyTitle')} body={t('tokens.emptyBody')} action={<Button variant="primary" onClick={() => setDialog({ kind: 'create' })}>{t('tokens.new')}</Button>} />
      ) : null}
      {page && page.items.length > 0 ? (
        <div className="card">
          <div className="table-wrap" tabIndex={0}>
            <table className="table">
              <caption className="visually-hidden">{t('tokens.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('field.name')}</th>
                  <th scope="col">{t('field.publicId')}</th>
                  <th scope="col">{t('field.kind')}</th>
                  <th scope="col">{t('field.rateLimit')}</th>
                  <th scope="col">{t('field.lastUsed')}</th>
                  <th scope="col">{t('field.state')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('field.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((token) => {
                  const isRevoked = token.revoked_time !== null;
                  return (
                    <tr key={token.self} className={isRevoked ? 'row-muted' : undefined}>
                      <td>{token.name}</td>
                      <td className="mono">{token.public_id}</td>
                      <td>{token.kind === 'partner' ? <Badge tone="info">{t('tokens.kindPartner')}</Badge> : <Badge>{t('tokens.kindCustomer')}</Badge>}</td>
                      <td className="numeric">
                        {t('tokens.perMinute', { n: count.format(token.rate_limit) })}
                        {token.has_own_rate_limit ? null : <span className="muted"> · {t('tokens.default')}</span>}
                      </td>
                      <td className="numeric">{token.last_used_time ?? <span className="muted">{t('tokens.never')}</span>}</td>
                      <td>{isRevoked ? <Badge tone="danger">{t('tokens.revokedAt', { time: token.revoked_time ?? '' })}</Badge> : <Badge tone="success">{t('state.active')}</Badge>}</td>
                      <td className="row-actions">
                        {isRevoked ? null : (
                          <>
                            <Button size="small" onClick={() => setDialog({ kind: 'rate', token })} aria-label={t('tokens.rateLimitTitle', { name: token.name })}>
                              {t('tokens.rateLimit')}
                            </Button>
                            <Button size="small" variant="ghost" onClick={() => void revoke(token)} aria-label={t('tokens.revoke', { name: token.name })}>
                              {t('action.revoke')}
                            </Button>
                          </>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pagination
            page={page.page}
            pages={page.pages}
            total={page.total}
            onPrevious={page.previous ? () => setPagePath(page.previous as string) : undefined}
            onNext={page.next ? () => setPagePath(page.next as string) : undefined}
          />
        </div>
      ) : null}
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
        <RateLimitDialog
          token={dialog.token}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            void list.reload();
          }}
        />
      ) : null}
    </>
  );
}
