import { useId, useRef } from 'react';
import { END_OF_DAY } from '../lib/date-input';
import { useT } from '../lib/i18n';

type Props = {
  legend: string;
  hint?: string;
  error?: string;
  date: string;
  time: string;
  onChange: (value: { date: string; time: string }) => void;
};

/**
 * A date typed as YYYY-MM-DD (or picked from the browser's calendar, which only fills the text)
 * and a 24-hour HH:MM time, in the office's time zone.
 */
export function DateTimeField({ legend, hint, error, date, time, onChange }: Props) {
  const t = useT();
  const id = useId();
  const picker = useRef<HTMLInputElement>(null);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const openPicker = () => {
    const input = picker.current;
    if (!input) return;
    try {
      input.showPicker();
    } catch {
      input.focus();
    }
  };
  return (
    <fieldset className={`field date-time-field ${error ? 'field-invalid' : ''}`} aria-describedby={describedBy}>
      <legend className="field-label">{legend}</legend>
      <div className="date-time-row">
        <label className="date-time-part">
          <span className="field-sublabel">{t('date.date')}</span>
          <input
            className="input mono"
            inputMode="numeric"
            placeholder="YYYY-MM-DD"
            maxLength={10}
            value={date}
            onChange={(event) => onChange({ date: event.target.value, time })}
          />
        </label>
        <button
          type="button"
          className="button button-secondary date-pick"
          onClick={openPicker}
          aria-label={t('date.pick')}
          title={t('date.pick')}
        >
          <span aria-hidden="true">▦</span>
        </button>
        <input
          ref={picker}
          type="date"
          className="date-picker-native"
          tabIndex={-1}
          aria-hidden="true"
          value={/^\d{4}-\d{2}-\d{2}$/.test(date) ? date : ''}
          onChange={(event) => event.target.value && onChange({ date: event.target.value, time })}
        />
        <label className="date-time-part date-time-clock">
          <span className="field-sublabel">{t('date.time')}</span>
          <input
            className="input mono"
            inputMode="numeric"
            placeholder={END_OF_DAY}
            maxLength={5}
            value={time}
            onChange={(event) => onChange({ date, time: event.target.value })}
          />
        </label>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
