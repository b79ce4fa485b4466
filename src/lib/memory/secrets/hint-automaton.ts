/**
 * Finds which of many literal hints a text holds in one pass (an Aho–Corasick automaton): the
 * engine's question before it runs any rule (engine.ts). Two automata walk the text together, one
 * for the lower-case hints (looked up case-insensitively, as in the lower-cased text) and one for
 * the hints with capitals (looked up as written), so the text is read once and never lower-cased.
 *
 * Why not one regular expression of all hints: with ~200 alternatives starting with most letters,
 * the regexp engine tries several at every position, and every match is a round trip out of it;
 * a table lookup per character costs less.
 */

export interface HintAutomaton {
  /** ASCII character code → symbol; 0 for a character no hint holds. */
  ascii: Int32Array;
  /** The same for other characters. */
  other: Map<number, number>;
  /** Symbols in all, 0 included: the width of a row of `next`. */
  width: number;
  /** Next state by state and symbol: `next[state * width + symbol]`. */
  next: Int32Array;
  /** For each state, what reaching it reports (every hint ending there), as the caller mapped it; undefined: nothing. */
  out: (readonly number[] | undefined)[];
}

/**
 * The automaton of `hints`. `fold`: `A`–`Z` read as `a`–`z` (for lower-case hints). `report` maps
 * a hint to what reaching it reports (rule indexes); a state reports the union over the hints that
 * end there, its own and those ending in it.
 */
export function buildHintAutomaton(hints: readonly string[], fold: boolean, report: (hint: string) => readonly number[]): HintAutomaton {
  const symbolOf = new Map<number, number>();
  for (const h of hints) for (let i = 0; i < h.length; i += 1) if (!symbolOf.has(h.charCodeAt(i))) symbolOf.set(h.charCodeAt(i), symbolOf.size + 1);
  const width = symbolOf.size + 1;
  const ascii = new Int32Array(128);
  const other = new Map<number, number>();
  for (const [code, symbol] of symbolOf) {
    if (code < 128) ascii[code] = symbol;
    else other.set(code, symbol);
  }
  if (fold) for (let c = 65; c <= 90; c += 1) ascii[c] = ascii[c + 32] as number;

  // The trie, then failure links breadth first (each state's row completed from its failure's).
  const children: Map<number, number>[] = [new Map()];
  const ending: number[][] = [[]];
  hints.forEach((h, id) => {
    let state = 0;
    for (let i = 0; i < h.length; i += 1) {
      const symbol = symbolOf.get(h.charCodeAt(i)) as number;
      let child = children[state]?.get(symbol);
      if (child === undefined) {
        child = children.length;
        children.push(new Map());
        ending.push([]);
        children[state]?.set(symbol, child);
      }
      state = child;
    }
    ending[state]?.push(id);
  });
  const next = new Int32Array(children.length * width);
  const fail = new Int32Array(children.length);
  const queue: number[] = [];
  for (const [symbol, child] of children[0] as Map<number, number>) {
    next[symbol] = child;
    queue.push(child);
  }
  for (let q = 0; q < queue.length; q += 1) {
    const state = queue[q] as number;
    for (let symbol = 0; symbol < width; symbol += 1) {
      const child = children[state]?.get(symbol);
      const viaFail = next[(fail[state] as number) * width + symbol] as number;
      if (child === undefined) {
        next[state * width + symbol] = viaFail;
        continue;
      }
      fail[child] = viaFail;
      (ending[child] as number[]).push(...(ending[viaFail] as number[]));
      next[state * width + symbol] = child;
      queue.push(child);
    }
  }
  const out = ending.map((ids) => {
    if (ids.length === 0) return undefined;
    return [...new Set(ids.flatMap((id) => report(hints[id] as string)))].sort((a, b) => a - b);
  });
  return { ascii, other, width, next, out };
}

/**
 * Whether a character outside ASCII breaks reading a text unlowered as if lower-cased, for hints
 * made of `hintChars`: it lower-cases to more than one character (U+0130 to `i` and a combining
 * dot), or to another character when either is a hint's (U+212A KELVIN SIGN to `k`). A text holding
 * one is looked up the slow way, in its lower-cased copy. (Characters outside the BMP come as two
 * surrogate halves, which no hint holds, and lower-case to two halves again.)
 */
export function isFoldHazard(code: number, hintChars: ReadonlySet<string>): boolean {
  const c = String.fromCharCode(code);
  const lowered = c.toLowerCase();
  return lowered.length !== 1 || (lowered !== c && (hintChars.has(lowered) || hintChars.has(c)));
}
