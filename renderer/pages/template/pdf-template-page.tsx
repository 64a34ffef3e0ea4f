import { useState } from 'react';
import type { TTemplate } from '../../../shared/api/templates';
import type { TTemplateField } from '../../../shared/api/template-fields';
import { FieldEditor, type Owner } from '../../components/field-editor/field-editor';
import type { EditorField } from '../../components/field-editor/geometry';
import { newFieldId, type FieldData, type FieldStore } from '../../components/field-editor/use-field-editing';
import { TextField } from '../../components/fields';
import { Badge, Button, Card, Loading, PageHeader, ProblemAlert } from '../../components/ui';
import { getBlob, idOf, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { Link, useRouter } from '../../lib/router';
import { useSignedIn } from '../../lib/session';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';
import { readAll } from '../contract/use-contract';
import { RoleNamesCard } from './role-names-card';

const fromField = (field: TTemplateField): FieldData & { self: string } => ({
  self: field.self,
  owner: String(field.role),
  type: field.type,
  page: field.pdf_page,
  x: field.pos_x,
  y: field.pos_y,
  width: field.width,
  height: field.height,
  isRequired: field.input_required,
  label: field.label,
  hint: field.hint,
  options: field.options,
});

const toBody = (field: Partial<FieldData>) => {
  const body: Record<string, unknown> = {};
  if (field.owner !== undefined) body.role = Number(field.owner);
  if (field.type !== undefined) body.type = field.type;
  if (field.page !== undefined) body.pdf_page = field.page;
  if (field.x !== undefined) body.pos_x = field.x;
  if (field.y !== undefined) body.pos_y = field.y;
  if (field.width !== undefined) body.width = field.width;
  if (field.height !== undefined) body.height = field.height;
  if (field.isRequired !== undefined) body.input_required = field.isRequired;
  if (field.label !== undefined) body.label = field.label;
  if (field.hint !== undefined) body.hint = field.hint;
  if (field.options !== undefined) body.options = field.options;
  return body;
};

function fieldStore(templatePath: string): FieldStore {
  return {
    create: async (field) => fromField(await sendJson<TTemplateField>('POST', `${templatePath}/fields`, toBody(field))),
    update: async (self, changes) => fromField(await sendJson<TTemplateField>('PUT', self, toBody(changes))),
    remove: (self) => sendJson('DELETE', self),
  };
}

const toEditorField = (field: TTemplateField): EditorField => ({ ...fromField(field), id: newFieldId() });

/** A PDF template: its name and publication, and its PDF with the fields placed for each role. */
export function PdfTemplatePage({ template, onChanged }: { template: TTemplate; onChanged: () => Promise<void> }) {
  const t = useT();
  const session = useSignedIn();
  const { navigate } = useRouter();
  const path = template.self;
  const fields = useLoad((signal) => readAll<TTemplateField>(`${path}/fields`, signal), [path]);
  const [name, setName] = useState(template.name);
  const [roleCount, setRoleCount] = useState(Math.max(template.roles, template.role_names.length, 2));
  const action = useAction<'save' | 'publish' | 'delete' | 'contract'>();
  const owners: Owner[] = Array.from({ length: roleCount }, (_, index) => ({
    id: String(index + 1),
    name: template.role_names[index] || t('templates.role', { n: index + 1 }),
  }));
  const canUse = template.is_published || session.is_admin;

  const save = action.submit('save', async () => {
    await sendJson('PUT', path, { name });
    await onChanged();
  });
  const publish = (isPublished: boolean) =>
    void action.run('publish', async () => {
      await sendJson('PUT', path, { is_published: isPublished });
      await onChanged();
    });
  const remove = () => {
    if (!window.confirm(t('templates.confirmDelete', { name: template.name }))) return;
    void action.run('delete', async () => {
      await sendJson('DELETE', path);
      navigate('/templates');
    });
  };
  const makeContract = () =>
    void action.run('contract', async () => {
      const contract = await sendJson<{ self: string }>('POST', '/api/contracts', {
        template: path,
        name: template.name,
      });
      navigate(`/contracts/${idOf(contract.self)}`);
    });
  return (
    <>
      <PageHeader
        title={template.name}
        back={<Link to="/templates">← {t('nav.templates')}</Link>}
        description={t('roles.pdfDescription')}
        actions={
          <>
            <Button
              onClick={makeContract}
              isBusy={action.busy === 'contract'}
              disabled={!canUse}
              title={canUse ? undefined : t('templates.publishFirst')}
            >
              {t('templates.makeContract')}
            </Button>
            <Button
              onClick={() => navigate(`/templates/${idOf(path)}/bulk`)}
              disabled={!canUse || template.roles === 0}
              title={template.roles === 0 ? t('bulk.needsFields') : undefined}
            >
              {t('bulk.open')}
            </Button>
            <Button variant="danger" onClick={remove} isBusy={action.busy === 'delete'}>
              {t('action.delete')}
            </Button>
          </>
        }
      />
      <ProblemAlert error={action.error} onDismiss={action.dismiss} />
      <Card title={t('templates.settings')}>
        <form className="inline-form template-settings" onSubmit={save} noValidate aria-label={t('templates.settings')}>
          <TextField label={t('field.name')} error={action.errors.name} value={name} onValue={setName} />
          <Button type="submit" isBusy={action.busy === 'save'} disabled={name === template.name}>
            {t('action.save')}
          </Button>
          <div className="template-publish">
            {template.is_published ? (
              <Badge tone="success">{t('templates.published')}</Badge>
            ) : (
              <Badge>{t('templates.unpublished')}</Badge>
            )}
            <Button size="small" onClick={() => publish(!template.is_published)} isBusy={action.busy === 'publish'}>
              {template.is_published ? t('templates.unpublish') : t('templates.publish')}
            </Button>
          </div>
        </form>
      </Card>
      <RoleNamesCard template={template} roleCount={roleCount} onChanged={onChanged} />
      <Card
        title={t('templates.fields')}
        description={t('templates.fieldsDescription')}
        actions={
          <Button size="small" onClick={() => setRoleCount((count) => count + 1)} disabled={roleCount >= 50}>
            {t('templates.addRole')}
          </Button>
        }
        className="fields-card"
      >
        {fields.error && !fields.data ? <ProblemAlert error={fields.error} /> : null}
        {fields.data ? (
          <FieldEditor
            title={t('templates.fields')}
            load={() => getBlob(`${path}/pdf_preview`, 'application/pdf')}
            version={path}
            owners={owners}
            initialFields={fields.data.map(toEditorField)}
            store={fieldStore(path)}
            isReadOnly={false}
            fromTags={async () => {
              const made = await sendJson<TTemplateField[]>('POST', `${path}/fields/from_tags`);
              const highest = Math.max(0, ...made.map((field) => field.role));
              setRoleCount((count) => Math.max(count, highest));
              void onChanged();
              return made.map(toEditorField);
            }}
            ownerLegend={t('editor.role')}
            noOwnersHint=""
          />
        ) : (
          <Loading />
        )}
      </Card>
    </>
  );
}
