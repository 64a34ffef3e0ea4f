import { useState } from 'react';
import { MAX_FIELD_OPTIONS, MAX_HINT_LENGTH, MAX_LABEL_LENGTH } from '../../../shared/api/field-box';
import { useT } from '../../lib/i18n';
import type { EditorField } from './geometry';

export type FieldTexts = Pick<EditorField, 'label' | 'hint' | 'options'>;

type Props = { field: EditorField; onChange: (texts: Partial<FieldTexts>) => void };

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The chosen field's label and hint (what the party reads beside it) and, for a DROPDOWN or
 * RADIO field, its options one per line; each saved when the person leaves it (or presses Enter).
 * Keyed by the field by its caller, so another field starts from its own texts.
 */
export function FieldTextsEditor({ field, onChange }: Props) {
  const t = useT();
  const [label, setLabel] = useState(field.label);
  const [hint, setHint] = useState(field.hint);
  const [options, setOptions] = useState((field.options ?? []).join('\n'));
  const isChoice = field.type === 'DROPDOWN' || field.type === 'RADIO';
  const commitLabel = () => label.trim() !== field.label && onChange({ label: label.trim() });
  const commitHint = () => hint.trim() !== field.hint && onChange({ hint: hint.trim() });
  const commitOptions = () => {
    const next = linesOf(options);
    if (next.length > 0 && next.join('\n') !== (field.options ?? []).join('\n')) onChange({ options: next });
  };
  const enter = (commit: () => void) => (event: React.KeyboardEvent) => {
    if (event.key === 'Enter') commit();
  };
  return (
    <div className="editor-texts">
      <label className="editor-inline-field">
        <span>{t('editor.fieldLabelInput')}</span>
        <input
          type="text"
          value={label}
          maxLength={MAX_LABEL_LENGTH}
          placeholder={t(`fieldType.${field.type}`)}
          onChange={(event) => setLabel(event.target.value)}
          onBlur={commitLabel}
          onKeyDown={enter(commitLabel)}
        />
      </label>
      <label className="editor-inline-field">
        <span>{t('editor.fieldHintInput')}</span>
        <input
          type="text"
          value={hint}
          maxLength={MAX_HINT_LENGTH}
          onChange={(event) => setHint(event.target.value)}
          onBlur={commitHint}
          onKeyDown={enter(commitHint)}
        />
      </label>
      {isChoice ? (
        <label className="editor-inline-field">
          <span>{t('editor.fieldOptions', { max: MAX_FIELD_OPTIONS })}</span>
          <textarea
            rows={3}
            value={options}
            onChange={(event) => setOptions(event.target.value)}
            onBlur={commitOptions}
          />
        </label>
      ) : null}
    </div>
  );
}
