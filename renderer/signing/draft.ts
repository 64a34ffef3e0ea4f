import { useEffect, useRef } from 'react';
import type { SigningStage, TSigningState } from '../../shared/api/signing';
import type { FieldValues } from './fields';
import { hashLink } from './hash-link';
import type { Mark } from './mark';

/**
 * The party's unfinished work on this device: what it typed or ticked and the mark it made, kept
 * in the browser's localStorage so a reload, a tab the phone discarded, or a lost connection
 * loses nothing. Nothing of it goes to the server before the party signs (the answer carries it
 * then, as always). One draft per link, stamped with the document's version and the party's
 * fields, so a changed or corrected contract never gets stale values; removed once the party
 * answered or the link closed (signed by all, rejected, expired, withdrawn, no longer valid),
 * and any draft untouched for 30 days is dropped on the next visit to any link.
 */
const PREFIX = 'signdesk.draft.';
const MAX_AGE_MS = 30 * 24 * 60 * 60_000;
/** Stages in which the party can still answer (a draft is worth keeping). */
const OPEN: ReadonlySet<SigningStage> = new Set(['ready', 'needs-code', 'waiting-turn']);

type Draft = { version: string; savedAt: number; values?: FieldValues; mark?: Mark };

const linkKey = (link: string) => PREFIX + hashLink(link);

/** What the draft must match: the document's version (its page images' path holds its hash) and the fields. */
export function draftVersion(state: TSigningState): string {
  const fields = state.fields.map((field) => `${field.id}:${field.type}:${field.page}`).join(',');
  return `${state.contract.pageImages?.base.split('/').at(-1) ?? ''}|${state.party.signType}|${fields}`;
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    // Refused (a framed page under strict privacy settings): nothing is kept.
    return undefined;
  }
}

function read(link: string, version: string): Draft | undefined {
  try {
    const raw = storage()?.getItem(linkKey(link));
    const draft = raw ? (JSON.parse(raw) as Draft) : undefined;
    return draft && draft.version === version && Date.now() - draft.savedAt < MAX_AGE_MS ? draft : undefined;
  } catch {
    return undefined;
  }
}

function write(link: string, version: string, change: Pick<Draft, 'values'> | Pick<Draft, 'mark'>): void {
  try {
    const draft: Draft = { ...read(link, version), ...change, version, savedAt: Date.now() };
    storage()?.setItem(linkKey(link), JSON.stringify(draft));
  } catch {
    // Full or refused: the work stays on the page, as before.
  }
}

export function clearDraft(link: string): void {
  try {
    storage()?.removeItem(linkKey(link));
  } catch {
    // Nothing kept, nothing to clear.
  }
}

/** Drafts of any link left untouched for 30 days. */
function dropOldDrafts(): void {
  const store = storage();
  if (!store) return;
  try {
    for (let i = store.length - 1; i >= 0; i -= 1) {
      const key = store.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      const savedAt = (JSON.parse(store.getItem(key) ?? '{}') as Partial<Draft>).savedAt ?? 0;
      if (Date.now() - savedAt >= MAX_AGE_MS) store.removeItem(key);
    }
  } catch {
    // A broken entry: left for the next visit.
  }
}

/** The field values saved for this link and version, each only where the field is still of the same kind. */
/** Whether this visit finds work kept from an earlier one (the page says so). */
export function hasDraft(link: string, state: TSigningState): boolean {
  return state.stage === 'ready' && read(link, draftVersion(state)) !== undefined;
}

export function restoredValues(link: string, state: TSigningState, initial: FieldValues): FieldValues {
  if (state.stage !== 'ready') return initial;
  const saved = read(link, draftVersion(state))?.values;
  if (!saved) return initial;
  const restored = { ...initial };
  for (const [id, value] of Object.entries(saved))
    if (id in initial && typeof value === typeof initial[id]) restored[id] = value;
  return restored;
}

/** Saves the field values as the party changes them (SigningView's side of the draft); a mere visit keeps nothing. */
export function useDraftValues(link: string, state: TSigningState, values: FieldValues, isAnswering: boolean): void {
  const version = draftVersion(state);
  const isOpen = isAnswering && state.stage === 'ready';
  const first = useRef(values);
  useEffect(() => {
    if (isOpen && values !== first.current) write(link, version, { values });
  }, [link, version, values, isOpen]);
}

/**
 * The app's side of the draft: brings back the mark once the page can answer, saves a new
 * mark, and removes the draft when the link has nothing more to answer (or is no longer valid).
 */
export function useDraftMark(
  link: string,
  state: TSigningState | undefined,
  mark: Mark | undefined,
  onRestore: (mark: Mark) => void,
  isLinkGone: boolean,
): void {
  const stage = state?.stage;
  const version = state ? draftVersion(state) : '';
  useEffect(dropOldDrafts, []);
  useEffect(() => {
    if (isLinkGone || (stage && !OPEN.has(stage))) clearDraft(link);
  }, [link, stage, isLinkGone]);
  useEffect(() => {
    if (stage !== 'ready' || mark) return;
    const saved = read(link, version)?.mark;
    if (saved) onRestore(saved);
    // Only when the page becomes ready for another version: a mark made later is the party's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [link, stage, version]);
  useEffect(() => {
    if (stage === 'ready' && mark) write(link, version, { mark });
  }, [link, stage, version, mark]);
}
