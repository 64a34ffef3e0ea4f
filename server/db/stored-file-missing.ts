/** A stored file whose bytes are not where the store keeps them (someone damaged DATA_DIR or the database). */
export class StoredFileMissing extends Error {
  constructor(
    readonly sha256: string,
    where: string,
  ) {
    super(`the stored file ${sha256} is missing from ${where}`);
    this.name = 'StoredFileMissing';
  }
}
