import type { PDFFont, PDFPage } from 'pdf-lib';
import { activityDetailLabel, activityEventLabel } from '../../shared/activity-events';
import { BODY, DARK, INK, LEADING, MARGIN, MONO, MUTED, PANEL, RULE } from './audit-style';
import type { AuditTrailContext, Block } from './draw-audit-trail';
import { truncateToWidth, wrapText } from './fit-text';
import { formatAuditTime } from './format-audit-time';
import { renderable, widthOf } from './seal-fonts';
import type { SignedPdfEvent } from './signed-pdf-types';

const SMALL = 8;
const SEQUENCE_WIDTH = 30;
const TIME_WIDTH = 118;
/** Events of a draft before it was sent, other than its creation: one line in the trail, each in the log. */
const PREPARATION = /^(contract\.updated|party\.(added|changed|removed)|annotation\.|attachment\.)/;

/** The trusted-timestamp line of the document panel (none when the caller said nothing about timestamps). */
export function timestampRow({ labels, audit }: AuditTrailContext, _width: number): { label: string; value: string }[] {
  if (audit.timestampAuthority === undefined) return [];
  return [
    {
      label: labels.timestamp,
      value: audit.timestampAuthority ? labels.timestampRequested(audit.timestampAuthority) : labels.timestampNone,
    },
  ];
}

/** The attachments with their hashes, the events of the activity log, and the head of its hash chain. */
export function evidenceBlocks(context: AuditTrailContext, width: number): Block[] {
  const { audit } = context;
  const blocks: Block[] = [];
  if (audit.attachments && audit.attachments.length > 0) {
    blocks.push(heading(context, `${context.labels.attachments} (${audit.attachments.length})`, width));
    for (const attachment of audit.attachments) blocks.push(attachmentBlock(context, attachment, width));
  }
  if (audit.partyFiles && audit.partyFiles.length > 0) {
    blocks.push(heading(context, `${context.labels.partyFiles} (${audit.partyFiles.length})`, width));
    for (const file of audit.partyFiles) blocks.push(attachmentBlock(context, file, width));
  }
  if (audit.events && audit.events.length > 0) {
    blocks.push(heading(context, context.labels.events, width));
    for (const item of groupPreparation(audit.events)) {
      blocks.push(Array.isArray(item) ? preparationBlock(context, item, width) : eventBlock(context, item, width));
    }
  }
  if (audit.chainHead) blocks.push({ ...chainBlock(context, audit.chainHead, width), keepWithPrevious: true });
  return blocks;
}

function heading({ fonts }: AuditTrailContext, text: string, width: number): Block {
  return {
    height: 30,
    draw: (page, top) => {
      page.drawText(renderable(fonts.bold, text), {
        x: MARGIN,
        y: top - 14 - 6,
        size: 12.5,
        font: fonts.bold,
        color: DARK,
      });
      page.drawLine({
        start: { x: MARGIN, y: top - 27 },
        end: { x: MARGIN + width, y: top - 27 },
        thickness: 0.6,
        color: RULE,
      });
    },
  };
}

