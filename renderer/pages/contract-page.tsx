import { useEffect, useState, type FormEvent } from 'react';
import { DELIVERY_METHODS, SIGN_TYPES } from '../../shared/api/enums';
import { PdfPreview } from '../components/pdf-preview';
import { Badge, Button, Card, DescriptionList, EmptyState, Field, Loading, PageHeader, ProblemAlert } from '../components/ui';
import { downloadFile, getBlob, getJson, getPage, sendJson, type ApiError } from '../lib/api';
import { contractStatus, STATUS_LABEL, STATUS_TONE } from '../lib/contract-status';
import { asApiError, fieldErrors } from '../lib/forms';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useLoad } from '../lib/use-load';
import type { ContractRow } from './contracts-page';

type Party = {
  self: string;
  name: string;
  email?: string;
  mobile_phone?: string;
  delivery_method?: string;
  sign_type?: string;
  sign_order?: number;
  is_accept?: boolean;
  sign_time?: string | null;
  reject_cause?: string | null;
  email_status?: Record<string, boolean>;
};
type ActivityEntry = { time: string; event: string; user_agent: string; ip_address: string };
type Attachment = { self: string; name: string; preview_uri?: string };

const EMAIL_FLAGS = ['sent', 'opened', 'clicked', 'bounced', 'hardbounced', 'softbounced', 'blocked', 'unsub', 'spam'] as const;
const BAD_FLAGS = new Set(['bounced', 'hardbounced', 'softbounced', 'blocked', 'unsub', 'spam']);

/** Everything of a list: contract sub-lists are short, so all pages are read. */
async function readAll<T>(path: string, signal: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  let next: string | undefined = `${path}?per_page=100`;
  for (let guard = 0; next && guard < 20; guard += 1) {
    const page: Awaited<ReturnType<typeof getPage<T>>> = await getPage<T>(next, signal);
    items.push(...page.items);
    next = page.next;
  }
  return items;
}

