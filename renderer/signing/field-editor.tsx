import type { TSigningField } from '../../shared/api/signing';
import { answerProblem, fieldLabel, isMarkField, type FieldValue } from './fields';
import { FileAnswer } from './file-answer';
import type { SigningTranslate } from './i18n';
import type { Mark } from './mark';
import { MarkView } from './mark-view';

type Props = {
  field: TSigningField;
  value: FieldValue;
  today: string;
  mark: Mark | undefined;
  t: SigningTranslate;
  onChange: (value: FieldValue) => void;
  onMakeMark: () => void;
};

/** The field being filled in, at a size a thumb can use, with its label (and the office's hint) in words. */
export function FieldEditor({ field, value, today, mark, t, onChange, onMakeMark }: Props) {
  const id = `editor-${field.id}`;
  const label = fieldLabel(field, t);
  const hintId = field.hint ? `${id}-hint` : undefined;
  const hint = field.hint ? (
    <p id={hintId} className="muted field-hint">
      {field.hint}
    </p>
  ) : null;
  const text = typeof value === 'string' ? value : '';
  if (isMarkField(field)) {
    return (
      <div className="editor editor-mark">
        <span className="editor-label">{label}</span>
        {hint}
        {mark && (
          <span className="mark-preview">
            <MarkView mark={mark} isInitials={field.type === 'INITIALS'} />
          </span>
        )}
        <button type="button" className={mark ? 'secondary' : 'primary'} onClick={onMakeMark}>
          {mark ? t('changeSignature') : t('createSignature')}
        </button>
      </div>
    );
  }
  if (field.type === 'CHECKBOX') {
    return (
      <div className="editor">
        <div className="editor-check">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
            aria-required={field.isRequired}
            aria-describedby={hintId}
          />
          <label htmlFor={id}>{label}</label>
        </div>
        {hint}
      </div>
    );
  }
  if (field.type === 'DATE') {
    return (
      <div className="editor">
        <span className="editor-label">{label}</span>
        <p className="muted">{t('dateNote', { date: today })}</p>
      </div>
    );
  }
  if (field.type === 'ATTACHMENT') {
    return (
      <FileAnswer
        field={field}
        id={id}
        label={label}
        describedBy={hintId}
        hint={hint}
        value={value}
        t={t}
        onChange={onChange}
      />
    );
  }
  if (field.type === 'RADIO') {
    return (
      <fieldset className="editor editor-radio" aria-required={field.isRequired} aria-describedby={hintId}>
        <legend className="editor-label">{label}</legend>
        {hint}
        {(field.options ?? []).map((option, index) => (
          <label key={option} className="choice" htmlFor={`${id}-${index}`}>
            <input
              id={`${id}-${index}`}
              type="radio"
              name={id}
              value={option}
              checked={text === option}
              onChange={() => onChange(option)}
            />
            <span>{option}</span>
          </label>
        ))}
      </fieldset>
    );
  }
  const problem = answerProblem(field, value, t);
  const problemId = `${id}-problem`;
  const describedBy = [hintId, problem ? problemId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="editor">
      <label className="editor-label" htmlFor={id}>
        {label}
      </label>
      {hint}
      {field.type === 'DROPDOWN' ? (
        <select
          id={id}
          value={text}
          aria-required={field.isRequired}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{t('chooseOption')}</option>
          {(field.options ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={field.type === 'EMAIL' ? 'email' : 'text'}
          inputMode={field.type === 'NUMBER' ? 'decimal' : field.type === 'EMAIL' ? 'email' : undefined}
          value={text}
          maxLength={1000}
          autoComplete={field.type === 'NAME' ? 'name' : field.type === 'EMAIL' ? 'email' : 'off'}
          aria-required={field.isRequired}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {problem && (
        <p id={problemId} className="problem">
          {problem}
        </p>
      )}
    </div>
  );
}
