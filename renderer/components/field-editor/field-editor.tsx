import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { AnnotationType } from '../../../shared/api/enums';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { Loading, Notice, ProblemAlert } from '../ui';
import { EditorPage } from './editor-page';
import { EditorToolbar, type Owner } from './editor-toolbar';
import { FieldBoxView } from './field-box';
import { boxAt, type EditorField, type FieldBox } from './geometry';
import { colourOf } from './owner-colours';
import { useFieldEditing, type FieldStore } from './use-field-editing';
import { usePdfDocument } from './use-pdf-document';

export type { Owner } from './editor-toolbar';

type Props = {
  /** The document's accessible name. */
  title: string;
  load: () => Promise<Blob>;
  version: string;
  owners: Owner[];
  /** The fields as loaded; the editor keeps them from then on. */
  initialFields: EditorField[];
  store: FieldStore;
  isReadOnly: boolean;
  /** Makes fields from the document's text tags; answers the fields made. */
  fromTags?: () => Promise<EditorField[]>;
  /** "Party" or "Role": whom fields are for. */
  ownerLegend: string;
  /** Shown instead of the tools while there is nobody to place fields for. */
  noOwnersHint: string;
};

const FIT_MIN = 0.4;
const FIT_MAX = 1.25;

/**
 * The field editor: every page of the PDF with the fields over it, each party (or role) in
 * its own colour. Every change is saved through `store` at once; read-only once sent.
 */
