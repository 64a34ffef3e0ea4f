import { useState } from 'react';
import { CONTRACT_STATUSES } from '../../shared/api/enums';
import type { TContract } from '../../shared/api/contracts';
import type { TTemplate } from '../../shared/api/templates';
import type { TUser } from '../../shared/api/users';
import { PagedTable } from '../components/data-table';
import { FileField, SelectField, TextField } from '../components/fields';
import { FormDialog } from '../components/form-dialog';
import { Badge, Button, EmptyState, PageHeader, ProblemAlert } from '../components/ui';
import { getPage, idOf, request, sendJson } from '../lib/api';
import { contractStatus, STATUS_LABEL, STATUS_TONE } from '../lib/contract-status';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useSignedIn } from '../lib/session';
import { useAction } from '../lib/use-action';
import { useLoad } from '../lib/use-load';
import { usePagedList } from '../lib/use-paged-list';

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
  const create = useAction();
  const submit = create.submit('create', async () => {
    const contract =
      source === 'template'
        ? await sendJson<TContract>('POST', '/api/contracts', { template })
        : ((await (await request('POST', '/api/contracts', { raw: file, contentType: 'application/pdf' })).json()) as TContract);
    navigate(`/contracts/${idOf(contract.self)}`);
  });
  // Published decides what is offered here (an administrator can still start one from an unpublished template's own page).
  const choices = (templates.data?.items ?? []).filter((row) => row.is_published).map((row) => ({ value: row.self, label: row.name }));
  return (
    <FormDialog
      title={t('contracts.new')}
      onClose={onClose}
      onSubmit={submit}
      error={create.error}
      isBusy={create.busy === 'create'}
      submitLabel={t('action.create')}
      isSubmitDisabled={source === 'template' ? !template : !file}
    >
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
        <SelectField label={t('field.template')} options={[{ value: '', label: t('contracts.chooseTemplate') }, ...choices]} value={template} onValue={setTemplate} required />
      ) : (
        <FileField label={t('contracts.pdfFile')} hint={t('contracts.pdfHint')} accept="application/pdf,.pdf" onFile={setFile} />
      )}
    </FormDialog>
  );
}

type Filters = { status: string; name: string; user: string; sort: string };

/** The contract list's filters: the API's name search, status, author and sort. */
function ContractFilters({ filters, onChange, users }: { filters: Filters; onChange: (filters: Filters) => void; users: TUser[] | undefined }) {
  const t = useT();
  const [search, setSearch] = useState('');
  const set = (name: keyof Filters) => (value: string) => onChange({ ...filters, [name]: value });
  const statuses = CONTRACT_STATUSES.map((status) => ({ value: status, label: t(STATUS_LABEL[status]) }));
  return (
    <form
      className="filters card"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ ...filters, name: search.trim() });
      }}
    >
      <TextField label={t('contracts.search')} type="search" value={search} onValue={setSearch} placeholder={t('contracts.searchPlaceholder')} />
      <SelectField label={t('field.status')} options={[{ value: '', label: t('contracts.allStatuses') }, ...statuses]} value={filters.status} onValue={set('status')} />
      {users ? (
        <SelectField
          label={t('field.createdBy')}
          options={[{ value: '', label: t('contracts.anyone') }, ...users.map((user) => ({ value: user.self, label: user.username }))]}
          value={filters.user}
          onValue={set('user')}
        />
      ) : null}
      <SelectField label={t('contracts.sort')} options={SORTS.map((sort) => ({ value: sort.value, label: t(sort.label) }))} value={filters.sort} onValue={set('sort')} />
      <Button type="submit" className="filters-submit">
        {t('action.search')}
      </Button>
    </form>
  );
}

export function ContractsPage() {
  const t = useT();
  const session = useSignedIn();
  const [filters, setFilters] = useState<Filters>({ status: '', name: '', user: '', sort: '-id' });
  const [isCreating, setIsCreating] = useState(false);
  const query = new URLSearchParams({ per_page: '20', sort: filters.sort });
  if (filters.status) query.set('status', filters.status);
  if (filters.name) query.set('name', filters.name);
  if (filters.user) query.set('user', filters.user);
  const list = usePagedList<TContract>(`/api/contracts?${query.toString()}`, { pollMs: 3000 });
  const users = useLoad((signal) => (session.is_admin ? getPage<TUser>('/api/users?per_page=100', signal) : Promise.resolve(undefined)), [session.is_admin]);

  const userName = (path: string | undefined) => users.data?.items.find((user) => user.self === path)?.username ?? '';
  const newContract = (
    <Button variant="primary" onClick={() => setIsCreating(true)}>
      {t('contracts.new')}
    </Button>
  );
  const isFiltered = Boolean(filters.name || filters.status || filters.user);
  return (
    <>
      <PageHeader title={t('contracts.title')} description={t('contracts.description')} actions={newContract} />
      <ContractFilters filters={filters} onChange={setFilters} users={session.is_admin ? (users.data?.items ?? []) : undefined} />
      <ProblemAlert error={list.error} />
      <PagedTable
        list={list}
        caption={t('contracts.title')}
        columns={[t('field.name'), t('field.status'), t('field.created'), t('field.sent'), t('field.createdBy')]}
        empty={
          isFiltered ? (
            <EmptyState title={t('contracts.noMatchTitle')} body={t('contracts.noMatchBody')} />
          ) : (
            <EmptyState title={t('contracts.emptyTitle')} body={t('contracts.emptyBody')} action={newContract} />
          )
        }
      >
        {(contract) => {
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
                {contract.timestamp_status === 'pending' ? (
                  <>
                    {' '}
                    <Badge tone="warning">{t('contracts.timestampPending')}</Badge>
                  </>
                ) : null}
              </td>
              <td className="numeric">{contract.created_time}</td>
              <td className="numeric">{contract.sent_time ?? '—'}</td>
              <td>{userName(contract.created_by) || <span className="muted mono">{contract.created_by}</span>}</td>
            </tr>
          );
        }}
      </PagedTable>
      {isCreating ? <NewContractDialog onClose={() => setIsCreating(false)} /> : null}
    </>
  );
}
