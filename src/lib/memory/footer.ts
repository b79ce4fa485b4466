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
/**
 * The line `pull` ends a restored note with (issue 42): an HTML comment, which Markdown renders as
 * nothing and Claude Code's memory index (built from frontmatter) never shows. Treated like a
 * capture footer: not hashed, never sent, so a restored note edited here sends only its text.
 */
const RESTORED = /^[ \t]*<!-- graphiti-memory-sync: restored from [a-z0-9][a-z0-9-]{0,39}[ ,;(][^\n]*-->[ \t]*$/;

export function isCaptureFooter(line: string): boolean {
  return FOOTER.test(line) || RESTORED.test(line);
}

/** The restored-note line: from which machine, which version, and whether secrets in it were redacted. */
export function restoredFooter(origin: string, version: number, when: string, redacted: boolean): string {
  return `<!-- graphiti-memory-sync: restored from ${origin} (version ${version}, pulled ${when})${redacted ? '; secrets in it were redacted before it left that machine: [REDACTED:…] marks them' : ''} -->`;
}

/** Text (LF line ends) with every capture footer line removed, plus a `---` rule directly above one. */
export function stripCaptureFooters(text: string): string {
  // Fast path: nothing that could be a footer.
  if (!/captured|graphiti-memory-sync: restored/i.test(text)) return text;
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