function AddParty({ contractPath, onAdded }: { contractPath: string; onAdded: () => void }) {
  const t = useT();
  const [form, setForm] = useState({ name: '', email: '', mobile_phone: '', delivery_method: 'EMAIL', sign_type: 'DEFAULT' });
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);
  const errors = fieldErrors(error);
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    try {
      const body = Object.fromEntries(Object.entries(form).filter(([, value]) => value !== ''));
      await sendJson('POST', `${contractPath}/parties`, body);
      setForm({ ...form, name: '', email: '', mobile_phone: '' });
      setError(undefined);
      onAdded();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <form className="add-party" onSubmit={(event) => void submit(event)} noValidate aria-label={t('contract.addParty')}>
      <h3>{t('contract.addParty')}</h3>
      <ProblemAlert error={error} />
      <div className="form-grid form-grid-3">
        <Field label={t('field.name')} error={errors.name}>
          {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" value={form.name} onChange={set('name')} />}
        </Field>
        <Field label={t('field.email')} error={errors.email}>
          {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="email" value={form.email} onChange={set('email')} />}
        </Field>
        <Field label={t('field.mobilePhone')} error={errors.mobile_phone}>
          {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="tel" value={form.mobile_phone} onChange={set('mobile_phone')} />}
        </Field>
        <Field label={t('field.deliveryMethod')} error={errors.delivery_method}>
          {(id) => (
            <select id={id} className="input" value={form.delivery_method} onChange={set('delivery_method')}>
              {DELIVERY_METHODS.map((value) => (
                <option key={value} value={value}>
                  {t(`delivery.${value}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('field.signType')} error={errors.sign_type}>
          {(id) => (
            <select id={id} className="input" value={form.sign_type} onChange={set('sign_type')}>
              {SIGN_TYPES.map((value) => (
                <option key={value} value={value}>
                  {t(`signType.${value}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="field field-button">
          <Button type="submit" isBusy={isBusy}>
            {t('contract.addPartyButton')}
          </Button>
        </div>
      </div>
    </form>
  );
}

function PartyState({ party, isSent }: { party: Party; isSent: boolean }) {
  const t = useT();
  if (party.is_accept) {
    return (
      <>
        <Badge tone="success">{t('party.signed')}</Badge>
        {party.sign_time ? <div className="small muted nowrap">{party.sign_time}</div> : null}
      </>
    );
  }
  if (party.reject_cause) return <Badge tone="danger">{t('party.rejected')}</Badge>;
  return isSent ? <Badge tone="warning">{t('party.waiting')}</Badge> : <Badge>{t('status.draft')}</Badge>;
}

export function ContractPage({ id }: { id: string }) {
  const t = useT();
  const { navigate } = useRouter();
  const path = `/api/contracts/${id}`;
  const contract = useLoad((signal) => getJson<ContractRow>(path, signal), [path], { pollMs: 3000 });
  const parties = useLoad((signal) => readAll<Party>(`${path}/parties`, signal), [path], { pollMs: 3000 });
  const log = useLoad((signal) => readAll<ActivityEntry>(`${path}/activity_log`, signal), [path], { pollMs: 3000 });
  const attachments = useLoad((signal) => readAll<Attachment>(`${path}/attachments`, signal).catch(() => []), [path]);
  const [name, setName] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<string>();
  useEffect(() => {
    if (contract.data) setName(contract.data.name);
  }, [contract.data?.name]);

  if (contract.error && !contract.data) return <ProblemAlert error={contract.error} />;
  if (!contract.data) return <Loading />;
  const row = contract.data;
  const status = contractStatus(row);
  const isDraft = status === 'draft';
  const title = row.name || t('contracts.untitled', { id });

  const act = async (kind: string, work: () => Promise<void>) => {
    setBusy(kind);
    setError(undefined);
    try {
      await work();
      await Promise.all([contract.reload(), parties.reload(), log.reload()]);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(undefined);
    }
  };
  const rename = (event: FormEvent) => {
    event.preventDefault();
    void act('rename', () => sendJson('PUT', path, { name }));
  };
  const send = () => {
    if (window.confirm(t('contract.confirmSend', { n: parties.data?.length ?? 0 }))) void act('send', () => sendJson('POST', `${path}/send`, {}));
  };
  const remove = () => {
    if (!window.confirm(t('contract.confirmDelete', { name: title }))) return;
    void act('delete', async () => {
      await sendJson('DELETE', path);
      navigate('/contracts');
    });
  };
  return (
    <>
      <PageHeader
        title={title}
        back={<Link to="/contracts">← {t('nav.contracts')}</Link>}
        actions={
          <>
            <Badge tone={STATUS_TONE[status]}>{t(STATUS_LABEL[status])}</Badge>
            {isDraft ? (
              <>
                <Button variant="danger" onClick={remove} isBusy={busy === 'delete'}>
                  {t('action.delete')}
                </Button>
                <Button variant="primary" onClick={send} isBusy={busy === 'send'} disabled={(parties.data?.length ?? 0) === 0}>
                  {t('contract.send')}
                </Button>
              </>
            ) : null}
            {status === 'sent' ? (
              <Button onClick={() => void act('notify', () => sendJson('POST', `${path}/notify`))} isBusy={busy === 'notify'}>
                {t('contract.remind')}
              </Button>
            ) : null}
            {status === 'signed' ? (
              <Button variant="primary" onClick={() => void act('download', () => downloadFile(`${path}/signed_pdf`, 'application/pdf', `${title}.pdf`))} isBusy={busy === 'download'}>
                {t('contract.downloadSigned')}
              </Button>
            ) : null}
          </>
        }
      />
      <ProblemAlert error={error} onDismiss={() => setError(undefined)} />
      <div className="split split-document">
        <div className="split-main stack">
          <Card title={t('contract.details')}>
            {isDraft ? (
              <form className="inline-form" onSubmit={rename}>
                <Field label={t('field.name')}>{(fieldId) => <input id={fieldId} className="input" value={name} onChange={(event) => setName(event.target.value)} />}</Field>
                <Button type="submit" isBusy={busy === 'rename'} disabled={name === row.name}>
                  {t('action.save')}
                </Button>
              </form>
            ) : null}
            <DescriptionList
              items={[
                { term: t('field.created'), value: row.created_time },
                { term: t('field.sent'), value: row.sent_time ?? '—' },
                { term: t('field.expires'), value: row.expire_time ?? '—' },
                { term: t('field.language'), value: row.language === 'sv' ? 'Svenska' : 'English' },
              ]}
            />
          </Card>
          <Card title={t('contract.parties')} isFlush>
            {parties.error ? <ProblemAlert error={parties.error} /> : null}
            {parties.data && parties.data.length === 0 ? <EmptyState title={t('contract.noParties')} body={isDraft ? t('contract.noPartiesBody') : undefined} /> : null}
            {parties.data && parties.data.length > 0 ? (
              <div className="table-wrap" tabIndex={0}>
                <table className="table">
                  <caption className="visually-hidden">{t('contract.parties')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('field.name')}</th>
                      <th scope="col">{t('field.role')}</th>
                      <th scope="col">{t('field.state')}</th>
                      <th scope="col">{t('field.emailStatus')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {parties.data.map((party) => {
                      const flags = EMAIL_FLAGS.filter((flag) => party.email_status?.[flag]);
                      return (
                        <tr key={party.self}>
                          <td>
                            <div className="cell-title">{party.name}</div>
                            {party.email ? <div className="small muted">{party.email}</div> : null}
                            {party.mobile_phone ? <div className="small muted">{party.mobile_phone}</div> : null}
                          </td>
                          <td>{party.sign_type ? t(`signType.${party.sign_type}` as 'signType.DEFAULT') : ''}</td>
                          <td>
                            <PartyState party={party} isSent={!isDraft} />
                            {party.reject_cause ? <div className="small muted">{party.reject_cause}</div> : null}
                          </td>
                          <td className="cell-flags">
                            {flags.length === 0 ? <span className="muted">—</span> : null}
                            <span className="badge-row">
                              {flags.map((flag) => (
                                <Badge key={flag} tone={BAD_FLAGS.has(flag) ? 'danger' : 'success'}>
                                  {t(`emailStatus.${flag}`)}
                                </Badge>
                              ))}
                            </span>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            ) : null}
            {isDraft ? <AddParty contractPath={path} onAdded={() => void parties.reload()} /> : null}
          </Card>
          <Card title={t('contract.activity')} isFlush actions={<span className="live-dot" aria-hidden="true" title={t('state.live')} />}>
            {log.data && log.data.length === 0 ? <p className="muted card-flush-text">{t('contract.noActivity')}</p> : null}
            {log.data && log.data.length > 0 ? (
              <div className="table-wrap" tabIndex={0}>
                <table className="table">
                  <caption className="visually-hidden">{t('contract.activity')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('field.time')}</th>
                      <th scope="col">{t('field.event')}</th>
                      <th scope="col">{t('field.ipAddress')}</th>
                      <th scope="col">{t('field.userAgent')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {log.data.map((entry, index) => (
                      <tr key={`${entry.time}-${index}`}>
                        <td className="numeric">{entry.time}</td>
                        <td className="mono">{entry.event}</td>
                        <td className="mono">{entry.ip_address || <span className="muted">{t('contract.appliance')}</span>}</td>
                        <td className="truncate" title={entry.user_agent}>
                          {entry.user_agent || '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
          </Card>
          {attachments.data && attachments.data.length > 0 ? (
            <Card title={t('contract.attachments')}>
              <ul className="plain-list">
                {attachments.data.map((attachment) => (
                  <li key={attachment.self}>
                    <button type="button" className="link-button" onClick={() => void downloadFile(attachment.preview_uri ?? attachment.self, '*/*', attachment.name)}>
                      {attachment.name}
                    </button>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
        </div>
        <Card title={t('contract.document')} className="split-side">
          {row.pdf_preview_uri ? (
            <PdfPreview title={t('contract.document')} version={`${row.self}|${row.sent_time ?? ''}`} load={() => getBlob(new URL(row.pdf_preview_uri as string, window.location.origin).pathname, 'application/pdf')} />
          ) : (
            <p className="muted">{t('contract.noDocument')}</p>
          )}
        </Card>
      </div>
    </>
  );
}