export function FieldEditor({
  title,
  load,
  version,
  owners,
  initialFields,
  store,
  isReadOnly,
  fromTags,
  ownerLegend,
  noOwnersHint,
}: Props) {
  const t = useT();
  const pdf = usePdfDocument(load, version);
  const editing = useFieldEditing(store, initialFields);
  const [owner, setOwner] = useState<string>();
  const [tool, setTool] = useState<AnnotationType>();
  const [selectedId, setSelectedId] = useState<string>();
  const [zoom, setZoom] = useState<number>();
  // The pages drawn at this zoom of this version (a new zoom or version draws them all again).
  const drawing = `${zoom}|${version}`;
  const [rendered, setRendered] = useState<{ drawing: string; pages: ReadonlySet<number> }>();
  const [made, setMade] = useState<number>();
  const tags = useAction();
  const frame = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);

  const currentOwner = owners.some((candidate) => candidate.id === owner) ? owner : owners[0]?.id;
  const sizes = useMemo(() => (pdf.kind === 'ready' ? pdf.sizes : []), [pdf]);
  // Until the person zooms, the pages fit the frame's width (a laptop, a window of 800 px).
  useLayoutEffect(() => {
    if (zoom !== undefined || sizes.length === 0 || !frame.current) return;
    const widest = Math.max(...sizes.map((size) => size.width));
    const fit = (frame.current.clientWidth - 24) / widest;
    setZoom(Math.min(FIT_MAX, Math.max(FIT_MIN, Math.floor(fit * 100) / 100)));
  }, [sizes, zoom]);

  // A field undo put back takes the focus once it is on the page again.
  const [focusTarget, setFocusTarget] = useState<string>();
  useLayoutEffect(() => {
    if (focusTarget === undefined) return;
    const box = frame.current?.querySelector<HTMLElement>(`[data-field-id="${focusTarget}"]`);
    if (!box) return;
    box.focus({ preventScroll: true });
    setFocusTarget(undefined);
  }, [focusTarget, editing.fields]);

  if (pdf.kind === 'failed') return <p className="pdf-error" role="alert">{`${t('pdf.failed')} ${pdf.message}`}</p>;
  const effectiveZoom = zoom ?? 1;
  const ownerIndex = (id: string) => owners.findIndex((candidate) => candidate.id === id);
  const ownerName = (id: string) => owners[ownerIndex(id)]?.name ?? '?';
  const selected = editing.fields.find((field) => field.id === selectedId);

  const focusField = (id: string) =>
    requestAnimationFrame(() =>
      frame.current?.querySelector<HTMLElement>(`[data-field-id="${id}"]`)?.focus({ preventScroll: true }),
    );
  const placeField = (type: AnnotationType, page: number, box: FieldBox) => {
    if (!currentOwner) return;
    const options = type === 'DROPDOWN' || type === 'RADIO' ? [t('editor.optionA'), t('editor.optionB')] : null;
    const id = editing.create({
      owner: currentOwner,
      type,
      page,
      ...box,
      isRequired: true,
      label: '',
      hint: '',
      options,
    });
    setTool(undefined);
    setSelectedId(id);
    // The new field takes the focus, so the keys move it at once.
    focusField(id);
  };
  const place = (page: number, box: FieldBox) => {
    if (tool) placeField(tool, page, box);
  };
  const dropTool = (type: AnnotationType, clientX: number, clientY: number) => {
    const surface = document.elementFromPoint(clientX, clientY)?.closest('.editor-page');
    const page = Number(surface?.getAttribute('data-page'));
    const size = sizes[page - 1];
    if (!surface || !size) return;
    const rect = surface.getBoundingClientRect();
    placeField(
      type,
      page,
      boxAt(type, (clientX - rect.left) / effectiveZoom, (clientY - rect.top) / effectiveZoom, size),
    );
  };
  /** Removes a field; the keyboard goes on from the next field in reading order, else the one before, else the tools. */
  const removeField = (id: string) => {
    const inReadingOrder = [...editing.fields].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
    const at = inReadingOrder.findIndex((field) => field.id === id);
    const next = at < 0 ? undefined : (inReadingOrder[at + 1] ?? inReadingOrder[at - 1]);
    const nextBox = next && frame.current?.querySelector<HTMLElement>(`[data-field-id="${next.id}"]`);
    editing.remove(id);
    setSelectedId(next?.id);
    if (nextBox) nextBox.focus({ preventScroll: true });
    else root.current?.querySelector<HTMLElement>('.editor-tools button')?.focus();
  };
  const undo = () =>
    void editing.undo().then((id) => {
      if (id === undefined) return;
      setSelectedId(id);
      setFocusTarget(id);
    });
  const runFromTags = () =>
    void tags.run('tags', async () => {
      if (!fromTags) return;
      const fields = await fromTags();
      editing.addMade(fields);
      setMade(fields.length);
    });
  const keyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z' && !isReadOnly) {
      event.preventDefault();
      undo();
    }
    if (event.key === 'Escape') setTool(undefined);
  };
  const fieldLabel = (field: EditorField) =>
    t(field.isRequired ? 'editor.fieldLabelRequired' : 'editor.fieldLabel', {
      type: field.label ? `${field.label} (${t(`fieldType.${field.type}`)})` : t(`fieldType.${field.type}`),
      owner: ownerName(field.owner),
      page: field.page,
    });
  const drawnCount = rendered?.drawing === drawing ? rendered.pages.size : 0;
  const isAllDrawn = sizes.length > 0 && drawnCount >= sizes.length;

  return (
    // Not a control itself: it catches the editor's shortcuts (undo, delete, Escape) bubbling up
    // from the focused field or tool.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div className="field-editor" onKeyDown={keyDown} ref={root}>
      {isReadOnly ? null : (
        <>
          <EditorToolbar
            owners={owners}
            owner={currentOwner}
            onOwner={setOwner}
            tool={tool}
            onTool={setTool}
            onToolDrop={dropTool}
            selected={selected}
            onRequired={(isRequired) => selected && editing.change(selected.id, { isRequired })}
            onTexts={(texts) => selected && editing.change(selected.id, texts)}
            onSelectedOwner={(next) => selected && editing.change(selected.id, { owner: next })}
            onDelete={() => selected && removeField(selected.id)}
            canUndo={editing.canUndo}
            onUndo={undo}
            zoom={effectiveZoom}
            onZoom={setZoom}
            fromTags={fromTags ? { isBusy: tags.busy === 'tags', run: runFromTags } : undefined}
            ownerLegend={ownerLegend}
          />
          <p className="editor-hint small muted">
            {owners.length === 0
              ? noOwnersHint
              : tool
                ? t('editor.placeHint', { type: t(`fieldType.${tool}`) })
                : t('editor.hint')}
          </p>
        </>
      )}
      <div className="editor-status" role="status" aria-live="polite">
        {editing.isSaving ? t('editor.saving') : null}
        {made !== undefined && !tags.error
          ? made === 0
            ? t('editor.fromTagsNone')
            : t('editor.fromTagsMade', { n: made })
          : null}
      </div>
      <ProblemAlert error={tags.error} onDismiss={tags.dismiss} />
      {editing.error ? (
        <Notice tone="warning" title={t('editor.saveFailed')}>
          {editing.error.message}
          {editing.error.validationErrors.length > 0 ? ` (${editing.error.validationErrors.join('; ')})` : ''}
        </Notice>
      ) : null}
      <div
        ref={frame}
        className="editor-frame pdf-pages"
        // Focusable, so that the pages scroll with the keyboard (a scrolling region must be).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        role="group"
        aria-label={title}
        data-pages={isAllDrawn ? sizes.length : undefined}
      >
        {pdf.kind === 'loading' || zoom === undefined ? <Loading label={t('pdf.loading')} /> : null}
        {pdf.kind === 'ready' && zoom !== undefined
          ? pdf.sizes.map((size, index) => {
              const number = index + 1;
              return (
                <EditorPage
                  key={number}
                  document={pdf.document}
                  number={number}
                  size={size}
                  zoom={zoom}
                  tool={isReadOnly ? undefined : tool}
                  label={
                    tool
                      ? t('editor.pagePlacing', { page: number, pages: sizes.length, type: t(`fieldType.${tool}`) })
                      : t('pdf.page', { page: number, pages: sizes.length })
                  }
                  onPlace={(box) => place(number, box)}
                  onRendered={(drawn) =>
                    setRendered((current) => ({
                      drawing,
                      pages: new Set(current?.drawing === drawing ? current.pages : []).add(drawn),
                    }))
                  }
                >
                  {editing.fields
                    .filter((field) => field.page === number)
                    .map((field) => (
                      <FieldBoxView
                        key={field.id}
                        field={field}
                        zoom={zoom}
                        page={size}
                        colour={colourOf(ownerIndex(field.owner))}
                        text={`${field.label || t(`fieldType.${field.type}`)} · ${ownerName(field.owner)}`}
                        label={fieldLabel(field)}
                        isSelected={field.id === selectedId}
                        isReadOnly={isReadOnly}
                        onSelect={() => setSelectedId(field.id)}
                        onMoveLive={(box) => editing.moveLive(field.id, box)}
                        onCommit={(start) => editing.commitBox(field.id, start)}
                        onDelete={() => removeField(field.id)}
                      />
                    ))}
                </EditorPage>
              );
            })
          : null}
      </div>
    </div>
  );
}
