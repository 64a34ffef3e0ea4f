/** A text tag's box on its page (points from the top-left of the page as displayed, y down). */
export type TagCoverBox = { x: number; y: number; width: number; height: number };

/**
 * What is painted over a text tag so that no one sees it: its ink box (from its first glyph's
 * origin to its last glyph's advance, from the font's ascent to its descent) and half a point
 * more to the left and right, where a glyph's ink may reach past its advance. Not higher or
 * lower: the line above or below may be that close (a 12-point line is about 13.3 points of
 * ascent and descent apart from 13.8 points of line pitch), and glyphs of a tag stay inside the
 * font's ascent and descent. Used by the sealed PDF and the signing page's images alike.
 */
export const coverOf = (box: TagCoverBox): TagCoverBox => ({
  x: box.x - 0.5,
  y: box.y,
  width: box.width + 1,
  height: box.height,
});
