import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { boxAfterKey, clampBox, type EditorField, type FieldBox, type PageSize } from './geometry';

type Props = {
  field: EditorField;
  zoom: number;
  page: PageSize;
  colour: string;
  /** The visible text: the field's type and its owner, so colour is never the only cue. */
  text: string;
  /** The accessible name: type, owner, page, required. */
  label: string;
  isSelected: boolean;
  isReadOnly: boolean;
  onSelect: () => void;
  onMoveLive: (box: FieldBox) => void;
  /** A drag or a run of key presses ended: save, with where the field was before it (for undo). */
  onCommit: (start: FieldBox) => void;
  onDelete: () => void;
};

/** Key presses closer than this are one change (one save, one undo). */
const NUDGE_SETTLE_MS = 500;

const boxOf = (field: EditorField): FieldBox => ({ x: field.x, y: field.y, width: field.width, height: field.height });

/**
 * One field over its page: dragged to move, its corner handle dragged to resize (mouse, pen
 * and touch alike, through pointer events); focused, the arrow keys move it, Shift+arrows
 * resize it and Delete removes it.
 */
export function FieldBoxView({
  field,
  zoom,
  page,
  colour,
  text,
  label,
  isSelected,
  isReadOnly,
  onSelect,
  onMoveLive,
  onCommit,
  onDelete,
}: Props) {
  const drag = useRef<{
    kind: 'move' | 'resize';
    pointerX: number;
    pointerY: number;
    start: FieldBox;
    hasMoved: boolean;
  }>(undefined);
  const nudge = useRef<{ start: FieldBox; timer: ReturnType<typeof setTimeout> }>(undefined);
  const style = {
    left: field.x * zoom,
    top: field.y * zoom,
    width: field.width * zoom,
    height: field.height * zoom,
    '--owner-colour': colour,
  } as React.CSSProperties;

  if (isReadOnly) {
    return (
      <div
        className="editor-field is-read-only"
        style={style}
        role="img"
        aria-label={label}
        data-field-type={field.type}
      >
        <span className="editor-field-text" aria-hidden="true">
          {text}
        </span>
      </div>
    );
  }

  const startDrag = (kind: 'move' | 'resize', event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    event.preventDefault();
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    // The pointer's default (focus on press) is held back above, so the field takes the focus here: the keys work on it next.
    event.currentTarget.closest('button')?.focus({ preventScroll: true });
    drag.current = { kind, pointerX: event.clientX, pointerY: event.clientY, start: boxOf(field), hasMoved: false };
    onSelect();
  };
  const moveDrag = (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    if (!current) return;
    const dx = (event.clientX - current.pointerX) / zoom;
    const dy = (event.clientY - current.pointerY) / zoom;
    if (!current.hasMoved && Math.hypot(dx, dy) * zoom < 3) return;
    current.hasMoved = true;
    const { start } = current;
    onMoveLive(
      current.kind === 'move'
        ? clampBox({ ...start, x: start.x + dx, y: start.y + dy }, page)
        : clampBox({ ...start, width: start.width + dx, height: start.height + dy }, page),
    );
  };
  const endDrag = () => {
    const current = drag.current;
    drag.current = undefined;
    if (current?.hasMoved) onCommit(current.start);
  };
  const keyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      onDelete();
      return;
    }
    const next = boxAfterKey(
      boxOf(field),
      event.key,
      { isResize: event.shiftKey, isBig: event.ctrlKey || event.metaKey },
      page,
    );
    if (!next) return;
    event.preventDefault();
    const start = nudge.current?.start ?? boxOf(field);
    if (nudge.current) clearTimeout(nudge.current.timer);
    onMoveLive(next);
    nudge.current = {
      start,
      timer: setTimeout(() => {
        nudge.current = undefined;
        onCommit(start);
      }, NUDGE_SETTLE_MS),
    };
  };
  const settleNudges = () => {
    if (!nudge.current) return;
    clearTimeout(nudge.current.timer);
    const { start } = nudge.current;
    nudge.current = undefined;
    onCommit(start);
  };

  return (
    <button
      type="button"
      className={`editor-field${isSelected ? ' is-selected' : ''}`}
      style={style}
      aria-label={label}
      aria-pressed={isSelected}
      data-field-id={field.id}
      data-field-type={field.type}
      onFocus={onSelect}
      onBlur={settleNudges}
      onKeyDown={keyDown}
      onPointerDown={(event) => startDrag('move', event)}
      onPointerMove={moveDrag}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
    >
      <span className="editor-field-text">{text}</span>
      {field.isRequired ? (
        <span className="editor-field-required" aria-hidden="true">
          *
        </span>
      ) : null}
      <span
        className="editor-field-handle"
        aria-hidden="true"
        onPointerDown={(event) => startDrag('resize', event)}
        onPointerMove={moveDrag}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      />
    </button>
  );
}
