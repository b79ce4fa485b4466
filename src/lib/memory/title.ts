/** A memory file's title: frontmatter, else the first heading or line, else the file name. */
import { basename } from 'node:path';


export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

const TITLE_LINE = /^[ \t]*\*\*Title:?\*\*:?[ \t]*(.+?)[ \t]*$/i;
const HEADING = /^[ \t]{0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;

/** `**Title:** …` line first (PAI work files), else the first ATX heading outside code fences. */
export function titleFromBody(body: string): string | undefined {
  let heading: string | undefined;
  let fence: string | undefined;
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    const line = body.slice(start, end);
    start = end + 1;
    const f = FENCE.exec(line);
    if (f?.[1] !== undefined) {
      if (fence === undefined) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const t = TITLE_LINE.exec(line);
    if (t?.[1] !== undefined && oneLine(t[1]) !== '') return oneLine(t[1]);
    if (heading === undefined) {
      const h = HEADING.exec(line);
      if (h?.[1] !== undefined && oneLine(h[1]) !== '') heading = oneLine(h[1]);
    }
    if (end === body.length) break;
  }
  return heading;
}

export function humanizeSlug(slug: string): string {
  const words = slug.replace(/[-_]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function titleFromPath(relPath: string): string {
  const base = basename(relPath.replace(/\\/g, '/'));
  const stem = base.includes('.') && !base.startsWith('.') ? base.slice(0, base.lastIndexOf('.')) : base;
  return oneLine(stem.replace(/[_-]+/g, ' ')) || base || 'Untitled memory';
}

