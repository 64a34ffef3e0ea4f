import { useCallback, useEffect, useRef, type PointerEvent as ReactPointerEvent } from 'react';

type Point = { x: number; y: number; width: number };
type Props = { label: string; clearLabel: string; onChange: (png: string | undefined) => void; height?: number };

const INK = '#0f2a7a';
/** The exported picture: at most this wide, trimmed to the ink. */
const EXPORT_WIDTH = 1200;

/**
 * A pad to sign on with a finger, a pen or the mouse (pointer events; a pen's pressure widens
 * the line). Each stroke is smoothed into quadratic curves through the midpoints of what the
 * pointer reported (coalesced events included, so fast strokes stay round). The result is a
 * PNG of the ink alone, on transparency, trimmed to its bounds.
 */
export function DrawPad({ label, clearLabel, onChange, height = 170 }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const strokes = useRef<Point[][]>([]);
  const active = useRef<Point[] | null>(null);

  const paint = useCallback((target: HTMLCanvasElement, scale: number, offset = { x: 0, y: 0 }) => {
    const context = target.getContext('2d');
    if (!context) return;
    context.clearRect(0, 0, target.width, target.height);
    context.strokeStyle = INK;
    context.fillStyle = INK;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    for (const stroke of strokes.current) drawStroke(context, stroke, scale, offset);
  }, []);

  const redraw = useCallback(() => {
    const target = canvas.current;
    if (!target) return;
    const ratio = window.devicePixelRatio || 1;
    const { width } = target.getBoundingClientRect();
    if (target.width !== Math.round(width * ratio)) {
      target.width = Math.round(width * ratio);
      target.height = Math.round(height * ratio);
    }
    paint(target, ratio);
  }, [height, paint]);

  useEffect(() => {
    redraw();
    const observer = new ResizeObserver(redraw);
    if (canvas.current) observer.observe(canvas.current);
    return () => observer.disconnect();
  }, [redraw]);

  const exportInk = () => {
    const points = strokes.current.flat();
    if (points.length === 0) return onChange(undefined);
    const pad = 6;
    const left = Math.min(...points.map((p) => p.x - p.width)) - pad;
    const top = Math.min(...points.map((p) => p.y - p.width)) - pad;
    const right = Math.max(...points.map((p) => p.x + p.width)) + pad;
    const bottom = Math.max(...points.map((p) => p.y + p.width)) + pad;
    const scale = Math.min(3, EXPORT_WIDTH / (right - left));
    const out = document.createElement('canvas');
    out.width = Math.max(1, Math.round((right - left) * scale));
    out.height = Math.max(1, Math.round((bottom - top) * scale));
    paint(out, scale, { x: left, y: top });
    onChange(out.toDataURL('image/png'));
  };

  const pointOf = (event: PointerEvent | ReactPointerEvent): Point => {
    const box = canvas.current!.getBoundingClientRect();
    const pressure = event.pointerType === 'pen' && event.pressure > 0 ? event.pressure : 0.5;
    return { x: event.clientX - box.left, y: event.clientY - box.top, width: 1.2 + pressure * 2.4 };
  };

  return (
    <div className="draw-pad">
      <canvas
        ref={canvas}
        className="draw-canvas"
        style={{ height }}
        role="img"
        aria-label={label}
        onPointerDown={(event) => {
          event.preventDefault();
          event.currentTarget.setPointerCapture(event.pointerId);
          active.current = [pointOf(event)];
          strokes.current.push(active.current);
          redraw();
        }}
        onPointerMove={(event) => {
          if (!active.current) return;
          const native = event.nativeEvent;
          const events = typeof native.getCoalescedEvents === 'function' ? native.getCoalescedEvents() : [];
          for (const each of events.length > 0 ? events : [native]) active.current.push(pointOf(each));
          redraw();
        }}
        onPointerUp={() => {
          if (!active.current) return;
          active.current = null;
          exportInk();
        }}
        onPointerCancel={() => {
          active.current = null;
          exportInk();
        }}
      />
      <button
        type="button"
        className="secondary small"
        onClick={() => {
          strokes.current = [];
          redraw();
          onChange(undefined);
        }}
      >
        {clearLabel}
      </button>
    </div>
  );
}

/** One stroke: a dot for a tap, else quadratic curves from midpoint to midpoint through each point. */
function drawStroke(
  context: CanvasRenderingContext2D,
  stroke: Point[],
  scale: number,
  offset: { x: number; y: number },
): void {
  const at = (point: Point) => [(point.x - offset.x) * scale, (point.y - offset.y) * scale] as const;
  const first = stroke[0];
  if (!first) return;
  if (stroke.length === 1) {
    const [x, y] = at(first);
    context.beginPath();
    context.arc(x, y, (first.width / 2) * scale, 0, Math.PI * 2);
    context.fill();
    return;
  }
  for (let index = 1; index < stroke.length; index += 1) {
    const before = stroke[index - 2] ?? first;
    const previous = stroke[index - 1]!;
    const point = stroke[index]!;
    const [startX, startY] = at({ ...before, x: (before.x + previous.x) / 2, y: (before.y + previous.y) / 2 });
    const [controlX, controlY] = at(previous);
    const [endX, endY] = at({ ...point, x: (previous.x + point.x) / 2, y: (previous.y + point.y) / 2 });
    context.lineWidth = ((previous.width + point.width) / 2) * scale;
    context.beginPath();
    context.moveTo(index === 1 ? at(first)[0] : startX, index === 1 ? at(first)[1] : startY);
    context.quadraticCurveTo(controlX, controlY, endX, endY);
    context.stroke();
  }
  const last = stroke.at(-1)!;
  const [lastX, lastY] = at(last);
  const [midX, midY] = at({ ...last, x: (stroke.at(-2)!.x + last.x) / 2, y: (stroke.at(-2)!.y + last.y) / 2 });
  context.beginPath();
  context.moveTo(midX, midY);
  context.lineTo(lastX, lastY);
  context.stroke();
}
