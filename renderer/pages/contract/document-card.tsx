import type { TContract } from '../../../shared/api/contracts';
import { PdfPreview } from '../../components/pdf-preview';
import { Card } from '../../components/ui';
import { getBlob } from '../../lib/api';
import { useT } from '../../lib/i18n';

/** An API URL (absolute on the public base URL) as a path on this origin, where the session cookie goes. */
const pathOf = (url: string) => new URL(url, window.location.origin).pathname;

/** The contract's PDF drawn in the page: the original, and once signed the sealed copy. */
export function DocumentCard({ contract, isSigned }: { contract: TContract; isSigned: boolean }) {
  const t = useT();
  const title = isSigned ? t('contract.signedDocument') : t('contract.document');
  const source = isSigned
    ? `${contract.self}/signed_pdf`
    : contract.pdf_preview_uri
      ? pathOf(contract.pdf_preview_uri)
      : undefined;
  return (
    <Card title={title} description={isSigned ? t('contract.signedDocumentHint') : undefined} className="split-side">
      {source ? (
        <PdfPreview
          title={title}
          version={`${source}|${contract.sent_time ?? ''}`}
          load={() => getBlob(source, 'application/pdf')}
        />
      ) : (
        <p className="muted">{t('contract.noDocument')}</p>
      )}
    </Card>
  );
}
