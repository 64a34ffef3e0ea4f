import type { TAnnotation } from '../../../shared/api/annotations';
import type { TContract } from '../../../shared/api/contracts';
import type { TParty } from '../../../shared/api/parties';
import { FieldEditor, type Owner } from '../../components/field-editor/field-editor';
import type { EditorField } from '../../components/field-editor/geometry';
import { newFieldId, type FieldData, type FieldStore } from '../../components/field-editor/use-field-editing';
import { Card, Loading, ProblemAlert } from '../../components/ui';
import { getBlob, idOf, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useLoad } from '../../lib/use-load';
import { readAll } from './use-contract';

/** An API URL (absolute on the public base URL) as a path on this origin, where the session cookie goes. */
const pathOf = (url: string) => new URL(url, window.location.origin).pathname;

const fromAnnotation = (annotation: TAnnotation): FieldData & { self: string } => ({
  self: annotation.self,
  owner: annotation.party_id,
  type: annotation.type,
  page: annotation.pdf_page,
  x: annotation.pos_x,
  y: annotation.pos_y,
  width: annotation.width,
  height: annotation.height,
  isRequired: annotation.input_required,
  label: annotation.label,
  hint: annotation.hint,
  options: annotation.options,
});

const toBody = (field: Partial<FieldData>) => {
  const body: Record<string, unknown> = {};
  if (field.owner !== undefined) body.party_id = field.owner;
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

/** The contract's annotations API, as the field editor's store. */
function annotationStore(contractPath: string): FieldStore {
  return {
    create: async (field) =>
      fromAnnotation(await sendJson<TAnnotation>('POST', `${contractPath}/annotations`, toBody(field))),
    update: async (self, changes) => fromAnnotation(await sendJson<TAnnotation>('PUT', self, toBody(changes))),
    remove: (self) => sendJson('DELETE', self),
  };
}

const toEditorField = (annotation: TAnnotation): EditorField => ({ ...fromAnnotation(annotation), id: newFieldId() });

/**
 * The contract's PDF with its fields: placed, moved and removed while a draft, shown read-only
 * once sent. Parties in the order they were added (party 1 of the text tags is the first).
 */
export function FieldsCard({
  contract,
  parties,
  isDraft,
}: {
  contract: TContract;
  parties: TParty[];
  isDraft: boolean;
}) {
  const t = useT();
  const path = contract.self;
  const partyKey = parties.map((party) => party.self).join(',');
  const annotations = useLoad((signal) => readAll<TAnnotation>(`${path}/annotations`, signal), [path, partyKey]);
  const owners: Owner[] = [...parties]
    .sort((a, b) => Number(idOf(a.self)) - Number(idOf(b.self)))
    .map((party) => ({ id: party.self, name: party.name }));
  const source = contract.pdf_preview_uri ? pathOf(contract.pdf_preview_uri) : undefined;
  const title = isDraft ? t('contract.fields') : t('contract.document');
  return (
    <Card
      title={title}
      description={isDraft ? t('contract.fieldsDescription') : t('contract.fieldsReadOnly')}
      className="fields-card"
    >
      {annotations.error && !annotations.data ? <ProblemAlert error={annotations.error} /> : null}
      {!source ? <p className="muted">{t('contract.noDocument')}</p> : null}
      {source && !annotations.data && !annotations.error ? <Loading /> : null}
      {source && annotations.data ? (
        <FieldEditor
          key={partyKey}
          title={title}
          load={() => getBlob(source, 'application/pdf')}
          version={`${source}|${contract.sent_time ?? ''}`}
          owners={owners}
          initialFields={annotations.data.map(toEditorField)}
          store={annotationStore(path)}
          isReadOnly={!isDraft}
          fromTags={async () =>
            (await sendJson<TAnnotation[]>('POST', `${path}/annotations/from_tags`)).map(toEditorField)
          }
          ownerLegend={t('editor.party')}
          noOwnersHint={t('editor.noParties')}
        />
      ) : null}
    </Card>
  );
}
