import { useEffect, useState } from 'react';
import type { TBrand } from '../../../shared/api/brand';
import { accentContrast, DEFAULT_ACCENT, MIN_ACCENT_CONTRAST } from '../../../shared/brand';
import { FileField, TextField } from '../../components/fields';
import { Button, Card, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getBlob, getJson, request, sendJson } from '../../lib/api';
import { useHasChanged } from '../../lib/forms';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/**
 * The logo as parties get it, for an <img>: the admin API needs its version header, so the
 * PNG is fetched and shown from a blob URL (the admin CSP allows blob: images).
 */
function useLogoUrl(brand: TBrand | undefined): string | undefined {
  const [made, setMade] = useState<{ sha256: string; url: string }>();
  const sha256 = brand?.logo?.sha256;
  useEffect(() => {
    if (!sha256) return;
    let url: string | undefined;
    let isCurrent = true;
    void getBlob('/api/settings/brand/logo', 'image/png').then(
      (blob) => {
        if (!isCurrent) return;
        url = URL.createObjectURL(blob);
        setMade({ sha256, url });
      },
      () => undefined,
    );
    return () => {
      isCurrent = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [sha256]);
  // A URL made for another logo (or for one since removed) is not shown.
  return made && made.sha256 === sha256 ? made.url : undefined;
}

/** What the accent field says as it is typed: its contrast, or why the server would refuse it. */
function accentVerdict(accent: string): { ratio?: number; isValid: boolean } {
  if (accent.trim() === '') return { isValid: true };
  const ratio = accentContrast(accent.trim().toLowerCase());
  return { ratio, isValid: ratio !== undefined && ratio >= MIN_ACCENT_CONTRAST };
}

/** The office's brand: the accent colour and logo parties see, with a live preview of the signing page's top. */
export function BrandSettings() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TBrand>('/api/settings/brand', signal), []);
  const [accent, setAccent] = useState('');
  const [notice, setNotice] = useState<string>();
  const [fileKey, setFileKey] = useState(0);
  const action = useAction<'save' | 'logo' | 'remove'>();
  const logoUrl = useLogoUrl(loaded.data);
  const isNewlyLoaded = useHasChanged(loaded.data);
  if (isNewlyLoaded && loaded.data) setAccent(loaded.data.accent_color ?? '');
  if (!loaded.data)
    return <Card title={t('brand.title')}>{loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}</Card>;
  const brand = loaded.data;
  const verdict = accentVerdict(accent);
  // The preview follows the field while what it holds would be accepted; else the accent in force.
  const shown = verdict.isValid && accent.trim() ? accent.trim().toLowerCase() : brand.effective_accent_color;
  const accentNote =
    verdict.ratio === undefined
      ? accent.trim()
        ? t('brand.accentInvalid')
        : undefined
      : t(verdict.isValid ? 'brand.accentContrast' : 'brand.accentTooPale', { ratio: verdict.ratio.toFixed(2) });
  const save = action.submit('save', async () => {
    setNotice(undefined);
    await sendJson('PUT', '/api/settings/brand', { accent_color: accent.trim() || null });
    setNotice(t('state.saved'));
    await loaded.reload();
  });
  const upload = (file: File | undefined) => {
    if (!file) return;
    void action.run('logo', async () => {
      setNotice(undefined);
      const type = file.type || (file.name.toLowerCase().endsWith('.svg') ? 'image/svg+xml' : 'image/png');
      await request('PUT', '/api/settings/brand/logo', { raw: file, contentType: type });
      setNotice(t('brand.logoSaved'));
      setFileKey((key) => key + 1);
      await loaded.reload();
    });
  };
  const remove = () =>
    void action.run('remove', async () => {
      setNotice(undefined);
      await sendJson('DELETE', '/api/settings/brand/logo');
      await loaded.reload();
    });
  return (
    <form onSubmit={save} noValidate>
      <Card title={t('brand.title')} description={t('brand.description')} className="panel-brand">
        <ProblemAlert error={action.error} />
        {notice && !action.error ? <Notice tone="success">{notice}</Notice> : null}
        <div className="form-grid">
          <div className="brand-accent">
            <TextField
              label={t('brand.accent')}
              hint={[t('brand.accentHint'), accentNote].filter(Boolean).join(' ')}
              error={action.errors.accent_color}
              value={accent}
              onValue={setAccent}
              className="mono"
              placeholder={DEFAULT_ACCENT}
              aria-invalid={!verdict.isValid || undefined}
            />
            <input
              type="color"
              className="brand-swatch"
              aria-label={t('brand.accentPicker')}
              value={shown}
              onChange={(event) => setAccent(event.target.value)}
            />
          </div>
          <FileField
            label={t('brand.logo')}
            hint={t('brand.logoHint')}
            // The upload's refusal names the request body: it is this field's.
            error={action.errors.body}
            accept=".png,.svg,image/png,image/svg+xml"
            onFile={upload}
            resetKey={fileKey}
          />
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={action.busy === 'save'} disabled={!verdict.isValid}>
            {t('action.save')}
          </Button>
          {brand.logo ? (
            <Button onClick={remove} isBusy={action.busy === 'remove'}>
              {t('brand.removeLogo')}
            </Button>
          ) : null}
        </div>
        <section className="brand-preview" aria-label={t('brand.preview')} data-testid="brand-preview">
          <p className="muted small">{t('brand.preview')}</p>
          <div className="brand-preview-bar" style={{ borderTopColor: shown }}>
            {logoUrl ? (
              <img className="brand-preview-logo" src={logoUrl} alt={t('brand.logoAlt')} />
            ) : (
              <span className="muted small">{t('brand.noLogo')}</span>
            )}
            <strong className="brand-preview-name">{brand.office_name}</strong>
          </div>
          <p className="brand-preview-document">{t('brand.previewDocument')}</p>
          <div className="brand-preview-actions">
            <span className="brand-preview-button" style={{ background: shown }} data-testid="brand-preview-button">
              {t('brand.previewSign')}
            </span>
            <span className="brand-preview-link" style={{ color: shown }}>
              {t('brand.previewLink')}
            </span>
          </div>
        </section>
      </Card>
    </form>
  );
}
