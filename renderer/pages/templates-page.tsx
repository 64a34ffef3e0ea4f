import { useState } from 'react';
import type { TTemplate } from '../../shared/api/templates';
import { PagedTable } from '../components/data-table';
import { FileField, TextField } from '../components/fields';
import { useUploadLimit } from '../lib/upload-limit';
import { FormDialog } from '../components/form-dialog';
import { Badge, Button, EmptyState, PageHeader, ProblemAlert } from '../components/ui';
import { idOf, request, sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useAction } from '../lib/use-action';
import { usePagedList } from '../lib/use-paged-list';

/** A new template: text to write here, or a PDF (with its fields placed afterwards). */
function NewTemplateDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const { navigate } = useRouter();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'TEXT' | 'PDF'>('TEXT');
  const [file, setFile] = useState<File>();
  const create = useAction();
  const limit = useUploadLimit();
  const tooLarge = kind === 'PDF' ? limit.messageFor(file, 'pdf') : undefined;
  const submit = create.submit('create', async () => {
    // Refused before anything is made or sent.
    if (kind === 'PDF' && file) limit.check(file, 'pdf');
    const body =
      kind === 'TEXT'
        ? { name, content: t('templates.starterContent') }
        : { name: name || file?.name.replace(/\.pdf$/i, '') || '' };
    const template = await sendJson<TTemplate>('POST', '/api/contract_templates', body);
    if (kind === 'PDF' && file) {
      try {
        await request('PUT', `${template.self}/pdf`, { raw: file, contentType: 'application/pdf' });
      } catch (error) {
        // A PDF refused leaves no half-made template behind.
        await sendJson('DELETE', template.self).catch(() => undefined);
        throw error;
      }
    }
    navigate(`/templates/${idOf(template.self)}`);
  });
  return (
    <FormDialog
      title={t('templates.new')}
      isOpen={isOpen}
      onClose={onClose}
      onSubmit={submit}
      error={create.error}
      isBusy={create.busy === 'create'}
      submitLabel={t('action.create')}
      isSubmitDisabled={kind === 'PDF' && (!file || tooLarge !== undefined)}
    >
      <fieldset className="radio-group">
        <legend>{t('templates.kind')}</legend>
        <label className="radio">
          <input type="radio" name="template-kind" checked={kind === 'TEXT'} onChange={() => setKind('TEXT')} />
          <span>{t('templates.kindText')}</span>
        </label>
        <label className="radio">
          <input type="radio" name="template-kind" checked={kind === 'PDF'} onChange={() => setKind('PDF')} />
          <span>{t('templates.kindPdf')}</span>
        </label>
      </fieldset>
      <TextField
        label={t('field.name')}
        hint={kind === 'PDF' ? t('templates.nameFromFile') : undefined}
        error={create.errors.name}
        value={name}
        onValue={setName}
        required={kind === 'TEXT'}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- a modal dialog puts the focus on its first field (WAI-ARIA dialog pattern)
        autoFocus
      />
      {kind === 'PDF' ? (
        <FileField
          label={t('contracts.pdfFile')}
          hint={t('templates.pdfHint')}
          error={tooLarge}
          accept="application/pdf,.pdf"
          onFile={setFile}
        />
      ) : null}
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
        columns={[t('field.name'), t('field.state'), t('templates.kind'), t('field.updated')]}
        empty={<EmptyState title={t('templates.emptyTitle')} body={t('templates.emptyBody')} action={newTemplate} />}
      >
        {(template) => (
          <tr key={template.self}>
            <td>
              <Link to={`/templates/${idOf(template.self)}`} className="table-link">
                {template.name}
              </Link>
            </td>
            <td>
              {template.is_published ? (
                <Badge tone="success">{t('templates.published')}</Badge>
              ) : (
                <Badge>{t('templates.unpublished')}</Badge>
              )}
            </td>
            <td>
              {template.kind === 'PDF'
                ? t('templates.kindPdfRoles', { n: template.roles })
                : t('templates.kindTextShort')}
            </td>
            <td className="numeric">{template.updated_time}</td>
          </tr>
        )}
      </PagedTable>
      <NewTemplateDialog isOpen={isCreating} onClose={() => setIsCreating(false)} />
    </>
  );
}
