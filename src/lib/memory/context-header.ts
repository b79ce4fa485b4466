/**
 * The header of our SessionStart context block. It lives in memory/, below context/, so the
 * writer and the loop detection share one definition without memory/ importing context/.
 *
 * The first line of every injected context block is a plain statement the model reads
 * (`Knowledge graph facts for <project> (from Graphiti, group <g>):`, built by context/context.ts), and
 * that line is also how the loop detection (memory/loop.ts) recognises a block pasted back into
 * a memory file. No markup: the model had to read past an HTML comment before (issue 13).
 */
export const CONTEXT_HEADER_PATTERN = /^Knowledge graph facts for [^\n]{1,160} \(from Graphiti, groups? [^\n]{1,400}\):[ \t]*$/m;
/** The first words of that header (a cheap test before the pattern runs). */
export const CONTEXT_HEADER_START = 'Knowledge graph facts for ';
/** The HTML comment earlier versions put first; still recognised in pasted text. */
export const LEGACY_CONTEXT_MARKER = '<!-- graphiti-memory-sync:context -->';
