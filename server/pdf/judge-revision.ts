import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import { MAX_PDF_PAGES } from '../../shared/constants';
import { checkPageTree } from './check-page-tree';
import type { XrefSection } from './read-xref-section';

/** What one update changed, judged by the structural rule (check-updates-after-seal.ts). */
export type RevisionFindings = {
  /** Document timestamp fields the update adds. */
  addedTimestamps: number;
  /** Whether it adds or changes the DSS (validation data). */
  changesValidationData: boolean;
  /** Whether it changes the document information dictionary (producer, dates). */
  changesInformation: boolean;
  /** One line per object the update writes. */
  changes: string[];
  /** What PAdES does not allow after the seal; empty when everything is allowed. */
  problems: string[];
};

const HIDDEN = 2;
const NO_VIEW = 32;
const MAX_DSS_OBJECTS = 10_000;
/** More objects than a document reaches from its catalog: past this, nothing the DSS lists may change. */
const MAX_REACHABLE_OBJECTS = 1_000_000;

/** The roles objects of the file before the update play, to judge a change to each. */
type Roles = {
  root: PDFRef | undefined;
  info: PDFRef | undefined;
  acroForm: PDFRef | undefined;
  fields: PDFRef | undefined;
  pages: Map<PDFRef, number>;
  annots: Map<PDFRef, number>;
  contents: Map<PDFRef, number>;
  pageAnnotations: Map<PDFRef, number>;
  dss: Set<PDFRef>;
  /**
   * Every object the document reaches from its catalog other than through the DSS (pages, their
   * content and resources, the form, outlines …), before the update and after it; undefined when
   * there were more than MAX_REACHABLE_OBJECTS to follow.
   */
  outside: { before: Set<PDFRef> | undefined; after: () => Set<PDFRef> | undefined };
};

export function judgeRevision(before: PDFDocument, after: PDFDocument, section: XrefSection): RevisionFindings {
  const findings: RevisionFindings = {
    addedTimestamps: 0,
    changesValidationData: false,
    changesInformation: false,
    changes: [],
    problems: [],
  };
  let roles: Roles;
  try {
    roles = rolesOf(before, after);
  } catch (error) {
    findings.problems.push(`the file before it cannot be read (${(error as Error).message})`);
    return findings;
  }
  const judge = new Judge(before, after, findings);
  for (const [number, entry] of section.entries) {
    if (number === 0 || number === section.streamObject) continue;
    const ref = PDFRef.of(number, entry.kind === 'compressed' ? 0 : entry.generation);
    const old = before.context.lookup(ref);
    if (entry.kind === 'free') {
      if (old) findings.problems.push(`it deletes object ${number}`);
      continue;
    }
    const now = after.context.lookup(ref);
    if (now === undefined) {
      findings.problems.push(`object ${number} cannot be read`);
      continue;
    }
    if (now instanceof PDFRawStream && now.dict.get(PDFName.of('Type')) === PDFName.of('ObjStm')) continue;
    if (old === undefined) {
      findings.changes.push(`object ${number}: new`);
      continue;
    }
    if (old.toString() === now.toString()) {
      findings.changes.push(`object ${number}: written again, unchanged`);
      continue;
    }
    judge.changed(number, ref, old, now, roles);
  }
  return findings;
}

function rolesOf(doc: PDFDocument, after: PDFDocument): Roles {
  checkPageTree(doc, MAX_PDF_PAGES);
  const { context, catalog } = doc;
  const { Root, Info } = context.trailerInfo;
  const refIn = (dict: PDFDict | undefined, key: string) => {
    const value = dict?.get(PDFName.of(key));
    return value instanceof PDFRef ? value : undefined;
  };
  const acroFormDict = catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const roles: Roles = {
    root: Root instanceof PDFRef ? Root : undefined,
    info: Info instanceof PDFRef ? Info : undefined,
    acroForm: refIn(catalog, 'AcroForm'),
    fields: refIn(acroFormDict, 'Fields'),
    pages: new Map(),
    annots: new Map(),
    contents: new Map(),
    pageAnnotations: new Map(),
    dss: new Set(),
    outside: { before: reachedOutsideDss(doc), after: once(() => reachedOutsideDss(after)) },
  };
  doc.getPages().forEach((page, index) => {
    roles.pages.set(page.ref, index + 1);
    const annots = page.node.get(PDFName.of('Annots'));
    if (annots instanceof PDFRef) roles.annots.set(annots, index + 1);
    const list = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.asArray() ?? [];
    for (const item of list) if (item instanceof PDFRef) roles.pageAnnotations.set(item, index + 1);
    const contents = page.node.get(PDFName.of('Contents'));
    const resolved = contents instanceof PDFRef ? context.lookup(contents) : contents;
    for (const item of [contents, ...(asArray(resolved) ?? [])])
      if (item instanceof PDFRef) roles.contents.set(item, index + 1);
  });
  collectRefs(doc, [catalog.get(PDFName.of('DSS'))], roles.dss);
  return roles;
}

