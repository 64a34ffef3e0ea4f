import { useCallback, useRef, useState } from 'react';
import { asApiError } from '../../lib/forms';
import type { ApiError } from '../../lib/api';
import { isSameBox, type EditorField, type FieldBox } from './geometry';

/** What a field is made of, for the server: everything but the editor's own keys. */
export type FieldData = Omit<EditorField, 'id' | 'self'>;

/** The API behind the editor: a contract's annotations or a template's fields. Each answers with the field as stored. */
export type FieldStore = {
  create(field: FieldData): Promise<FieldData & { self: string }>;
  update(self: string, changes: Partial<FieldData>): Promise<FieldData & { self: string }>;
  remove(self: string): Promise<void>;
};

type Change = Partial<FieldData>;
type HistoryEntry =
  | { kind: 'created'; ids: string[] }
  | { kind: 'deleted'; field: EditorField }
  | { kind: 'changed'; id: string; before: Change };

let nextId = 1;
export const newFieldId = () => `f${nextId++}`;

const HISTORY_LIMIT = 50;

/** The part of `field` that `change` touches, as it is now: what undo puts back. */
function before(field: EditorField, change: Change): Change {
  return Object.fromEntries(Object.keys(change).map((name) => [name, field[name as keyof FieldData]])) as Change;
}

/**
 * The fields of one document and every change to them, each saved through `store` at once
 * (one at a time, in order), shown before the server answers and put back if it refuses.
 * Undo takes back the last change, then the one before.
 */
export function useFieldEditing(store: FieldStore, initial: EditorField[]) {
  const [fields, setFields] = useState(initial);
  // The fields as of the last change, ahead of the render it causes: changes made in one event
  // build on each other (every setFields goes through `replace`).
  const fieldsRef = useRef(fields);
  const [error, setError] = useState<ApiError>();
  const [pending, setPending] = useState(0);
  const [canUndo, setCanUndo] = useState(false);
  const history = useRef<HistoryEntry[]>([]);
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const replace = useCallback((updater: (current: EditorField[]) => EditorField[]) => {
    fieldsRef.current = updater(fieldsRef.current);
    setFields(fieldsRef.current);
  }, []);
  const patch = (id: string, change: Partial<EditorField>) =>
    replace((current) => current.map((field) => (field.id === id ? { ...field, ...change } : field)));
  const find = (id: string) => fieldsRef.current.find((field) => field.id === id);
  const remember = (entry: HistoryEntry) => {
    history.current = [...history.current.slice(-(HISTORY_LIMIT - 1)), entry];
    setCanUndo(true);
  };

  /** Runs saves one after another, so a move never overtakes the save that made its field. */
  const enqueue = useCallback((work: () => Promise<void>, undo: () => void) => {
    setPending((count) => count + 1);
    setError(undefined);
    queue.current = queue.current.then(async () => {
      try {
        await work();
      } catch (err) {
        undo();
        setError(asApiError(err));
      } finally {
        setPending((count) => count - 1);
      }
    });
    return queue.current;
  }, []);

  const create = (field: EditorField, isRemembered = true) => {
    replace((current) => [...current, field]);
    return enqueue(
      async () => {
        const { self, ...saved } = await store.create(dataOf(field));
        patch(field.id, { ...saved, self });
        if (isRemembered) remember({ kind: 'created', ids: [field.id] });
      },
      () => replace((current) => current.filter((candidate) => candidate.id !== field.id)),
    );
  };

  const change = (id: string, next: Change, previous?: Change, isRemembered = true) => {
    const field = find(id);
    if (!field) return Promise.resolve();
    const undoTo = previous ?? before(field, next);
    patch(id, next);
    return enqueue(
      async () => {
        const self = find(id)?.self;
        if (!self) throw new Error('The field is gone.');
        const { self: _self, ...saved } = await store.update(self, next);
        patch(id, saved);
        if (isRemembered) remember({ kind: 'changed', id, before: undoTo });
      },
      () => patch(id, undoTo),
    );
  };

  const remove = (id: string, isRemembered = true) => {
    const field = find(id);
    if (!field) return Promise.resolve();
    replace((current) => current.filter((candidate) => candidate.id !== id));
    return enqueue(
      async () => {
        if (field.self) await store.remove(field.self);
        if (isRemembered) remember({ kind: 'deleted', field });
      },
      () => replace((current) => [...current, field]),
    );
  };

  return {
    fields,
    error,
    isSaving: pending > 0,
    canUndo,
    dismissError: () => setError(undefined),
    /** A new field: shown at once, saved, its server path filled in. */
    create: (field: Omit<EditorField, 'id' | 'self'>) => {
      const made = { ...field, id: newFieldId(), self: undefined };
      void create(made);
      return made.id;
    },
    /** Fields the server made itself (from text tags): shown, and undone together. */
    addMade: (made: EditorField[]) => {
      if (made.length === 0) return;
      replace((current) => [...current, ...made]);
      remember({ kind: 'created', ids: made.map((field) => field.id) });
    },
    /** Live geometry while a field is dragged or nudged: shown only, saved by `commitBox`. */
    moveLive: (id: string, box: FieldBox) => patch(id, box),
    /** Saves a field's box after a drag or nudges; `start` is where it was before them (what undo puts back). */
    commitBox: (id: string, start: FieldBox) => {
      const field = find(id);
      if (!field || isSameBox(field, start)) return;
      void change(id, { x: field.x, y: field.y, width: field.width, height: field.height }, start);
    },
    change: (id: string, next: Change) => void change(id, next),
    remove: (id: string) => void remove(id),
    /**
     * Takes back the last change once the saves before it are done (a Delete just pressed is
     * remembered when the server has it); answers the field it put back or changed, if any.
     */
    undo: (): Promise<string | undefined> =>
      queue.current.then(() => {
        const entry = history.current.pop();
        setCanUndo(history.current.length > 0);
        if (!entry) return undefined;
        if (entry.kind === 'created') for (const id of entry.ids) void remove(id, false);
        if (entry.kind === 'deleted') void create({ ...entry.field, self: undefined }, false);
        if (entry.kind === 'changed') void change(entry.id, entry.before, undefined, false);
        return entry.kind === 'deleted' ? entry.field.id : entry.kind === 'changed' ? entry.id : undefined;
      }),
  };
}

export const dataOf = (field: EditorField): FieldData => ({
  owner: field.owner,
  type: field.type,
  page: field.page,
  x: field.x,
  y: field.y,
  width: field.width,
  height: field.height,
  isRequired: field.isRequired,
  label: field.label,
  hint: field.hint,
  options: field.options,
});
