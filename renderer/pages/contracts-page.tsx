import { useState, type FormEvent } from 'react';
import { CONTRACT_STATUSES } from '../../shared/api/enums';
import type { TTemplate } from '../../shared/api/templates';
import type { TUser } from '../../shared/api/users';
import { Badge, Button, Dialog, EmptyState, Field, Loading, Notice, PageHeader, Pagination, ProblemAlert } from '../components/ui';
import { getPage, idOf, request, sendJson, type ApiError } from '../lib/api';
import { contractStatus, STATUS_LABEL, STATUS_TONE } from '../lib/contract-status';
import { useFeatures } from '../lib/features';
import { asApiError } from '../lib/forms';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useSignedIn } from '../lib/session';
import { useLoad } from '../lib/use-load';

export type ContractRow = {
  self: string;
  name: string;
  language?: string;
  sent_time?: string | null;
  expire_time?: string | null;
  created_time: string;
  created_by?: string;
  template?: string | null;
  is_signed?: boolean;
  is_rejected?: boolean;
  is_answered?: boolean;
  pdf_preview_uri?: string;
};

const SORTS = [
  { value: '-id', label: 'contracts.sortNewest' },
  { value: 'id', label: 'contracts.sortOldest' },
  { value: 'name', label: 'contracts.sortNameAsc' },
  { value: '-name', label: 'contracts.sortNameDesc' },
  { value: '-is_signed,-id', label: 'contracts.sortSigned' },
] as const;

function NewContractDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const { navigate } = useRouter();
  const templates = useLoad((signal) => getPage<TTemplate>('/api/contract_templates?per_page=100', signal), []);
  const [source, setSource] = useState<'template' | 'pdf'>('template');
  const [template, setTemplate] = useState('');
  const [file, setFile] = useState<File>();
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    try {
      const contract =
        source === 'template'
          ? await sendJson<ContractRow>('POST', '/api/contracts', { template })
          : ((await (await request('POST', '/api/contracts', { raw: file, contentType: 'application/pdf' })).json()) as ContractRow);
      navigate(`/contracts/${idOf(contract.self)}`);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };
  const published = templates.data?.items ?? [];
  return (
    <Dialog title={t('contracts.new')} isOpen onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <ProblemAlert error={error} />
        <fieldset className="radio-group">
          <legend>{t('contracts.source')}</legend>
          <label className="radio">
            <input type="radio" name="source" checked={source === 'template'} onChange={() => setSource('template')} />
            <span>{t('contracts.fromTemplate')}</span>
          </label>
          <label className="radio">
            <input type="radio" name="source" checked={source === 'pdf'} onChange={() => setSource('pdf')} />
            <span>{t('contracts.fromPdf')}</span>
          </label>
        </fieldset>
        {source === 'template' ? (
          <Field label={t('field.template')}>
            {(id) => (
              <select id={id} className="input" value={template} onChange={(event) => setTemplate(event.target.value)} required>
                <option value="">{t('contracts.chooseTemplate')}</option>
                {published.map((row) => (
                  <option key={row.self} value={row.self}>
                    {row.name}
                    {row.is_published ? '' : ` (${t('templates.unpublished')})`}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : (
          <Field label={t('contracts.pdfFile')} hint={t('contracts.pdfHint')}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="file" accept="application/pdf,.pdf" onChange={(event) => setFile(event.target.files?.[0])} />}
          </Field>
        )}
        <div className="form-actions">
          <Button onClick={onClose}>{t('action.cancel')}</Button>
          <Button type="submit" variant="primary" isBusy={isBusy} disabled={source === 'template' ? !template : !file}>
            {t('action.create')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function ContractsPage() {
  const t = useT();
  const features = useFeatures();
  const session = useSignedIn();
  const [filters, setFilters] = useState({ status: '', name: '', user: '', sort: '-id' });
  const [search, setSearch] = useState('');
  const [pageToken, setPageToken] = useState<string>();
  const [isCreating, setIsCreating] = useState(false);
  const query = new URLSearchParams({ per_page: '20', sort: filters.sort });
  if (filters.status) query.set('status', filters.status);
  if (filters.name) query.set('name', filters.name);
  if (filters.user) query.set('user', filters.user);
  const path = pageToken ?? `/api/contracts?${query.toString()}`;
  const list = useLoad((signal) => (features.contracts ? getPage<ContractRow>(path, signal) : Promise.resolve(undefined)), [path, features.contracts], { pollMs: 3000 });
  const users = useLoad((signal) => (session.is_admin ? getPage<TUser>('/api/users?per_page=100', signal) : Promise.resolve(undefined)), [session.is_admin]);

  const change = (name: keyof typeof filters) => (event: { target: { value: string } }) => {
    setPageToken(undefined);
    setFilters({ ...filters, [name]: event.target.value });
  };

  if (features.isKnown && !features.contracts) {
    return (
      <>
        <PageHeader title={t('contracts.title')} description={t('contracts.description')} />
        <Notice title={t('feature.notYet')}>{t('feature.notYetBody')}</Notice>
      </>
    );
  }
  const page = list.data;
  const userName = (path: string | undefined) => users.data?.items.find((user) => user.self === path)?.username ?? '';
  return (
    <>
      <PageHeader title={t('contracts.title')} description={t('contracts.description')} actions={<Button variant="primary" onClick={() => setIsCreating(true)}>{t('contracts.new')}</Button>} />
      <form
        className="filters card"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setPageToken(undefined);
          setFilters({ ...filters, name: search.trim() });
        }}
      >
        <Field label={t('contracts.search')}>
          {(id) => <input id={id} className="input" type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder={t('contracts.searchPlaceholder')} />}
        </Field>
        <Field label={t('field.status')}>
          {(id) => (
            <select id={id} className="input" value={filters.status} onChange={change('status')}>
              <option value="">{t('contracts.allStatuses')}</option>
              {CONTRACT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(STATUS_LABEL[status])}
                </option>
              ))}
            </select>
          )}
        </Field>
        {session.is_admin ? (
          <Field label={t('field.createdBy')}>
            {(id) => (
              <select id={id} className="input" value={filters.user} onChange={change('user')}>
                <option value="">{t('contracts.anyone')}</option>
                {(users.data?.items ?? []).map((user) => (
                  <option key={user.self} value={user.self}>
                    {user.username}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        <Field label={t('contracts.sort')}>
          {(id) => (
            <select id={id} className="input" value={filters.sort} onChange={change('sort')}>
              {SORTS.map((sort) => (
                <option key={sort.value} value={sort.value}>
                  {t(sort.label)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Button type="submit" className="filters-submit">
          {t('action.search')}
        </Button>
      </form>
      <ProblemAlert error={list.error} />
      {(list.isLoading || !features.isKnown) && !page ? <Loading /> : null}
      {page && page.items.length === 0 ? (
        filters.name || filters.status || filters.user ? (
          <EmptyState title={t('contracts.noMatchTitle')} body={t('contracts.noMatchBody')} />
        ) : (
          <EmptyState title={t('contracts.emptyTitle')} body={t('contracts.emptyBody')} action={<Button variant="primary" onClick={() => setIsCreating(true)}>{t('contracts.new')}</Button>} />
        )
      ) : null}
      {page && page.items.length > 0 ? (
        <div className="card">
          <div className="table-wrap" tabIndex={0}>
            <table className="table">
              <caption className="visually-hidden">{t('contracts.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('field.name')}</th>
                  <th scope="col">{t('field.status')}</th>
                  <th scope="col">{t('field.created')}</th>
                  <th scope="col">{t('field.sent')}</th>
                  <th scope="col">{t('field.createdBy')}</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((contract) => {
                  const status = contractStatus(contract);
                  return (
                    <tr key={contract.self}>
                      <td>
                        <Link to={`/contracts/${idOf(contract.self)}`} className="table-link">
                          {contract.name || <span className="muted">{t('contracts.untitled', { id: idOf(contract.self) })}</span>}
                        </Link>
                      </td>
                      <td>
                        <Badge tone={STATUS_TONE[status]}>{t(STATUS_LABEL[status])}</Badge>
                      </td>
                      <td className="numeric">{contract.created_time}</td>
                      <td className="numeric">{contract.sent_time ?? '—'}</td>
                      <td>{userName(contract.created_by) || <span className="muted mono">{contract.created_by}</span>}</td>
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
            onPrevious={page.previous ? () => setPageToken(page.previous) : undefined}
            onNext={page.next ? () => setPageToken(page.next) : undefined}
          />
        </div>
      ) : null}
      {isCreating ? <NewContractDialog onClose={() => setIsCreating(false)} /> : null}
    </>
  );
}