function attachmentBlock(
  { fonts, labels }: AuditTrailContext,
  attachment: { name: string; size: number; sha256: string },
  width: number,
): Block {
  const name = truncateToWidth(fonts.bold, renderable(fonts.bold, attachment.name), BODY, width - 120);
  const size = labels.size(attachment.size);
  return {
    height: 2 * BODY * LEADING + 8,
    draw: (page, top) => {
      page.drawText(name, { x: MARGIN, y: top - BODY - 2, size: BODY, font: fonts.bold, color: DARK });
      page.drawText(size, {
        x: MARGIN + width - widthOf(fonts.regular, size, SMALL),
        y: top - BODY - 2,
        size: SMALL,
        font: fonts.regular,
        color: MUTED,
      });
      page.drawText(`SHA-256 ${attachment.sha256.toLowerCase()}`, {
        x: MARGIN,
        y: top - 2 * BODY * LEADING - 2,
        size: MONO,
        font: fonts.mono,
        color: MUTED,
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
function detailItems(context: AuditTrailContext, event: SignedPdfEvent): string[] {
  const { language } = context.labels;
  return Object.entries(event.details)
    .map(([key, value]) => {
      const shown =
        key === 'authentication'
          ? (context.labels.authentications[value] ?? value)
          : (context.labels.detailValues[value] ?? value);
      return key === 'silent' || key === 'auto_sign'
        ? value === 'true'
          ? activityDetailLabel(key, language)
          : ''
        : `${activityDetailLabel(key, language)}: ${shown}`;
    })
    .filter(Boolean);
}

/** Items joined by " · " into lines, breaking between items where it can (an item too long for a line is wrapped). */
function packItems(font: PDFFont, items: string[], size: number, width: number): string[] {
  const lines: string[] = [];
  for (const item of items.map((text) => renderable(font, text))) {
    const last = lines.at(-1);
    const joined = last === undefined ? item : `${last} · ${item}`;
    if (last !== undefined && widthOf(font, joined, size) <= width) lines[lines.length - 1] = joined;
    else lines.push(...wrapText(font, item, size, width));
  }
  return lines;
}

function eventBlock(context: AuditTrailContext, event: SignedPdfEvent, width: number): Block {
  const { fonts, labels, audit } = context;
  const { language } = labels;
  const textX = SEQUENCE_WIDTH + TIME_WIDTH;
  const textWidth = width - textX;
  const hash = event.hash.slice(0, 16);
  const label = activityEventLabel(event.event, language) ?? event.event;
  const title = `${event.about ? `${label}: ${event.about}` : label} · ${event.actor || labels.appliance}`;
  const titleLine = truncateToWidth(
    fonts.bold,
    renderable(fonts.bold, title),
    BODY,
    textWidth - widthOf(fonts.mono, hash, 7) - 8,
  );
  const lines = packItems(fonts.regular, detailItems(context, event), SMALL, textWidth).filter(Boolean).slice(0, 4);
  const origin = [event.ipAddress && `${labels.from} ${event.ipAddress}`, event.userAgent].filter(Boolean).join(' · ');
  if (origin) lines.push(truncateToWidth(fonts.regular, renderable(fonts.regular, origin), SMALL, textWidth));
  const height = BODY * LEADING + lines.length * SMALL * LEADING + 7;
  return {
    height,
    draw: (page: PDFPage, top: number) => {
      const baseline = top - BODY;
      page.drawText(`#${event.sequence}`, { x: MARGIN, y: baseline, size: SMALL, font: fonts.mono, color: MUTED });
      const time = formatAuditTime(event.time, audit.timeZone) ?? labels.notYet;
      page.drawText(time, { x: MARGIN + SEQUENCE_WIDTH, y: baseline, size: SMALL, font: fonts.regular, color: DARK });
      page.drawText(titleLine, { x: MARGIN + textX, y: baseline, size: BODY, font: fonts.bold, color: DARK });
      page.drawText(hash, {
        x: MARGIN + width - widthOf(fonts.mono, hash, 7),
        y: baseline,
        size: 7,
        font: fonts.mono,
        color: MUTED,
      });
      lines.forEach((line, index) =>
        page.drawText(line, {
          x: MARGIN + textX,
          y: baseline - BODY * LEADING - index * SMALL * LEADING + 1,
          size: SMALL,
          font: fonts.regular,
          color: MUTED,
        }),
      );
      page.drawLine({
        start: { x: MARGIN, y: top - height + 2 },
        end: { x: MARGIN + width, y: top - height + 2 },
        thickness: 0.3,
        color: RULE,
      });
    },
  };
}

function preparationBlock(context: AuditTrailContext, events: SignedPdfEvent[], width: number): Block {
  const { fonts, labels } = context;
  const textX = SEQUENCE_WIDTH + TIME_WIDTH;
  const lines = wrapText(
    fonts.regular,
    labels.preparation(events[0]!.sequence, events.at(-1)!.sequence),
    SMALL,
    width - textX,
  );
  const height = lines.length * SMALL * LEADING + 9;
  return {
    height,
    draw: (page, top) => {
      page.drawText(`#${events[0]!.sequence}`, {
        x: MARGIN,
        y: top - BODY,
        size: SMALL,
        font: fonts.mono,
        color: MUTED,
      });
      lines.forEach((line, index) =>
        page.drawText(line, {
          x: MARGIN + textX,
          y: top - BODY - index * SMALL * LEADING,
          size: SMALL,
          font: fonts.regular,
          color: MUTED,
        }),
      );
      page.drawLine({
        start: { x: MARGIN, y: top - height + 2 },
        end: { x: MARGIN + width, y: top - height + 2 },
        thickness: 0.3,
        color: RULE,
      });
    },
  };
}

function chainBlock(
  { fonts, labels }: AuditTrailContext,
  head: { sequence: number; hash: string },
  width: number,
): Block {
  const inner = width - 24;
  const note = wrapText(fonts.regular, labels.chainNote(head.sequence), SMALL, inner);
  const hashLine = `#${head.sequence}  ${head.hash.toLowerCase()}`;
  const panel = 16 + BODY * LEADING + MONO * LEADING + 6 + note.length * SMALL * LEADING + 8;
  const drawLines = (page: PDFPage, lines: string[], font: PDFFont, size: number, top: number) =>
    lines.forEach((line, index) =>
      page.drawText(line, { x: MARGIN + 12, y: top - index * size * LEADING, size, font, color: MUTED }),
    );
  return {
    height: panel + 16,
    draw: (page, top) => {
      const y = top - 8;
      page.drawRectangle({ x: MARGIN, y: y - panel, width, height: panel, color: PANEL });
      page.drawText(`${labels.chain} · ${labels.chainHead}`, {
        x: MARGIN + 12,
        y: y - 16,
        size: BODY,
        font: fonts.bold,
        color: INK,
      });
      page.drawText(hashLine, {
        x: MARGIN + 12,
        y: y - 16 - BODY * LEADING - 2,
        size: MONO,
        font: fonts.mono,
        color: DARK,
      });
      drawLines(page, note, fonts.regular, SMALL, y - 16 - BODY * LEADING - MONO * LEADING - 8);
    },
  };
}
