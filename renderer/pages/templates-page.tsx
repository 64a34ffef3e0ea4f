import { useState, type FormEvent } from 'react';
import type { TTemplate } from '../../shared/api/templates';
import { Badge, Button, Dialog, EmptyState, Field, Loading, PageHeader, Pagination, ProblemAlert } from '../components/ui';
import { getPage, idOf, sendJson, type ApiError } from '../lib/api';
import { asApiError, fieldErrors } from '../lib/forms';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useLoad } from '../lib/use-load';

export function TemplatesPage() {
  const t = useT();
  const { navigate } = useRouter();
  const [pagePath, setPagePath] = useState('/api/contract_templates?per_page=20');
  const list = useLoad((signal) => getPage<TTemplate>(pagePath, signal), [pagePath]);
  const [isCreating, setIsCreating] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    try {
      const template = await sendJson<TTemplate>('POST', '/api/contract_templates', { name, content: t('templates.starterContent') });
      navigate(`/templates/${idOf(template.self)}`);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };

  const page = list.data;
  return (
    <>
      <PageHeader
        title={t('templates.title')}
        description={t('templates.description')}
        actions={
          <Button variant="primary" onClick={() => setIsCreating(true)}>
            {t('templates.new')}
          </Button>
        }
      />
      <ProblemAlert error={list.error} />
      {list.isLoading && !page ? <Loading /> : null}
      {page && page.items.length === 0 ? (
        <EmptyState title={t('templates.emptyTitle')} body={t('templates.emptyBody')} action={<Button variant="primary" onClick={() => setIsCreating(true)}>{t('templates.new')}</Button>} />
      ) : null}
      {page && page.items.length > 0 ? (
        <div className="card">
          <div className="table-wrap" tabIndex={0}>
            <table className="table">
              <caption className="visually-hidden">{t('templates.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('field.name')}</th>
                  <th scope="col">{t('field.state')}</th>
                  <th scope="col">{t('field.footer')}</th>
                  <th scope="col">{t('field.updated')}</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((template) => (
                  <tr key={template.self}>
                    <td>
                      <Link to={`/templates/${idOf(template.self)}`} className="table-link">
                        {template.name}
                      </Link>
                    </td>
                    <td>{template.is_published ? <Badge tone="success">{t('templates.published')}</Badge> : <Badge>{t('templates.unpublished')}</Badge>}</td>
                    <td>{template.footer_type === 'SIMPLE' ? t('templates.footerSimple') : t('templates.footerNone')}</td>
                    <td className="numeric">{template.updated_time}</td>
                  </tr>
                ))}
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
      <Dialog title={t('templates.new')} isOpen={isCreating} onClose={() => setIsCreating(false)}>
        <form onSubmit={(event) => void create(event)} noValidate>
          <ProblemAlert error={error} />
          <Field label={t('field.name')} error={fieldErrors(error).name}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" value={name} onChange={(event) => setName(event.target.value)} required autoFocus />}
          </Field>
          <div className="form-actions">
            <Button onClick={() => setIsCreating(false)}>{t('action.cancel')}</Button>
            <Button type="submit" variant="primary" isBusy={isBusy}>
              {t('action.create')}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
