import { useEffect, useId, useRef, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { ApiError } from '../lib/api';
import { useT } from '../lib/i18n';
import { bannerLines, type FormLabels } from '../lib/problem-lines';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  size?: 'small' | 'normal';
  isBusy?: boolean;
};

export function Button({
  variant = 'secondary',
  size = 'normal',
  isBusy = false,
  className = '',
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={`button button-${variant} ${size === 'small' ? 'button-small' : ''} ${className}`}
      disabled={disabled || isBusy}
      aria-busy={isBusy || undefined}
    >
      {isBusy ? <span className="spinner spinner-inline" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

export function EmptyState({ title, body, action }: { title: string; body?: string; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <div className="empty-state-mark" aria-hidden="true" />
      <h3>{title}</h3>
      {body ? <p>{body}</p> : null}
      {action ? <div className="empty-state-action">{action}</div> : null}
    </div>
  );
}

/**
 * A problem response, shown as the server worded it, with one line per invalid field. Given a
 * form's `labels`, a validation problem speaks the form's words instead: each field once, the
 * fields shown beside their controls left to them.
 */
export function ProblemAlert({
  error,
  onDismiss,
  labels,
}: {
  error: ApiError | Error | undefined;
  onDismiss?: () => void;
  labels?: FormLabels;
}) {
  const t = useT();
  if (!error) return null;
  const isApi = error instanceof ApiError;
  const lines = bannerLines(isApi ? error.validationErrors : [], labels);
  const isFormProblem = isApi && labels !== undefined && error.validationErrors.length > 0;
  const title = isFormProblem ? t('error.checkFields') : isApi ? error.title : t('error.generic');
  const detail = isFormProblem ? undefined : error.message;
  return (
    <div className="alert alert-danger" role="alert">
      <div className="alert-body">
        <strong className="alert-title">{title}</strong>
        {detail ? <p>{detail}</p> : null}
        {lines.length > 0 ? (
          <ul className="alert-lines">
            {lines.map((line) => (
              <li key={line.text}>{line.text}</li>
            ))}
          </ul>
        ) : null}
      </div>
      {onDismiss ? (
        <button type="button" className="alert-dismiss" onClick={onDismiss} aria-label={t('action.dismiss')}>
          ×
        </button>
      ) : null}
    </div>
  );
}

export function Notice({
  tone = 'info',
  title,
  children,
}: {
  tone?: 'info' | 'warning' | 'success' | 'danger';
  title?: string;
  children?: ReactNode;
}) {
  const isAlert = tone === 'warning' || tone === 'danger';
  return (
    <div className={`alert alert-${tone}`} role={isAlert ? 'alert' : 'status'}>
      <div className="alert-body">
        {title ? <strong className="alert-title">{title}</strong> : null}
        {children ? <div>{children}</div> : null}
      </div>
    </div>
  );
}

export function Loading({ label }: { label?: string }) {
  const t = useT();
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label ?? t('state.loading')}</span>
    </div>
  );
}

export function PageHeader({
  title,
  description,
  actions,
  back,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
  back?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div className="page-header-text">
        {back ? <div className="page-header-back">{back}</div> : null}
        <h1>{title}</h1>
        {description ? <p className="page-description">{description}</p> : null}
      </div>
      {actions ? <div className="page-header-actions">{actions}</div> : null}
    </header>
  );
}

export function Card({
  title,
  description,
  actions,
  children,
  className = '',
  isFlush = false,
}: {
  title?: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  isFlush?: boolean;
}) {
  const id = useId();
  return (
    <section className={`card ${className}`} aria-labelledby={title ? id : undefined}>
      {title || actions ? (
        <div className="card-header">
          <div>
            {title ? <h2 id={id}>{title}</h2> : null}
            {description ? <p className="card-description">{description}</p> : null}
          </div>
          {actions ? <div className="card-actions">{actions}</div> : null}
        </div>
      ) : null}
      <div className={isFlush ? 'card-body card-body-flush' : 'card-body'}>{children}</div>
    </section>
  );
}

/** A modal dialog on the native <dialog>: focus stays inside, Escape closes it. */
export function Dialog({
  title,
  isOpen,
  onClose,
  children,
  footer,
}: {
  title: string;
  isOpen: boolean;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const t = useT();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !isOpen) return;
    // Focus goes to the dialog's first field or button (not its ×), and back to the opener after.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>(
      '.dialog-body [autofocus], .dialog-body input, .dialog-body select, .dialog-body textarea, .dialog-footer button, .dialog-body button',
    );
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, [isOpen]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={id} onClose={onClose} onCancel={onClose}>
      {isOpen ? (
        <>
          <div className="dialog-header">
            <h2 id={id}>{title}</h2>
            <button type="button" className="dialog-close" onClick={onClose} aria-label={t('action.close')}>
              ×
            </button>
          </div>
          <div className="dialog-body">{children}</div>
          {footer ? <div className="dialog-footer">{footer}</div> : null}
        </>
      ) : null}
    </dialog>
  );
}

export function DescriptionList({ items }: { items: { term: string; value: ReactNode }[] }) {
  return (
    <dl className="description-list">
      {items.map((item) => (
        <div key={item.term} className="description-row">
          <dt>{item.term}</dt>
          <dd>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
