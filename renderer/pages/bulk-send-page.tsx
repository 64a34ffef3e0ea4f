import { useState } from 'react';
import type { TBulkParty, TBulkPreview, TBulkSend } from '../../shared/api/bulk-sends';
import type { TTemplate } from '../../shared/api/templates';
import { DataTable } from '../components/data-table';
import { FileField } from '../components/fields';
import { useUploadLimit } from '../lib/upload-limit';
import { Badge, Button, Card, Loading, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { getJson, idOf, request } from '../lib/api';
import { csvColumns, sampleCsv } from '../lib/bulk-csv';
import { useT } from '../lib/i18n';
import { Link } from '../lib/router';
import { useAction } from '../lib/use-action';
import { useLoad } from '../lib/use-load';

const STATE_TONE = { pending: 'info', sent: 'success', failed: 'danger' } as const;

const partyText = (party: TBulkParty) => [party.name, party.email, party.mobile_phone].filter(Boolean).join(' · ');

/** Downloads the sample CSV of a template's bulk send. */
function downloadSample(roles: number, roleNames: readonly string[], name: string): void {
  const blob = new Blob([sampleCsv(roles, roleNames, name)], { type: 'text/csv' });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `${name} (bulk send).csv`;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** What became of each row of a bulk send, followed live until every row is sent or failed. */
export function BulkReport({ path }: { path: string }) {
  const t = useT();
  const report = useLoad((signal) => getJson<TBulkSend>(path, signal), [path], { pollMs: 1500 });
  if (!report.data) return report.error ? <ProblemAlert error={report.error} /> : <Loading />;
  const { data } = report;
  return (
    <Card title={t('bulk.report')} isFlush>
      <p className="card-lead" role="status" aria-live="polite" data-pending={data.pending}>
        {t('bulk.progress', { sent: data.sent, failed: data.failed, pending: data.pending })}
      </p>
      <DataTable
        caption={t('bulk.report')}
        columns={[t('bulk.line'), t('bulk.contractName'), t('field.state'), t('bulk.problems')]}
      >
        {data.rows.map((row) => (
          <tr key={row.line} data-testid="bulk-row" data-state={row.state}>
            <td className="numeric">{row.line}</td>
            <td>
              {row.contract ? (
                <Link to={`/contracts/${idOf(row.contract)}`}>{row.contract_name}</Link>
              ) : (
                row.contract_name
              )}
            </td>
            <td>
              <Badge tone={STATE_TONE[row.state]}>{t(`bulk.state.${row.state}`)}</Badge>
            </td>
            <td className="small wrap">{row.error ?? '—'}</td>
          </tr>
        ))}
      </DataTable>
    </Card>
  );
}

/** Bulk send from a PDF template: a CSV chosen, its rows previewed with their problems, then sent, then the report. */
export function BulkSendPage({ id }: { id: string }) {
  const t = useT();
  const path = `/api/contract_templates/${id}`;
  const template = useLoad((signal) => getJson<TTemplate>(path, signal), [path]);
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<TBulkPreview>();
  const [sent, setSent] = useState<string>();
  const action = useAction<'preview' | 'send'>();
  const limit = useUploadLimit();
  if (!template.data) return template.error ? <ProblemAlert error={template.error} /> : <Loading />;
  const { name, roles, role_names: roleNames } = template.data;

  const choose = (chosen: File | undefined) => {
    setFile(chosen);
    setPreview(undefined);
    if (!chosen) return;
    void action.run('preview', async () => {
      limit.check(chosen, 'csv');
      setPreview(
        (await (
          await request('POST', `${path}/bulk_sends/preview`, { raw: chosen, contentType: 'text/csv' })
        ).json()) as TBulkPreview,
      );
    });
  };
  const send = () =>
    void action.run('send', async () => {
      if (!file) return;
      const batch = (await (
        await request('POST', `${path}/bulk_sends`, { raw: file, contentType: 'text/csv' })
      ).json()) as TBulkSend;
      setSent(batch.self);
    });

  return (
    <>
      <PageHeader
        title={t('bulk.title', { name })}
        back={<Link to={`/templates/${id}`}>← {name}</Link>}
        description={t('bulk.description')}
      />
      <ProblemAlert error={action.error} onDismiss={action.dismiss} />
      {sent ? (
        <BulkReport path={sent} />
      ) : (
        <>
          <Card title={t('bulk.fileStep')}>
            <p className="small">{t('bulk.format', { columns: csvColumns(roles, roleNames).join(', ') })}</p>
            <div>
              <Button size="small" onClick={() => downloadSample(roles, roleNames, name)}>
                {t('bulk.sample')}
              </Button>
            </div>
            <FileField label={t('bulk.file')} accept=".csv,text/csv" onFile={choose} />
            {action.busy === 'preview' ? <Loading label={t('bulk.reading')} /> : null}
          </Card>
          {preview ? (
            <Card title={t('bulk.rows')} isFlush>
              <div className="card-lead">
                <Notice tone={preview.invalid > 0 ? 'warning' : 'info'}>
                  {t('bulk.summary', { valid: preview.valid, invalid: preview.invalid })}
                </Notice>
              </div>
              <DataTable
                caption={t('bulk.rows')}
                columns={[
                  t('bulk.line'),
                  t('bulk.contractName'),
                  ...Array.from({ length: roles }, (_, index) => t('templates.role', { n: index + 1 })),
                  t('bulk.problems'),
                ]}
              >
                {preview.rows.map((row) => (
                  <tr key={row.line} data-testid="preview-row" data-valid={row.errors.length === 0}>
                    <td className="numeric">{row.line}</td>
                    <td>{row.contract_name}</td>
                    {row.parties.map((party) => (
                      <td key={party.role} className="small wrap">
                        {partyText(party) || '—'}
                      </td>
                    ))}
                    <td className="small wrap">
                      {row.errors.length === 0 ? (
                        <Badge tone="success">{t('bulk.ok')}</Badge>
                      ) : (
                        <span className="text-danger">{row.errors.join('; ')}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </DataTable>
              <div className="card-footer">
                <Button variant="primary" onClick={send} isBusy={action.busy === 'send'} disabled={preview.valid === 0}>
                  {t('bulk.send', { n: preview.valid })}
                </Button>
              </div>
            </Card>
          ) : null}
        </>
      )}
    </>
  );
}
