import { useState, type InputHTMLAttributes } from 'react';
import { useHasChanged } from '../../lib/forms';
import type { TContractCounts } from '../../../shared/api/contract-actions';
import { CONTRACT_STATUSES } from '../../../shared/api/enums';
import type { TUser } from '../../../shared/api/users';
import { SelectField } from '../../components/fields';
import { Button } from '../../components/ui';
import type { MessageKey } from '../../i18n/en';
import { STATUS_LABEL } from '../../lib/contract-status';
import { listSearch, metadataPair, type ContractListQuery } from '../../lib/contract-list-query';
import { useT } from '../../lib/i18n';
import { Link } from '../../lib/router';
import { displayName } from '../../lib/use-user-names';

const SORTS: { value: string; label: MessageKey }[] = [
  { value: '-id', label: 'contracts.sortNewest' },
  { value: 'id', label: 'contracts.sortOldest' },
  { value: 'name', label: 'contracts.sortNameAsc' },
  { value: '-name', label: 'contracts.sortNameDesc' },
  { value: '-is_signed,-id', label: 'contracts.sortSigned' },
];

type Props = {
  query: ContractListQuery;
  onChange: (changes: Partial<ContractListQuery>) => void;
  users: TUser[] | undefined;
};

/** Search (contract name, party name or e-mail), author and sort, in one compact row; metadata under "More filters". */
export function ContractFilters({ query, onChange, users }: Props) {
  const t = useT();
  const [text, setText] = useState(query.q);
  const [meta, setMeta] = useState(query.meta);
  // Back, or a tab's link, may bring another search: the boxes show what the list shows.
  if (useHasChanged(query.q)) setText(query.q);
  if (useHasChanged(query.meta)) setMeta(query.meta);
  const isFiltered = Boolean(query.q || query.user || query.status || query.meta);
  const isMetaWrong = query.meta !== '' && !metadataPair(query.meta);
  return (
    <form
      className="filters card contract-filters"
      role="search"
      aria-label={t('contracts.filters')}
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ q: text.trim(), meta: meta.trim() });
      }}
    >
      <div className="field filters-search">
        <SearchRow
          label={t('contracts.search')}
          id="contract-search"
          type="search"
          value={text}
          onValue={setText}
          placeholder={t('contracts.searchPlaceholder')}
        />
      </div>
      {users ? (
        <SelectField
          label={t('field.createdBy')}
          options={[
            { value: '', label: t('contracts.anyone') },
            ...users.map((user) => ({ value: user.self, label: displayName(user) })),
          ]}
          value={query.user}
          onValue={(user) => onChange({ user })}
        />
      ) : null}
      <SelectField
        label={t('contracts.sort')}
        options={SORTS.map((sort) => ({ value: sort.value, label: t(sort.label) }))}
        value={query.sort}
        onValue={(sort) => onChange({ sort })}
      />
      <details className="filters-more" open={query.meta !== '' || undefined}>
        <summary>{t('contracts.moreFilters')}</summary>
        <div className="field">
          <SearchRow
            label={t('contracts.metadata')}
            id="contract-metadata"
            value={meta}
            onValue={setMeta}
            placeholder="order_id=A-1042"
            aria-describedby="contract-metadata-help"
            aria-invalid={isMetaWrong || undefined}
          />
          <p id="contract-metadata-help" className={isMetaWrong ? 'field-error' : 'field-hint'}>
            {t(isMetaWrong ? 'contracts.metadataWrong' : 'contracts.metadataHelp')}
          </p>
        </div>
      </details>
      {isFiltered ? (
        <div className="filters-clear">
          <Link to="/contracts">{t('contracts.clearFilters')}</Link>
        </div>
      ) : null}
    </form>
  );
}

type SearchRowProps = { label: string; id: string; value: string; onValue: (value: string) => void } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange' | 'className'
>;

/** A labelled text box with the form's Search button beside it. */
function SearchRow({ label, id, value, onValue, ...input }: SearchRowProps) {
  const t = useT();
  return (
    <>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="search-row">
        <input id={id} className="input" value={value} onChange={(event) => onValue(event.target.value)} {...input} />
        <Button type="submit">{t('action.search')}</Button>
      </div>
    </>
  );
}

/** One tab per status filter with its count: All 12, Draft 3, Sent 5, … */
export function StatusTabs({ query, counts }: { query: ContractListQuery; counts: TContractCounts | undefined }) {
  const t = useT();
  const tabs: { status: string; label: string; count: number | undefined }[] = [
    { status: '', label: t('contracts.allStatuses'), count: counts?.all },
    ...CONTRACT_STATUSES.map((status) => ({ status, label: t(STATUS_LABEL[status]), count: counts?.[status] })),
  ];
  return (
    <nav className="status-tabs" aria-label={t('contracts.statusTabs')}>
      <ul>
        {tabs.map((tab) => {
          const isCurrent = query.status === tab.status;
          return (
            <li key={tab.status || 'all'}>
              <Link
                to={`/contracts${listSearch({ ...query, status: tab.status, page: '' })}`}
                className={`status-tab ${isCurrent ? 'status-tab-current' : ''}`}
                aria-current={isCurrent ? 'page' : undefined}
                data-status={tab.status || 'all'}
              >
                <span>{tab.label}</span>
                <span className="status-tab-count">{tab.count ?? '…'}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
