import { useEffect, useState } from 'react';
import type { TContractCounts } from '../../shared/api/contract-actions';
import type { TContract } from '../../shared/api/contracts';
import type { TTemplate } from '../../shared/api/templates';
import { PagedTable } from '../components/data-table';
import { FileField, SelectField } from '../components/fields';
import { useUploadLimit } from '../lib/upload-limit';
import { FormDialog } from '../components/form-dialog';
import { Badge, Button, EmptyState, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { getJson, getPage, idOf } from '../lib/api';
import {
  apiCountsPath,
  apiListPath,
  listSearch,
  pageTokenOf,
  readListQuery,
  rememberListSearch,
  type ContractListQuery,
} from '../lib/contract-list-query';
import { contractStatus, STATUS_LABEL, STATUS_TONE } from '../lib/contract-status';
import { createNamedContract } from '../lib/create-contract';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useAction } from '../lib/use-action';
import { useLoad } from '../lib/use-load';
import { usePagedList } from '../lib/use-paged-list';
import { useUserNames } from '../lib/use-user-names';
import { ContractFilters, StatusTabs } from './contracts/contract-filters';

function NewContractDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const { navigate } = useRouter();
  const templates = useLoad((signal) => getPage<TTemplate>('/api/contract_templates?per_page=100', signal), []);
  const [source, setSource] = useState<'template' | 'pdf'>('template');
  const [template, setTemplate] = useState('');
  const [file, setFile] = useState<File>();
  const create = useAction();
  const limit = useUploadLimit();
  const tooLarge = source === 'pdf' ? limit.messageFor(file, 'pdf') : undefined;
  const submit = create.submit('create', async () => {
    if (source === 'pdf' && file) limit.check(file, 'pdf');
    const chosen = templates.data?.items.find((row) => row.self === template);
    const contract =
      source === 'template'
        ? await createNamedContract({ template, name: chosen?.name ?? '' })
        : file
          ? await createNamedContract({ file })
          : undefined;
    if (contract) navigate(`/contracts/${idOf(contract.self)}`);
  });
  // Published decides what is offered here (an administrator can still start one from an unpublished template's own page).
  const choices = (templates.data?.items ?? [])
    .filter((row) => row.is_published)
    .map((row) => ({ value: row.self, label: row.name }));
  return (
    <FormDialog
      title={t('contracts.new')}
      onClose={onClose}
      onSubmit={submit}
      error={create.error}
      isBusy={create.busy === 'create'}
      submitLabel={t('action.create')}
      isSubmitDisabled={source === 'template' ? !template : !file || tooLarge !== undefined}
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
        <SelectField
          label={t('field.template')}
          options={[{ value: '', label: t('contracts.chooseTemplate') }, ...choices]}
          value={template}
          onValue={setTemplate}
          required
        />
      ) : (
        <FileField
          label={t('contracts.pdfFile')}
          hint={t('contracts.pdfHint')}
          error={tooLarge}
          accept="application/pdf,.pdf"
          onFile={setFile}
        />
      )}
    </FormDialog>
  );
}

/** The list's rows: each contract's name, status (withdrawn too), dates and author. */
function ContractRow({ contract, nameOf }: { contract: TContract; nameOf: (path: string) => string | undefined }) {
  const t = useT();
  const status = contractStatus(contract);
  const id = idOf(contract.self);
  return (
    <tr>
      <td>
        <Link to={`/contracts/${id}`} className="table-link">
          {contract.name || <span className="muted">{t('contracts.untitled', { id })}</span>}
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
      <td>{nameOf(contract.created_by) ?? <span className="muted">{t('contracts.otherUser')}</span>}</td>
    </tr>
  );
}

export function ContractsPage() {
  const t = useT();
  const { search, navigate } = useRouter();
  const query = readListQuery(search);
  const searchText = listSearch(query);
  const [isCreating, setIsCreating] = useState(false);
  const list = usePagedList<TContract>(apiListPath(query), { pollMs: 3000 });
  const counts = useLoad((signal) => getJson<TContractCounts>(apiCountsPath(query), signal), [apiCountsPath(query)], {
    pollMs: 3000,
  });
  const { nameOf, users } = useUserNames();
  const change = (changes: Partial<ContractListQuery>) =>
    navigate(`/contracts${listSearch({ ...query, page: '', ...changes })}`);
  useEffect(() => rememberListSearch(searchText), [searchText]);
  // A page token from an old link that no longer fits the list: start again at its first page.
  const isStalePage = Boolean(query.page) && list.error?.status === 400;
  const firstPage = `/contracts${listSearch({ ...query, page: '' })}`;
  useEffect(() => {
    if (isStalePage) navigate(firstPage, { replace: true });
  }, [isStalePage, firstPage, navigate]);
  const newContract = (
    <Button variant="primary" onClick={() => setIsCreating(true)}>
      {t('contracts.new')}
    </Button>
  );
  const isFiltered = Boolean(query.q || query.status || query.user);
  return (
    <>
      <PageHeader title={t('contracts.title')} description={t('contracts.description')} actions={newContract} />
      <ContractFilters query={query} onChange={change} users={users} />
      <StatusTabs query={query} counts={counts.data} />
      {isStalePage ? null : <ProblemAlert error={list.error} />}
      {list.data?.isPartial ? (
        <div data-testid="search-partial">
          <Notice tone="info">{t('contracts.searchPartial')}</Notice>
        </div>
      ) : null}
      <PagedTable
        list={{ ...list, goTo: (path) => change({ page: pageTokenOf(path) }) }}
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
        {(contract) => <ContractRow key={contract.self} contract={contract} nameOf={nameOf} />}
      </PagedTable>
      {isCreating ? <NewContractDialog onClose={() => setIsCreating(false)} /> : null}
    </>
  );
}
