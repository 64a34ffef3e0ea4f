import {
  useId,
  type InputHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

type FieldProps = {
  label: string;
  hint?: string;
  error?: string;
  children: (id: string, describedBy: string | undefined) => ReactElement;
};

/** A labelled control with its hint and error, wired for screen readers. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children(id, describedBy)}
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** What a labelled control shows around it, and the value it edits. */
type Labelled = { label: string; hint?: string; error?: string; value: string; onValue: (value: string) => void };

export function TextField({
  label,
  hint,
  error,
  value,
  onValue,
  className = '',
  ...rest
}: Labelled & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(id, describedBy) => (
        <input
          {...rest}
          id={id}
          aria-describedby={describedBy}
          className={`input ${className}`}
          value={value}
          onChange={(event) => onValue(event.target.value)}
        />
      )}
    </Field>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  value,
  onValue,
  className = '',
  ...rest
}: Labelled & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'value' | 'onChange'>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(id, describedBy) => (
        <textarea
          {...rest}
          id={id}
          aria-describedby={describedBy}
          className={`input textarea ${className}`}
          value={value}
          onChange={(event) => onValue(event.target.value)}
        />
      )}
    </Field>
  );
}

export type Option = { value: string; label: string };

export function SelectField({
  label,
  hint,
  error,
  value,
  onValue,
  options,
  ...rest
}: Labelled & { options: Option[] } & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange'>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(id, describedBy) => (
        <select
          {...rest}
          id={id}
          aria-describedby={describedBy}
          className="input"
          value={value}
          onChange={(event) => onValue(event.target.value)}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A file picker; a new `resetKey` empties it. */
export function FileField({
  label,
  hint,
  error,
  accept,
  onFile,
  resetKey,
}: {
  label: string;
  hint?: string;
  error?: string;
  accept: string;
  onFile: (file: File | undefined) => void;
  resetKey?: number;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(id, describedBy) => (
        <input
          key={resetKey}
          id={id}
          aria-describedby={describedBy}
          className="input"
          type="file"
          accept={accept}
          onChange={(event) => onFile(event.target.files?.[0])}
        />
      )}
    </Field>
  );
}

export function CheckboxField({
  label,
  hint,
  checked,
  onChecked,
  disabled,
}: {
  label: string;
  hint?: ReactNode;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="checkbox-field">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChecked(event.target.checked)}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
        <span>{label}</span>
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="field-hint checkbox-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
