import type { PDFFont } from 'pdf-lib';
import { BODY, DARK, LEADING, MARGIN, MONO, MUTED, PANEL, RULE } from './audit-style';
import type { AuditCanvas } from './audit-canvas';
import type { AuditTrailContext, Block } from './draw-audit-trail';
import { formatAuditTime } from './format-audit-time';
import { widthOf } from './seal-fonts';
import type { SignedPdfEvent } from './signed-pdf-types';
import type { TextWriter } from './text-writer';

const SMALL = 8;
const SEQUENCE_WIDTH = 30;
const TIME_WIDTH = 118;
/** Events of a draft before it was sent, other than its creation: one line in the trail, each in the log. */
const PREPARATION = /^(contract\.updated|party\.(added|changed|removed)|annotation\.|attachment\.)/;

/** The trusted-timestamp line of the document panel (none when the caller said nothing about timestamps). */
export function timestampRow({ labels, audit }: AuditTrailContext): { label: string; value: string }[] {
  if (audit.timestampAuthority === undefined) return [];
  return [
    {
      label: labels.t('timestamp'),
      value: audit.timestampAuthority
        ? labels.t('timestampRequested', { url: audit.timestampAuthority })
        : labels.t('timestampNone'),
    },
  ];
}

/** The attachments with their hashes, the events of the activity log, and the head of its hash chain. */
export function evidenceBlocks(context: AuditTrailContext, width: number): Block[] {
  const { audit, labels } = context;
  const blocks: Block[] = [];
  if (audit.attachments && audit.attachments.length > 0) {
    blocks.push(heading(context, labels.t('attachments', { n: audit.attachments.length }), width));
    for (const attachment of audit.attachments) blocks.push(attachmentBlock(context, attachment, width));
  }
  if (audit.partyFiles && audit.partyFiles.length > 0) {
    blocks.push(heading(context, labels.t('partyFiles', { n: audit.partyFiles.length }), width));
    for (const file of audit.partyFiles) blocks.push(attachmentBlock(context, file, width));
  }
  if (audit.events && audit.events.length > 0) {
    blocks.push(heading(context, labels.t('events'), width));
    for (const item of groupPreparation(audit.events)) {
      blocks.push(Array.isArray(item) ? preparationBlock(context, item, width) : eventBlock(context, item, width));
    }
  }
  if (audit.chainHead) blocks.push({ ...chainBlock(context, audit.chainHead, width), keepWithPrevious: true });
  return blocks;
}

function heading({ fonts, writer }: AuditTrailContext, text: string, width: number): Block {
  return {
    height: 30,
    draw: (canvas, top) => {
      canvas.text(writer.renderable(fonts.bold, text), {
        x: MARGIN,
        y: top - 14 - 6,
        size: 12.5,
        font: fonts.bold,
        color: DARK,
      });
      canvas.line({
        start: { x: MARGIN, y: top - 27 },
        end: { x: MARGIN + width, y: top - 27 },
        thickness: 0.6,
        color: RULE,
      });
    },
  };
}

function attachmentBlock(
  { fonts, labels, writer }: AuditTrailContext,
  attachment: { name: string; size: number; sha256: string },
  width: number,
): Block {
  const name = writer.truncate(fonts.bold, writer.renderable(fonts.bold, attachment.name), BODY, width - 120);
  const size = writer.renderable(fonts.regular, labels.t('size', { bytes: attachment.size }));
  const hash = `SHA-256 ${attachment.sha256.toLowerCase()}`;
  return {
    height: 2 * BODY * LEADING + 8,
    draw: (canvas, top) => {
      canvas.text(name, { x: MARGIN, y: top - BODY - 2, size: BODY, font: fonts.bold, color: DARK, direction: 'auto' });
      canvas.text(size, {
        x: MARGIN + width - writer.width(fonts.regular, size, SMALL),
        y: top - BODY - 2,
        size: SMALL,
        font: fonts.regular,
        color: MUTED,
      });
      canvas.text(hash, {
        x: MARGIN,
        y: top - 2 * BODY * LEADING - 2,
        size: MONO,
        font: fonts.mono,
        color: MUTED,
        direction: 'auto',
      });
    },
  };
}

/** The events in order, with each run of preparation entries (before the contract was sent) folded into one. */
function groupPreparation(events: readonly SignedPdfEvent[]): (SignedPdfEvent | SignedPdfEvent[])[] {
  const items: (SignedPdfEvent | SignedPdfEvent[])[] = [];
  let isSent = false;
  for (const event of events) {
    if (event.event === 'contract.sent') isSent = true;
    const last = items.at(-1);
    if (!isSent && PREPARATION.test(event.event)) {
      if (Array.isArray(last)) last.push(event);
      else items.push([event]);
    } else {
      items.push(event);
    }
  }
  return items;
}

/** The event's details as readable items: "typed name: C. Carter", "silent (no message sent)". */
function detailItems({ labels }: AuditTrailContext, event: SignedPdfEvent): string[] {
  return Object.entries(event.details)
    .map(([key, value]) => {
      const shown = key === 'authentication' ? labels.authentication(value) : labels.value(value);
      return key === 'silent' || key === 'auto_sign'
        ? value === 'true'
          ? labels.detail(key)
          : ''
        : `${labels.detail(key)}: ${shown}`;
    })
    .filter(Boolean);
}

/** Items joined by " · " into lines, breaking between items where it can (an item too long for a line is wrapped). */
function packItems(writer: TextWriter, font: PDFFont, items: string[], size: number, width: number): string[] {
  const lines: string[] = [];
  for (const item of items.map((text) => writer.renderable(font, text))) {
    const last = lines.at(-1);
    const joined = last === undefined ? item : `${last} · ${item}`;
    if (last !== undefined && writer.width(font, joined, size) <= width) lines[lines.length - 1] = joined;
    else lines.push(...writer.wrap(font, item, size, width));
  }
  return lines;
}

