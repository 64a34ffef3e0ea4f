import type { TSigningState } from '../../shared/api/signing';
import { FieldOverlay, type FieldValues } from './fields';
import type { Strings } from './i18n';
import { PdfPage, usePdfDocument } from './pdf-document';

type Props = {
  state: TSigningState;
  text: Strings;
  values: FieldValues;
  signatureName: string;
  invalidIds: Set<number>;
  onChange: (fieldId: number, value: string | boolean) => void;
};

/** Every page of the PDF, this party's fields over it, and the attachments. */
export function DocumentView({ state, text, values, signatureName, invalidIds, onChange }: Props) {
  const { document, error } = usePdfDocument(state.contract.documentUrl);
  const pages = state.contract.pages;
  const fillable = state.fields.filter((field) => field.type !== 'SIGNATURE' && field.type !== 'INITIALS').length;
  return (
    <main className="document">
      <header className="document-header">
        <p className="eyebrow">{text.sentBy(state.officeName)}</p>
        <h1>{state.contract.name}</h1>
        {state.party.identityNumber && <p className="signing-as">{text.signingAs(state.party.name, state.party.identityNumber)}</p>}
        {fillable > 0 && <p>{text.yourFields(fillable)}</p>}
      </header>
      {error && (
        <p className="problem" role="alert">
          {text.loadFailed}
        </p>
      )}
      {pages.map((page, index) => (
        <PdfPage key={index} document={document} pageNumber={index + 1} width={page.width} height={page.height} label={text.pageOf(index + 1, pages.length)}>
          {state.fields
            .filter((field) => field.page === index + 1)
            .map((field) => (
              <FieldOverlay
                key={field.id}
                field={field}
                page={page}
                value={values[String(field.id)] ?? ''}
                signatureName={signatureName}
                text={text}
                isInvalid={invalidIds.has(field.id)}
                onChange={(value) => onChange(field.id, value)}
              />
            ))}
        </PdfPage>
      ))}
      {state.attachments.length > 0 && (
        <section className="attachments" aria-labelledby="attachments-title">
          <h2 id="attachments-title">{text.attachments}</h2>
          <ul>
            {state.attachments.map((attachment) => (
              <li key={attachment.url}>
                <a href={attachment.url} download>
                  {attachment.name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
