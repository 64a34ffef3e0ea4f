import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { AnnotationType } from '../../../shared/api/enums';
import { boxAt, boxBetween, type FieldBox, type PageSize } from './geometry';
import { useLatest } from '../../lib/use-latest';

type Props = {
  document: PDFDocumentProxy;
  number: number;
  size: PageSize;
  zoom: number;
  /** The page's accessible name (and, with a tool chosen, how to place on it). */
  label: string;
  /** The field type being placed, if any: a click or a drag on the page places one. */
  tool: AnnotationType | undefined;
  onPlace: (box: FieldBox) => void;
  onRendered: (number: number) => void;
  children: ReactNode;
};

/**
 * One page: drawn by pdf.js at the zoom (sharp on high-density screens), with the fields laid
 * over it. With a tool chosen, a click places a field of the usual size there, a drag draws
 * one, and Enter places one in the middle of the page (the keyboard's way).
 */
export function EditorPage({ document, number, size, zoom, label, tool, onPlace, onRendered, children }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const surface = useRef<HTMLDivElement>(null);
  const [ghost, setGhost] = useState<FieldBox>();
  const dragFrom = useRef<{ x: number; y: number }>(undefined);
  const onRenderedRef = useLatest(onRendered);

  useEffect(() => {
    let isCurrent = true;
    let task: { cancel: () => void } | undefined;
    (async () => {
      const page = await document.getPage(number);
      const target = canvas.current;
      if (!isCurrent || !target) return;
      const density = Math.min(window.devicePixelRatio || 1, 2);
      const viewport = page.getViewport({ scale: zoom * density });
      target.width = Math.floor(viewport.width);
      target.height = Math.floor(viewport.height);
      const rendering = page.render({ canvas: target, viewport });
      task = rendering;
      await rendering.promise;
      if (isCurrent) onRenderedRef.current(number);
    })().catch(() => {
      // A render cancelled by a newer zoom is no failure; a broken page stays blank over its fields.
    });
    return () => {
      isCurrent = false;
      task?.cancel();
    };
  }, [document, number, zoom, onRenderedRef]);

  const pointAt = (event: PointerEvent) => {
    const rect = (surface.current as HTMLDivElement).getBoundingClientRect();
    return { x: (event.clientX - rect.left) / zoom, y: (event.clientY - rect.top) / zoom };
  };
  const down = (event: PointerEvent<HTMLDivElement>) => {
    if (!tool || event.button !== 0 || event.target !== surface.current) return;
    event.preventDefault();
    surface.current.setPointerCapture(event.pointerId);
    dragFrom.current = pointAt(event);
  };
  const move = (event: PointerEvent<HTMLDivElement>) => {
    if (!tool || !dragFrom.current) return;
    setGhost(boxBetween(tool, dragFrom.current, pointAt(event), size));
  };
  const up = (event: PointerEvent<HTMLDivElement>) => {
    const from = dragFrom.current;
    dragFrom.current = undefined;
    setGhost(undefined);
    if (tool && from) onPlace(boxBetween(tool, from, pointAt(event), size));
  };
  const key = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!tool || event.target !== surface.current || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    onPlace(boxAt(tool, size.width / 2, size.height / 2, size));
  };

  const width = size.width * zoom;
  const height = size.height * zoom;
  return (
    <div className="editor-page" style={{ width, height }} data-page={number}>
      <canvas ref={canvas} className="pdf-page" style={{ width, height }} aria-hidden="true" />
      {/* With a tool chosen the page is where a pointer or Enter places a field; it stays a
          labelled group so that a screen reader keeps its own keys inside (no role="application"). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={surface}
        className={`editor-surface${tool ? ' is-placing' : ''}`}
        role="group"
        aria-label={label}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- focusable only while placing (above)
        tabIndex={tool ? 0 : undefined}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={() => {
          dragFrom.current = undefined;
          setGhost(undefined);
        }}
        onKeyDown={key}
      >
        {children}
        {ghost ? (
          <div
            className="editor-ghost"
            style={{
              left: ghost.x * zoom,
              top: ghost.y * zoom,
              width: ghost.width * zoom,
              height: ghost.height * zoom,
            }}
          />
        ) : null}
      </div>
    </div>
  );
}
