import type { ReactNode } from 'react';

type Props = {
  title: string;
  body: string;
  link?: { label: string; href: string } | undefined;
  action?: { label: string; onClick: () => void };
  children?: ReactNode;
};

/** A whole-page message: rejected, expired, not yet your turn, could not load. */
export function Notice({ title, body, link, action, children }: Props) {
  return (
    <main className="card narrow notice" aria-live="polite">
      <h1>{title}</h1>
      {body && <p>{body}</p>}
      {link && (
        <p>
          <a className="button primary" href={link.href} download>
            {link.label}
          </a>
        </p>
      )}
      {action && (
        <button type="button" className="primary" onClick={action.onClick}>
          {action.label}
        </button>
      )}
      {children}
    </main>
  );
}

/** Where the party stands once it answered (or as a viewer), in place of the answer controls. */
export function StatusPanel({ title, body, link, children }: Omit<Props, 'action'>) {
  return (
    <div className="status" role="status">
      <h2>{title}</h2>
      {body && <p>{body}</p>}
      {link && (
        <a className="button primary" href={link.href} download>
          {link.label}
        </a>
      )}
      {children}
    </div>
  );
}
