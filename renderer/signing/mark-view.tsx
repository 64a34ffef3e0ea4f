import { initialsOf, type Mark } from './mark';
import { SCRIPT_FACE_FAMILIES } from './script-faces';

/** Roughly as large as fits: by the box's height, and by its width for the number of letters. */
const fitting = (text: string) => `min(62cqh, ${Math.round(170 / Math.max(3, [...text].length))}cqw)`;

/** A mark as the sealed PDF will show it: the picture, or the name (or initials) in its face. */
export function MarkView({ mark, isInitials }: { mark: Mark; isInitials: boolean }) {
  const image = mark.kind === 'typed' ? undefined : isInitials ? mark.initials : mark.signature;
  if (image) return <img className="mark-image" src={image} alt="" />;
  const face = mark.kind === 'typed' ? mark.face : 'dancing-script';
  const text = isInitials ? initialsOf(mark.name) : mark.name;
  return (
    <span
      className="mark-text"
      style={{ fontFamily: `"${SCRIPT_FACE_FAMILIES[face]}", cursive`, fontSize: fitting(text) }}
    >
      {text}
    </span>
  );
}
