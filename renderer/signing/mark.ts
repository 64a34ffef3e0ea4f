import type { TSigningMark } from '../../shared/api/signing';
import type { ScriptFace } from '../../shared/signing-page';

/** The party's mark as made in the signature dialog: its typed name in a face, or a drawn or uploaded picture. */
export type Mark =
  | { kind: 'typed'; face: ScriptFace; name: string }
  | { kind: 'drawn' | 'uploaded'; name: string; signature: string; initials?: string | undefined };

export { initialsOf } from '../../shared/initials';

export function toAcceptMark(mark: Mark): TSigningMark {
  if (mark.kind === 'typed') return { kind: 'typed', face: mark.face };
  return { kind: mark.kind, signature: mark.signature, ...(mark.initials ? { initials: mark.initials } : {}) };
}