class Judge {
  constructor(
    private readonly before: PDFDocument,
    private readonly after: PDFDocument,
    private readonly findings: RevisionFindings,
  ) {}

  changed(number: number, ref: PDFRef, old: PDFObject, now: PDFObject, roles: Roles): void {
    const { findings } = this;
    const note = (what: string) => findings.changes.push(`object ${number}: ${what}`);
    if (ref === roles.root) {
      note('the document catalog');
      this.compareDicts('the document catalog', old, now, ['AcroForm', 'DSS', 'Extensions']);
      const key = (dict: PDFObject, name: string) => (dict instanceof PDFDict ? dict.get(PDFName.of(name)) : undefined);
      if (key(old, 'DSS')?.toString() !== key(now, 'DSS')?.toString()) findings.changesValidationData = true;
      const [oldForm, newForm] = [key(old, 'AcroForm'), key(now, 'AcroForm')];
      if (oldForm?.toString() !== newForm?.toString()) this.compareAcroForm(oldForm, newForm);
    } else if (ref === roles.acroForm) {
      note('the interactive form (AcroForm)');
      this.compareAcroForm(old, now);
    } else if (ref === roles.fields) {
      note("the form's field list");
      this.checkAppended("the form's field list", old, now, true);
    } else if (roles.pages.has(ref)) {
      const page = roles.pages.get(ref)!;
      note(`page ${page}`);
      this.compareDicts(`page ${page}`, old, now, ['Annots']);
      const annots = (dict: PDFObject) => (dict as PDFDict).get(PDFName.of('Annots'));
      if (annots(old)?.toString() !== annots(now)?.toString())
        this.checkAppended(`the annotations of page ${page}`, annots(old), annots(now), false);
    } else if (roles.annots.has(ref)) {
      note(`the annotation list of page ${roles.annots.get(ref)}`);
      this.checkAppended(`the annotations of page ${roles.annots.get(ref)}`, old, now, false);
    } else if (roles.dss.has(ref) && !isReachedOutsideDss(roles, ref)) {
      note('validation data (DSS)');
      findings.changesValidationData = true;
    } else if (ref === roles.info && !isReachedOutsideDss(roles, ref)) {
      note('the document information (metadata)');
      findings.changesInformation = true;
    } else {
      // An object the DSS lists is validation data only if nothing else uses it: an earlier update
      // could list a page's content stream under /DSS to have a rewrite of that page pass as
      // validation data. What the document reaches outside the DSS is judged by its role there.
      const what = roles.contents.has(ref)
        ? `the content of page ${roles.contents.get(ref)}`
        : roles.pageAnnotations.has(ref)
          ? `an annotation on page ${roles.pageAnnotations.get(ref)}`
          : `object ${number}${typeOf(old)}${roles.dss.has(ref) ? ', which the DSS lists but the document also uses' : ''}`;
      note(`${what}, changed`);
      findings.problems.push(`it changes ${what}`);
    }
  }

  /** Every entry of the two dictionaries but `allowed` must be the same. */
  private compareDicts(what: string, old: PDFObject, now: PDFObject, allowed: string[]): void {
    if (!(old instanceof PDFDict) || !(now instanceof PDFDict)) {
      this.findings.problems.push(`it replaces ${what} with another kind of object`);
      return;
    }
    const keys = new Set([...old.keys(), ...now.keys()].map((key) => key.decodeText()));
    for (const key of keys) {
      if (allowed.includes(key)) continue;
      if (old.get(PDFName.of(key))?.toString() !== now.get(PDFName.of(key))?.toString())
        this.findings.problems.push(`it changes /${key} of ${what}`);
    }
  }

  private compareAcroForm(oldValue: PDFObject | undefined, newValue: PDFObject | undefined): void {
    const old = oldValue instanceof PDFRef ? this.before.context.lookup(oldValue) : oldValue;
    const now = newValue instanceof PDFRef ? this.after.context.lookup(newValue) : newValue;
    if (now === undefined) {
      this.findings.problems.push('it removes the interactive form');
      return;
    }
    const empty = this.before.context.obj({});
    this.compareDicts('the interactive form', old ?? empty, now, ['Fields', 'SigFlags']);
    const sigFlags = now instanceof PDFDict ? now.get(PDFName.of('SigFlags')) : undefined;
    if (sigFlags !== undefined && !(sigFlags instanceof PDFNumber && (sigFlags.asNumber() & 3) === 3))
      this.findings.problems.push('it changes /SigFlags of the interactive form');
    const fields = (dict: PDFObject | undefined) =>
      dict instanceof PDFDict ? dict.get(PDFName.of('Fields')) : undefined;
    if (fields(old)?.toString() !== fields(now)?.toString())
      this.checkAppended("the form's field list", fields(old), fields(now), true);
  }

