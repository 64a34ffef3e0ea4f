import { useRef, type PointerEvent } from 'react';
import { ANNOTATION_TYPES, type AnnotationType } from '../../../shared/api/enums';
import { useT } from '../../lib/i18n';
import { Button } from '../ui';
import type { EditorField } from './geometry';
import { colourOf } from './owner-colours';
import { FieldTextsEditor, type FieldTexts } from './field-texts';

export type Owner = { id: string; name: string };

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2];

type Props = {
  owners: Owner[];
  owner: string | undefined;
  onOwner: (owner: string) => void;
  tool: AnnotationType | undefined;
  onTool: (tool: AnnotationType | undefined) => void;
  /** A tool button pressed and dragged onto a page: the field goes where it is let go. */
  onToolDrop: (tool: AnnotationType, clientX: number, clientY: number) => void;
  selected: EditorField | undefined;
  onRequired: (isRequired: boolean) => void;
  onTexts: (texts: Partial<FieldTexts>) => void;
  onSelectedOwner: (owner: string) => void;
  onDelete: () => void;
  canUndo: boolean;
  onUndo: () => void;
  zoom: number;
  onZoom: (zoom: number) => void;
  fromTags: { isBusy: boolean; run: () => void } | undefined;
  ownerLegend: string;
};

/** The editor's controls: what to place and for whom, the chosen field's settings, undo, tags, zoom. */
export function EditorToolbar(props: Props) {
  const t = useT();
  const { owners, owner, tool, selected, zoom } = props;
  const hasOwners = owners.length > 0;
  // A press that became a drag onto a page also ends in a click on the button (it holds the pointer): that click is no choice of tool.
  const wasDragged = useRef(false);
  const pressFrom = (type: AnnotationType) => (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0 || !hasOwners) return;
    const startX = event.clientX;
    const startY = event.clientY;
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const release = (up: globalThis.PointerEvent) => {
      target.removeEventListener('pointerup', release);
      wasDragged.current = Math.hypot(up.clientX - startX, up.clientY - startY) > 6;
      if (wasDragged.current) props.onToolDrop(type, up.clientX, up.clientY);
    };
    target.addEventListener('pointerup', release);
  };
  const zoomOut = [...ZOOMS].reverse().find((step) => step < zoom - 0.01);
  const zoomIn = ZOOMS.find((step) => step > zoom + 0.01);
  return (
    <div className="editor-toolbar">
      <div className="editor-tools" role="group" aria-label={t('editor.fieldTypes')}>
        {ANNOTATION_TYPES.map((type) => (
          <button
            key={type}
            type="button"
            className={`editor-tool${tool === type ? ' is-active' : ''}`}
            aria-pressed={tool === type}
            disabled={!hasOwners}
            onPointerDown={pressFrom(type)}
            onClick={() => {
              if (wasDragged.current) wasDragged.current = false;
              else props.onTool(tool === type ? undefined : type);
            }}
          >
            <span className={`editor-tool-icon icon-${type.toLowerCase()}`} aria-hidden="true" />
            {t(`fieldType.${type}`)}
          </button>
        ))}
      </div>
      {hasOwners ? (
        <fieldset className="editor-owners">
          <legend>{props.ownerLegend}</legend>
          {owners.map((candidate, index) => (
            <label
              key={candidate.id}
              className={`editor-owner${owner === candidate.id ? ' is-active' : ''}`}
              style={{ '--owner-colour': colourOf(index) } as React.CSSProperties}
            >
              <input
                type="radio"
                name="editor-owner"
                checked={owner === candidate.id}
                onChange={() => props.onOwner(candidate.id)}
              />
              <span className="editor-owner-swatch" aria-hidden="true" />
              {candidate.name}
            </label>
          ))}
        </fieldset>
      ) : null}
      <div className="editor-actions">
        {selected ? (
          <div className="editor-selected" role="group" aria-label={t('editor.selectedField')}>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={selected.isRequired}
                onChange={(event) => props.onRequired(event.target.checked)}
              />
              <span>{t('editor.required')}</span>
            </label>
            <label className="editor-inline-select">
              <span>{props.ownerLegend}</span>
              <select value={selected.owner} onChange={(event) => props.onSelectedOwner(event.target.value)}>
                {owners.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.name}
                  </option>
                ))}
              </select>
            </label>
            <FieldTextsEditor key={selected.id} field={selected} onChange={props.onTexts} />
            <Button size="small" variant="danger" onClick={props.onDelete}>
              {t('editor.deleteField')}
            </Button>
          </div>
        ) : null}
        <Button size="small" onClick={props.onUndo} disabled={!props.canUndo} title={t('editor.undoHint')}>
          {t('editor.undo')}
        </Button>
        {props.fromTags ? (
          <Button
            size="small"
            onClick={props.fromTags.run}
            isBusy={props.fromTags.isBusy}
            disabled={!hasOwners}
            title={t('editor.fromTagsHint')}
          >
            {t('editor.fromTags')}
          </Button>
        ) : null}
        <div className="editor-zoom" role="group" aria-label={t('editor.zoom')}>
          <Button
            size="small"
            variant="ghost"
            onClick={() => zoomOut && props.onZoom(zoomOut)}
            disabled={!zoomOut}
            aria-label={t('editor.zoomOut')}
          >
            −
          </Button>
          <span className="editor-zoom-value" aria-live="polite">
            {Math.round(zoom * 100)} %
          </span>
          <Button
            size="small"
            variant="ghost"
            onClick={() => zoomIn && props.onZoom(zoomIn)}
            disabled={!zoomIn}
            aria-label={t('editor.zoomIn')}
          >
            +
          </Button>
        </div>
      </div>
    </div>
  );
}
