/**
 * Capture footers: machine-written trailer lines such as
 * `*Auto-captured by WorkCompletionLearning hook at session end*` or `*Captured by PAI…*`.
 *
 * They are removed before hashing (so a hook that rewrites only its footer does not
 * re-sync the file) and before ingesting (they would become bogus "PAI" entities).
 * Only a whole line wrapped in emphasis is a footer: prose such as "Captured by the
 * camera" is left alone.
 */

const FOOTER = /^[ \t]*(\*{1,2}|_{1,2})(?:auto[- ]?captured|captured)[ \t]+(?:by|via|from|with)\b[^\n]*?\1[ \t]*$/i;
const THEMATIC_BREAK = /^[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*$/;

export function isCaptureFooter(line: string): boolean {
  return FOOTER.test(line);
}

/** Text (LF line ends) with every capture footer line removed, plus a `---` rule directly above one. */
export function stripCaptureFooters(text: string): string {
  // Fast path: nothing that could be a footer.
  if (!/captured/i.test(text)) return text;
  const lines = text.split('\n');
  const keep: string[] = [];
  let removed = false;
  for (const line of lines) {
    if (!isCaptureFooter(line)) {
      keep.push(line);
      continue;
    }
    removed = true;
    // Drop blank lines and one separator rule directly above the footer.
    let i = keep.length;
    while (i > 0 && (keep[i - 1] ?? '').trim() === '') i -= 1;
    if (i > 0 && THEMATIC_BREAK.test(keep[i - 1] ?? '')) keep.length = i - 1;
  }
  if (!removed) return text;
  let out = keep.join('\n');
  // A footer was the last thing in the file: drop the blank tail it leaves, keep one newline.
  if (text.endsWith('\n')) out = `${out.replace(/\s+$/, '')}\n`;
  return out;
}
