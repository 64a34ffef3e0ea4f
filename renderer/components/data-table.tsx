import type { ReactNode } from 'react';
import type { Page } from '../lib/api';
import { useT } from '../lib/i18n';
import type { PagedList } from '../lib/use-paged-list';
import { Button, Loading } from './ui';

type TableProps = {
  /** Read by screen readers; the card's heading already says it to the eye. */
  caption: string;
  columns: string[];
  /** A last column of row buttons, its heading hidden. */
  hasActions?: boolean;
  /** A table inside a table's row: no scrolling frame of its own. */
  isNested?: boolean;
  children: ReactNode;
};

export function DataTable({ caption, columns, hasActions = false, isNested = false, children }: TableProps) {
  const t = useT();
  const table = (
    <table className={isNested ? 'table table-nested' : 'table'}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
          {hasActions ? (
            <th scope="col">
              <span className="visually-hidden">{t('field.actions')}</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  if (isNested) return table;
  // Focusable, so that a table wider than the window scrolls with the keyboard.
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take the focus
    <div className="table-wrap" tabIndex={0}>
      {table}
    </div>
  );
}

export function Pagination({ page, onGo }: { page: Page<unknown>; onGo: (path: string) => void }) {
  const t = useT();
  const { previous, next } = page;
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <span className="pagination-status">
        {t('pagination.status', { page: page.page, pages: Math.max(page.pages, 1), total: page.total })}
      </span>
      <div className="pagination-buttons">
        <Button size="small" onClick={previous ? () => onGo(previous) : undefined} disabled={!previous}>
          {t('pagination.previous')}
        </Button>
        <Button size="small" onClick={next ? () => onGo(next) : undefined} disabled={!next}>
          {t('pagination.next')}
        </Button>
      </div>
    </nav>
  );
}

type PagedTableProps<T> = Omit<TableProps, 'children'> & {
  list: PagedList<T>;
  /** Shown when the page has no rows. */
  empty: ReactNode;
  /** Inside a card already: no card of its own. */
  isFramed?: boolean;
  children: (item: T) => ReactNode;
};

/** A list's current page as a table with its pager, or its loading and empty states. */
export function PagedTable<T>({ list, empty, isFramed = true, children, ...table }: PagedTableProps<T>) {
  const page = list.data;
  if (!page) return list.isLoading ? <Loading /> : null;
  if (page.items.length === 0) return <>{empty}</>;
  const content = (
    <>
      <DataTable {...table}>{page.items.map(children)}</DataTable>
      <Pagination page={page} onGo={list.goTo} />
    </>
  );
  return isFramed ? <div className="card">{content}</div> : content;
}
