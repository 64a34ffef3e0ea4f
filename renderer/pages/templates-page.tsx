import { useState } from 'react';
import type { TTemplate } from '../../shared/api/templates';
import { PagedTable } from '../components/data-table';
import { TextField } from '../components/fields';
import { FormDialog } from '../components/form-dialog';
import { Badge, Button, EmptyState, PageHeader, ProblemAlert } from '../components/ui';
import { idOf, sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useAction } from '../lib/use-action';
import { usePagedList } from '../lib/use-paged-list';

function NewTemplateDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const { navigate } = useRouter();
  const [name, setName] = useState('');
  const create = useAction();
  const submit = create.submit('create', async () => {
    const template = await sendJson<TTemplate>('POST', '/api/contract_templates', { name, content: t('templates.starterContent') });
    navigate(`/templates/${idOf(template.self)}`);
  });
  return (
    <FormDialog title={t('templates.new')} isOpen={isOpen} onClose={onClose} onSubmit={submit} error={create.error} isBusy={create.busy === 'create'} submitLabel={t('action.create')}>
      <TextField label={t('field.name')} error={create.errors.name} value={name} onValue={setName} required autoFocus />
    </FormDialog>
  );
}

export function TemplatesPage() {
  const t = useT();
  const list = usePagedList<TTemplate>('/api/contract_templates?per_page=20');
  const [isCreating, setIsCreating] = useState(false);
  const newTemplate = (
    <Button variant="primary" onClick={() => setIsCreating(true)}>
      {t('templates.new')}
    </Button>
  );
  return (
    <>
      <PageHeader title={t('templates.title')} description={t('templates.description')} actions={newTemplate} />
      <ProblemAlert error={list.error} />
      <PagedTable
        list={list}
        caption={t('templates.title')}
        columns={[t('field.name'), t('field.state'), t('field.footer'), t('field.updated')]}
        empty={<EmptyState title={t('templates.emptyTitle')} body={t('templates.emptyBody')} action={newTemplate} />}
      >
        {(template) => (
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
        )}
      </PagedTable>
      <NewTemplateDialog isOpen={isCreating} onClose={() => setIsCreating(false)} />
    </>
  );
}
