import { parseFileValue } from '../../../shared/field-answers';
import type { AnnotationRepo, AnnotationRow } from './annotations';
import type { FileRepo, StoredFile } from './files';

/**
 * The file a party attached to an ATTACHMENT field, with the name it gave it; undefined for any
 * other field, and while nothing is attached. One reading for the API, the party's own link and
 * the evidence package.
 */
export async function attachedFileOf(
  repos: { annotations: Pick<AnnotationRepo, 'fileIdOf'>; files: Pick<FileRepo, 'getFile'> },
  annotation: AnnotationRow | undefined,
): Promise<{ name: string; file: StoredFile } | undefined> {
  const value = annotation?.type === 'ATTACHMENT' ? parseFileValue(annotation.value) : undefined;
  const fileId = annotation && value ? await repos.annotations.fileIdOf(annotation.id) : undefined;
  const file = fileId === undefined ? undefined : await repos.files.getFile(fileId);
  return value && file ? { name: value.name, file } : undefined;
}
