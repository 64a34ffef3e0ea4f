type Props = {
  title: string;
  body: string;
  link?: { label: string; href: string } | undefined;
  action?: { label: string; onClick: () => void };
};

/** A whole-page message: signed, rejected, expired, not yet your turn. */
export function Notice({ title, body, link, action }: Props) {
  return (
    <main className="card narrow" aria-live="polite">
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
    </main>
  );
}