function eventBlock(context: AuditTrailContext, event: SignedPdfEvent, width: number): Block {
  const { fonts, labels, audit, writer } = context;
  const textX = SEQUENCE_WIDTH + TIME_WIDTH;
  const textWidth = width - textX;
  const hash = event.hash.slice(0, 16);
  const label = labels.event(event.event) ?? event.event;
  const title = `${event.about ? `${label}: ${event.about}` : label} · ${event.actor || labels.t('appliance')}`;
  const titleLine = writer.truncate(
    fonts.bold,
    writer.renderable(fonts.bold, title),
    BODY,
    textWidth - widthOf(fonts.mono, hash, 7) - 8,
  );
  const lines = packItems(writer, fonts.regular, detailItems(context, event), SMALL, textWidth)
    .filter(Boolean)
    .slice(0, 4);
  const origin = [event.ipAddress && labels.t('from', { address: event.ipAddress }), event.userAgent]
    .filter(Boolean)
    .join(' · ');
  if (origin) lines.push(writer.truncate(fonts.regular, writer.renderable(fonts.regular, origin), SMALL, textWidth));
  const height = BODY * LEADING + lines.length * SMALL * LEADING + 7;
  return {
    height,
    draw: (canvas: AuditCanvas, top: number) => {
      const baseline = top - BODY;
      canvas.text(`#${event.sequence}`, {
        x: MARGIN,
        y: baseline,
        size: SMALL,
        font: fonts.mono,
        color: MUTED,
        direction: 'auto',
      });
      const time = formatAuditTime(event.time, audit.timeZone) ?? '—';
      canvas.text(time, {
        x: MARGIN + SEQUENCE_WIDTH,
        y: baseline,
        size: SMALL,
        font: fonts.regular,
        color: DARK,
        direction: 'auto',
      });
      canvas.text(titleLine, { x: MARGIN + textX, y: baseline, size: BODY, font: fonts.bold, color: DARK });
      canvas.text(hash, {
        x: MARGIN + width - widthOf(fonts.mono, hash, 7),
        y: baseline,
        size: 7,
        font: fonts.mono,
        color: MUTED,
        direction: 'auto',
      });
      lines.forEach((line, index) =>
        canvas.text(line, {
          x: MARGIN + textX,
          y: baseline - BODY * LEADING - index * SMALL * LEADING + 1,
          size: SMALL,
          font: fonts.regular,
          color: MUTED,
        }),
      );
      canvas.line({
        start: { x: MARGIN, y: top - height + 2 },
        end: { x: MARGIN + width, y: top - height + 2 },
        thickness: 0.3,
        color: RULE,
      });
    },
  };
}

function preparationBlock(context: AuditTrailContext, events: SignedPdfEvent[], width: number): Block {
  const { fonts, labels, writer } = context;
  const textX = SEQUENCE_WIDTH + TIME_WIDTH;
  const lines = writer.wrap(
    fonts.regular,
    labels.t('preparation', { from: String(events[0]!.sequence), to: String(events.at(-1)!.sequence) }),
    SMALL,
    width - textX,
  );
  const height = lines.length * SMALL * LEADING + 9;
  return {
    height,
    draw: (canvas, top) => {
      canvas.text(`#${events[0]!.sequence}`, {
        x: MARGIN,
        y: top - BODY,
        size: SMALL,
        font: fonts.mono,
        color: MUTED,
        direction: 'auto',
      });
      lines.forEach((line, index) =>
        canvas.text(line, {
          x: MARGIN + textX,
          y: top - BODY - index * SMALL * LEADING,
          size: SMALL,
          font: fonts.regular,
          color: MUTED,
        }),
      );
      canvas.line({
        start: { x: MARGIN, y: top - height + 2 },
        end: { x: MARGIN + width, y: top - height + 2 },
        thickness: 0.3,
        color: RULE,
      });
    },
  };
}

function chainBlock(
  { fonts, labels, writer, colors }: AuditTrailContext,
  head: { sequence: number; hash: string },
  width: number,
): Block {
  const inner = width - 24;
  const note = writer.wrap(fonts.regular, labels.t('chainNote', { sequence: String(head.sequence) }), SMALL, inner);
  const hashLine = `#${head.sequence}  ${head.hash.toLowerCase()}`;
  const panel = 16 + BODY * LEADING + MONO * LEADING + 6 + note.length * SMALL * LEADING + 8;
  return {
    height: panel + 16,
    draw: (canvas, top) => {
      const y = top - 8;
      canvas.rect({ x: MARGIN, y: y - panel, width, height: panel, color: PANEL });
      canvas.text(`${labels.t('chain')} · ${labels.t('chainHead')}`, {
        x: MARGIN + 12,
        y: y - 16,
        size: BODY,
        font: fonts.bold,
        color: colors.ink,
      });
      canvas.text(hashLine, {
        x: MARGIN + 12,
        y: y - 16 - BODY * LEADING - 2,
        size: MONO,
        font: fonts.mono,
        color: DARK,
        direction: 'auto',
      });
      const noteTop = y - 16 - BODY * LEADING - MONO * LEADING - 8;
      note.forEach((line, index) =>
        canvas.text(line, {
          x: MARGIN + 12,
          y: noteTop - index * SMALL * LEADING,
          size: SMALL,
          font: fonts.regular,
          color: MUTED,
        }),
      );
    },
  };
}
