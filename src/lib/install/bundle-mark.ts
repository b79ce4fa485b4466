/**
 * BUNDLE_END_MARK: how a hook bundle says it is whole. A bundle cut short at a statement boundary
 * still parses (`var NO_HARD_LINKS = new S` is valid JavaScript: `new S`), so the parse that
 * install/bundle-check.ts runs cannot tell it from a whole one. Every bundle scripts/build/
 * bundle-hooks.mjs writes ends with BUNDLE_END_LINE and says so in its first line (BUNDLE_BANNER),
 * so a file whose first line promises the end line and that does not end with it was cut. Bundles
 * of builds before the mark promise nothing and are judged by the parse alone.
 *
 * Plain strings with no imports: the build script loads this module too (one owner of both lines).
 */
const PROMISE = 'Its last line marks its end.';

/** A bundle's first line. */
export const BUNDLE_BANNER = `// Bundled by scripts/build/bundle-hooks.mjs from src/; edit the sources, not this file. ${PROMISE}`;

/** A bundle's last line. */
export const BUNDLE_END_LINE = '//# end of a graphiti-memory-sync bundle';

/** Whether `text` promises an end line in its first line and does not end with it (BUNDLE_END_MARK). */
export function endLineMissing(text: string): boolean {
  // The launcher's bundle opens with a shebang; its banner is the line after.
  const body = text.startsWith('#!') ? text.slice(text.indexOf('\n') + 1) : text;
  const firstLineEnd = body.indexOf('\n');
  const firstLine = firstLineEnd === -1 ? body : body.slice(0, firstLineEnd);
  if (!firstLine.includes(PROMISE)) return false;
  return !text.trimEnd().endsWith(`\n${BUNDLE_END_LINE}`);
}
