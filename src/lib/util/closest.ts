/**
 * The closest of some names to one that was given, when close enough to be a typo: an unknown
 * command or option (commands/help.ts) and a settings name that is none of ours but nearly is
 * (config/config.ts MISSPELLED_SETTING). One owner, so both say "did you mean" by the same rule.
 */

/** Edit distance (insertions, deletions, substitutions, adjacent swaps). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The closest of `candidates` to `given`, when close enough to be a typo (or the same without dashes). */
export function closest(given: string, candidates: readonly string[]): string | undefined {
  const plain = (s: string) => s.replace(/[-_]/g, '').toLowerCase();
  const same = candidates.find((c) => plain(c) === plain(given));
  if (same !== undefined) return same;
  const starting = candidates.filter((c) => given.length >= 2 && c.startsWith(given));
  if (starting.length === 1) return starting[0];
  let best: { name: string; distance: number } | undefined;
  for (const c of candidates) {
    const distance = editDistance(given.toLowerCase(), c.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name: c, distance };
  }
  return best !== undefined && best.distance <= Math.max(1, Math.min(2, Math.floor(best.name.length / 3))) ? best.name : undefined;
}
