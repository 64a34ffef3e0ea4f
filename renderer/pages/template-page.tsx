import { useEffect, useState, type FormEvent } from 'react';
import { FOOTER_TYPES } from '../../shared/api/enums';
import type { TTemplate } from '../../shared/api/templates';
import { PdfPreview } from '../components/pdf-preview';
import { Badge, Button, Card, Field, Loading, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { getBlob, getJson, idOf, sendJson, type ApiError } from '../lib/api';
import { useFeatures } from '../lib/features';
import { asApiError, fieldErrors } from '../lib/forms';
import { useI18n } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useLoad } from '../lib/use-load';

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
  const features = useFeatures();
  const { navigate } = useRouter();
  const path = `/api/contract_templates/${id}`;
  const loaded = useLoad((signal) => getJson<TTemplate>(path, signal), [path]);
  const [draft, setDraft] = useState<Draft>();
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState<string>();
  const [isBusy, setIsBusy] = useState<'save' | 'delete' | 'contract' | undefined>();

  useEffect(() => {
    if (loaded.data) setDraft(draftOf(loaded.data));
  }, [loaded.data]);

  if (loaded.error && !loaded.data) return <ProblemAlert error={loaded.error} />;
  if (!loaded.data || !draft) return <Loading />;
  const template = loaded.data;
  const errors = fieldErrors(error);
  const isDirty = JSON.stringify(draft) !== JSON.stringify(draftOf(template));

  const run = async (kind: 'save' | 'delete' | 'contract', work: () => Promise<void>) => {
    setIsBusy(kind);
    setError(undefined);
    try {
      await work();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(undefined);
    }
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    void run('save', async () => {
      await sendJson('PUT', path, draft);
      await loaded.reload();
      setSaved(new Date().toLocaleTimeString());
    });
  };
  const remove = () => {
    if (!window.confirm(t('templates.confirmDelete', { name: template.name }))) return;
    void run('delete', async () => {
      await sendJson('DELETE', path);
      navigate('/templates');
    });
  };
  const makeContract = () =>
    void run('contract', async () => {
      const contract = await sendJson<{ self: string }>('POST', '/api/contracts', { template: template.self });
      navigate(`/contracts/${idOf(contract.self)}`);
    });

  const text = (name: 'header' | 'content' | 'footer') => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  return (
    <>
      <PageHeader
        title={template.name}
        back={<Link to="/templates">← {t('nav.templates')}</Link>}
        description={t('templates.editorDescription')}
        actions={
          <>
            {features.contracts ? (
              <Button onClick={makeContract} isBusy={isBusy === 'contract'} disabled={isDirty}>
                {t('templates.makeContract')}
              </Button>
            ) : null}
            <Button variant="danger" onClick={remove} isBusy={isBusy === 'delete'}>
              {t('action.delete')}
            </Button>
          </>
        }
      />
      <ProblemAlert error={error} onDismiss={() => setError(undefined)} />
      <div className="split">
        <form className="card split-main" onSubmit={save} noValidate aria-label={t('templates.editor')}>
          <div className="card-body">
            <Field label={t('field.name')} error={errors.name}>
              {(fieldId, describedBy) => (
                <input id={fieldId} aria-describedby={describedBy} className="input" value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} />
              )}
            </Field>
            <label className="checkbox">
              <input type="checkbox" checked={draft.is_published} onChange={(event) => setDraft({ ...draft, is_published: event.target.checked })} />
              <span>{t('templates.publishedLabel')}</span>
            </label>
            <Field label={t('field.header')} error={errors.header}>
              {(fieldId, describedBy) => <textarea id={fieldId} aria-describedby={describedBy} className="input textarea" rows={2} value={draft.header} onChange={text('header')} />}
            </Field>
            <Field label={t('field.content')} hint={t('templates.markdownHint')} error={errors.content}>
              {(fieldId, describedBy) => <textarea id={fieldId} aria-describedby={describedBy} className="input textarea textarea-tall mono" rows={18} value={draft.content} onChange={text('content')} />}
            </Field>
            <div className="field-stack">
              <Field label={t('field.footer')} error={errors.footer}>
                {(fieldId, describedBy) => <textarea id={fieldId} aria-describedby={describedBy} className="input textarea" rows={2} value={draft.footer} onChange={text('footer')} />}
              </Field>
              <Field label={t('field.footerType')} error={errors.footer_type}>
                {(fieldId) => (
                  <select id={fieldId} className="input" value={draft.footer_type} onChange={(event) => setDraft({ ...draft, footer_type: event.target.value as Draft['footer_type'] })}>
                    {FOOTER_TYPES.map((value) => (
                      <option key={value} value={value}>
                        {value === 'SIMPLE' ? t('templates.footerSimple') : t('templates.footerNone')}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
          </div>
          <div className="card-footer">
            <span className="muted" role="status">
              {isDirty ? <Badge tone="warning">{t('state.unsaved')}</Badge> : saved ? t('state.savedAt', { time: saved }) : t('state.updatedAt', { time: template.updated_time })}
            </span>
            <Button type="submit" variant="primary" isBusy={isBusy === 'save'} disabled={!isDirty}>
              {t('action.save')}
            </Button>
          </div>
        </form>
        <Card title={t('templates.preview')} className="split-side">
          {features.templatePreview ? (
            <PdfPreview
              title={t('templates.preview')}
              version={`${template.updated_time}|${language}|${saved ?? ''}`}
              load={() => getBlob(`${path}/pdf_preview?language=${language}`, 'application/pdf')}
            />
          ) : (
            <Notice title={t('feature.notYet')}>{t('templates.previewNotYet')}</Notice>
          )}
        </Card>
      </div>
    </>
  );
}
