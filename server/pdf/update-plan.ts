import { PDFArray, PDFDict, PDFName, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';
import type { UpdateObject } from './incremental-update';

/**
 * The objects of an update, each written whole under its own number: new ones, and copies of
 * existing ones with one entry changed. The loaded objects are never changed in place, so
 * nothing but what is named here can end up in the update. A dictionary held directly inside
 * another (an inline /AcroForm) is changed through the indirect object that holds it.
 */
export class UpdatePlan {
  private readonly written = new Map<PDFRef, PDFObject>();
  constructor(readonly context: PDFContext) {}

  add(ref: PDFRef, object: PDFObject): void {
    this.written.set(ref, object);
  }

  /** The current version of an indirect object: the one this update writes, else the file's. */
  current(ref: PDFRef): PDFObject | undefined {
    return this.written.get(ref) ?? this.context.lookup(ref);
  }

  /** An existing (or this update's) indirect dictionary, copied for this update. */
  private editable(ref: PDFRef): PDFDict {
    const written = this.written.get(ref);
    if (written instanceof PDFDict) return written;
    const loaded = this.context.lookup(ref);
    if (!(loaded instanceof PDFDict)) throw new Error(`Object ${ref.toString()} is not a dictionary.`);
    const copy = loaded.clone(this.context);
    this.written.set(ref, copy);
    return copy;
  }

  setEntry(ref: PDFRef, key: string, value: PDFObject): void {
    const dict = this.current(ref);
    if (dict instanceof PDFDict && dict.get(PDFName.of(key))?.toString() === value.toString()) return;
    this.editable(ref).set(PDFName.of(key), value);
  }

  /**
   * The indirect dictionary at `key` of the dictionary `ref`: made (as a new object) when
   * missing, and moved out to its own object when held directly, so that it can be changed alone.
   */
  ensureDict(ref: PDFRef, key: string): PDFRef {
    const value = (this.current(ref) as PDFDict).get(PDFName.of(key));
    if (value instanceof PDFRef) return value;
    const made = this.context.nextRef();
    this.written.set(made, value instanceof PDFDict ? value.clone(this.context) : this.context.obj({}));
    this.editable(ref).set(PDFName.of(key), made);
    return made;
  }

  /** Appends `item` to the array at `key` of the dictionary `ref`: the array's own object when it is indirect. */
  appendToArray(ref: PDFRef, key: string, item: PDFObject): void {
    const value = (this.current(ref) as PDFDict).get(PDFName.of(key));
    if (value instanceof PDFRef) {
      const array = this.current(value);
      if (!(array instanceof PDFArray)) throw new Error(`/${key} of ${ref.toString()} is not an array.`);
      const copy = this.written.has(value) ? array : array.clone(this.context);
      copy.push(item);
      this.written.set(value, copy);
      return;
    }
    const copy = value instanceof PDFArray ? value.clone(this.context) : this.context.obj([]);
    copy.push(item);
    this.editable(ref).set(PDFName.of(key), copy);
  }

  objects(): UpdateObject[] {
    return [...this.written].map(([ref, object]) => ({ ref, object }));
  }
}