  /**
   * An array (of fields, or of a page's annotations) that may only grow at its end, and only
   * by new document timestamp fields with invisible widgets.
   */
  private checkAppended(
    what: string,
    oldValue: PDFObject | undefined,
    newValue: PDFObject | undefined,
    isFields: boolean,
  ): void {
    const old = asArray(oldValue instanceof PDFRef ? this.before.context.lookup(oldValue) : oldValue) ?? [];
    const now = asArray(newValue instanceof PDFRef ? this.after.context.lookup(newValue) : newValue);
    if (!now) {
      this.findings.problems.push(`it replaces ${what} with something that is not a list`);
      return;
    }
    if (now.length < old.length || old.some((item, index) => item.toString() !== now[index]!.toString())) {
      this.findings.problems.push(`it removes or reorders ${what}`);
      return;
    }
    for (const item of now.slice(old.length)) {
      const problem = this.timestampFieldProblem(item);
      if (problem) this.findings.problems.push(`it adds to ${what} ${problem}`);
      else if (isFields) this.findings.addedTimestamps += 1;
    }
  }

  /** Why `item` is not a new, invisible document timestamp field (merged with its widget); undefined when it is. */
  private timestampFieldProblem(item: PDFObject): string | undefined {
    if (!(item instanceof PDFRef) || this.before.context.lookup(item) !== undefined)
      return 'an object that was already in the file';
    const field = this.after.context.lookup(item);
    if (!(field instanceof PDFDict)) return 'something that is not a field';
    if (field.get(PDFName.of('FT')) !== PDFName.of('Sig')) return 'a field that is not a signature field';
    const value = field.lookup(PDFName.of('V'));
    if (!(value instanceof PDFDict)) return 'an empty signature field (the seal permits no further signature)';
    if (value.get(PDFName.of('Type')) !== PDFName.of('DocTimeStamp'))
      return 'a signature that is not a document timestamp (the seal permits no further signature)';
    const flags = field.lookupMaybe(PDFName.of('F'), PDFNumber)?.asNumber() ?? 0;
    const rect = field
      .lookupMaybe(PDFName.of('Rect'), PDFArray)
      ?.asArray()
      .map((side) => (side instanceof PDFNumber ? side.asNumber() : NaN));
    const isZeroArea = rect?.length === 4 && (rect[0] === rect[2] || rect[1] === rect[3]);
    if (!isZeroArea && (flags & (HIDDEN | NO_VIEW)) === 0) return 'a visible field';
    return undefined;
  }
}

function asArray(value: PDFObject | undefined): PDFObject[] | undefined {
  return value instanceof PDFArray ? value.asArray() : undefined;
}

function typeOf(object: PDFObject): string {
  const dict = object instanceof PDFDict ? object : object instanceof PDFRawStream ? object.dict : undefined;
  const type = dict?.get(PDFName.of('Type')) ?? dict?.get(PDFName.of('Subtype'));
  return type instanceof PDFName ? ` (${type.decodeText()})` : '';
}

/**
 * Every indirect object reachable from `values` (a stream's dictionary included: a form
 * XObject's resources are there), at most `limit`; false when the limit cut the walk short.
 */
function collectRefs(
  doc: PDFDocument,
  values: (PDFObject | undefined)[],
  into: Set<PDFRef>,
  limit = MAX_DSS_OBJECTS,
): boolean {
  const stack = [...values];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof PDFRef) {
      if (into.has(item)) continue;
      if (into.size >= limit) return false;
      into.add(item);
      stack.push(doc.context.lookup(item));
    } else if (item instanceof PDFDict) stack.push(...item.values());
    else if (item instanceof PDFArray) stack.push(...item.asArray());
    else if (item instanceof PDFStream) stack.push(item.dict);
  }
  return true;
}

/** What the catalog reaches but through /DSS (the catalog itself included); undefined past MAX_REACHABLE_OBJECTS. */
function reachedOutsideDss(doc: PDFDocument): Set<PDFRef> | undefined {
  const { Root } = doc.context.trailerInfo;
  const reached = new Set<PDFRef>();
  if (Root instanceof PDFRef) reached.add(Root);
  const entries = doc.catalog.entries().filter(([key]) => key !== PDFName.of('DSS'));
  return collectRefs(
    doc,
    entries.map(([, value]) => value),
    reached,
    MAX_REACHABLE_OBJECTS,
  )
    ? reached
    : undefined;
}

/** Whether the document uses `ref` other than as validation data, before the update or after it (true when it cannot be told). */
function isReachedOutsideDss(roles: Roles, ref: PDFRef): boolean {
  const { before, after } = roles.outside;
  const reachedAfter = after();
  return !before || !reachedAfter || before.has(ref) || reachedAfter.has(ref);
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
