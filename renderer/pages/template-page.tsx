import { useState } from 'react';
import { useHasChanged } from '../lib/forms';
import { useConfirm } from '../components/confirm';
import { FOOTER_TYPES } from '../../shared/api/enums';
import type { TTemplate } from '../../shared/api/templates';
import { PdfPreview } from '../components/pdf-preview';
import { SelectField, TextAreaField, TextField } from '../components/fields';
import { Badge, Button, Card, Loading, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { getBlob, getJson, idOf, sendJson } from '../lib/api';
import { createNamedContract } from '../lib/create-contract';
import { useI18n } from '../lib/i18n';
import { useSignedIn } from '../lib/session';
import { Link, useRouter } from '../lib/router';
import { useAction } from '../lib/use-action';
import { useLoad } from '../lib/use-load';
import { PdfTemplatePage } from './template/pdf-template-page';

type Draft = Pick<TTemplate, 'name' | 'is_published' | 'header' | 'content' | 'footer' | 'footer_type'>;

const draftOf = (template: TTemplate): Draft => ({
  name: template.name,
  is_published: template.is_published,
  header: template.header,
  content: template.content,
  footer: template.footer,
  footer_type: template.footer_type,
});

/** The template editor: light Markdown on the left, the rendered PDF on the right. */
export function TemplatePage({ id }: { id: string }) {
  const { t, language } = useI18n();
  const session = useSignedIn();
  const { navigate } = useRouter();
  const path = `/api/contract_templates/${id}`;
  const loaded = useLoad((signal) => getJson<TTemplate>(path, signal), [path]);
  const [draft, setDraft] = useState<Draft>();
  const [saved, setSaved] = useState<string>();
  const action = useAction<'save' | 'delete' | 'contract'>();
  const confirm = useConfirm();

  const isNewlyLoaded = useHasChanged(loaded.data);
  if (isNewlyLoaded && loaded.data) setDraft(draftOf(loaded.data));

  if (loaded.error && !loaded.data) return <ProblemAlert error={loaded.error} />;
  if (loaded.data?.kind === 'PDF') return <PdfTemplatePage template={loaded.data} onChanged={loaded.reload} />;
  if (!loaded.data || !draft) return <Loading />;
  const template = loaded.data;
  const { errors } = action;
  const isDirty = JSON.stringify(draft) !== JSON.stringify(draftOf(template));
  // An ordinary user may use a colleague's published template but change only their own.
  const isChangeable = session.is_admin || template.created_by === session.user.self;

  const save = action.submit('save', async () => {
    // The time the server saved it, in the office's zone (its clock, not this browser's).
    const updated = await sendJson<TTemplate>('PUT', path, draft);
    await loaded.reload();
    setSaved(updated.updated_time.slice(11, 19));
  });
  const remove = async () => {
    if (
      !(await confirm({
        title: t('confirm.title'),
        body: t('templates.confirmDelete', { name: template.name }),
        confirmLabel: t('action.delete'),
      }))
    )
      return;
    void action.run('delete', async () => {
      await sendJson('DELETE', path);
      navigate('/templates');
    });
  };
  const makeContract = () =>
    void action.run('contract', async () => {
      const contract = await createNamedContract({ template: template.self, name: template.name });
      navigate(`/contracts/${idOf(contract.self)}`);
    });

  const text = (name: 'header' | 'content' | 'footer' | 'name') => ({
    value: draft[name],
    onValue: (value: string) => setDraft({ ...draft, [name]: value }),
  });
  const footerTypes = FOOTER_TYPES.map((value) => ({
    value,
    label: value === 'SIMPLE' ? t('templates.footerSimple') : t('templates.footerNone'),
  }));
  return (
    <>
      <PageHeader
        title={template.name}
        back={<Link to="/templates">← {t('nav.templates')}</Link>}
        description={t('templates.editorDescription')}
        actions={
          <>
            <Button onClick={makeContract} isBusy={action.busy === 'contract'} disabled={isDirty}>
              {t('templates.makeContract')}
            </Button>
            {isChangeable ? (
              <Button variant="danger" onClick={remove} isBusy={action.busy === 'delete'}>
                {t('action.delete')}
              </Button>
            ) : null}
          </>
        }
      />
      <ProblemAlert error={action.error} onDismiss={action.dismiss} />
      {isChangeable ? null : <Notice title={t('templates.readOnlyTitle')}>{t('templates.readOnly')}</Notice>}
      <div className="split">
        <form className="card split-main" onSubmit={save} noValidate aria-label={t('templates.editor')}>
          <fieldset className="card-body plain-fieldset" disabled={!isChangeable}>
            <TextField label={t('field.name')} error={errors.name} {...text('name')} />
            <label className="checkbox">
              <input
                type="checkbox"
                checked={draft.is_published}
                onChange={(event) => setDraft({ ...draft, is_published: event.target.checked })}
              />
              <span>{t('templates.publishedLabel')}</span>
            </label>
            <TextAreaField label={t('field.header')} error={errors.header} {...text('header')} rows={2} />
            <TextAreaField
              label={t('field.content')}
              hint={t('templates.markdownHint')}
              error={errors.content}
              {...text('content')}
              className="textarea-tall mono"
              rows={18}
            />
            <div className="field-stack">
              <TextAreaField label={t('field.footer')} error={errors.footer} {...text('footer')} rows={2} />
              <SelectField
                label={t('field.footerType')}
                error={errors.footer_type}
                options={footerTypes}
                value={draft.footer_type}
                onValue={(value) => setDraft({ ...draft, footer_type: value as Draft['footer_type'] })}
              />
            </div>
          </fieldset>
          <div className="card-footer">
            <span className="muted" role="status">
              {isDirty ? (
                <Badge tone="warning">{t('state.unsaved')}</Badge>
              ) : saved ? (
                t('state.savedAt', { time: saved })
              ) : (
                t('state.updatedAt', { time: template.updated_time })
              )}
            </span>
            {isChangeable ? (
              <Button type="submit" variant="primary" isBusy={action.busy === 'save'} disabled={!isDirty}>
                {t('action.save')}
              </Button>
            ) : null}
          </div>
        </form>
        <Card title={t('templates.preview')} className="split-side">
          <PdfPreview
            title={t('templates.preview')}
            version={`${template.updated_time}|${language}|${saved ?? ''}`}
            load={() => getBlob(`${path}/pdf_preview?language=${language}`, 'application/pdf')}
          />
        </Card>
      </div>
    </>
  );
}
