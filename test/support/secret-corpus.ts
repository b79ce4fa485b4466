/**
 * A generated corpus for secret redaction: planted secrets of many kinds in the contexts people
 * write them (.env, shell, curl, JSON, YAML, HCL, TOML, prose, frontmatter, kubeconfig,
 * Kubernetes manifests…), and benign notes full of look-alikes (placeholders, documentation
 * examples, configuration words, hashes, public keys).
 *
 * Seeded and deterministic: the same seed gives the same notes, so recall and false-positive
 * figures are comparable between runs and between implementations (bench/redact-bench.ts).
 * Formats (prefixes, lengths, charsets) are public facts; every value here is random.
 * Kinds and contexts live in secret-kinds.ts (a data table, one row per kind, hence its length); this file assembles them.
 */
import { BENIGN_CLASSES } from './secret-benign.js';
import { CONTEXTS, KINDS, type KindSpec, type Rng } from './secret-kinds.js';
import { mulberry32 } from './prng.js';

export { CONTEXTS, KINDS, BENIGN_CLASSES };
export type { KindSpec, Rng };

export interface PlantedSecret {
  kind: string;
  /** The `[REDACTED:<label>]` the redaction is expected to write; undefined: any label. */
  label: string | undefined;
  /** The value that must not survive. */
  secret: string;
  note: string;
  context: string;
}

export interface BenignNote {
  cls: string;
  note: string;
}

/** The seeded generator (mulberry32, shared with the soak corpus). */
export function makeRng(seed: number): Rng {
  return mulberry32(seed);
}

/** One planted secret of `spec` in the context named `context` (any of the kind's contexts). */
export function plant(spec: KindSpec, rng: Rng, context: string): PlantedSecret {
  const secret = spec.make(rng);
  const note = spec.plant !== undefined ? spec.plant(secret, rng, context) : (CONTEXTS[context] as (s: string, env: string, rng: Rng) => string)(secret, spec.env ?? 'API_TOKEN', rng);
  return { kind: spec.kind, label: spec.label, secret: spec.reveal?.(secret) ?? secret, note, context };
}

/** The contexts a kind can be planted in. */
export function contextsOf(spec: KindSpec): string[] {
  return spec.contexts ?? Object.keys(CONTEXTS);
}

/** `perKind` secrets of every kind, contexts rotating so each kind meets different ones. */
export function secretCorpus(seed = 12, perKind = 3): PlantedSecret[] {
  const rng = makeRng(seed);
  const out: PlantedSecret[] = [];
  KINDS.forEach((spec, k) => {
    const contexts = contextsOf(spec);
    for (let i = 0; i < perKind; i += 1) out.push(plant(spec, rng, contexts[(k * perKind + i) % contexts.length] as string));
  });
  return out;
}

export function benignCorpus(seed = 12): BenignNote[] {
  const rng = makeRng(seed + 1);
  return BENIGN_CLASSES.flatMap((c) => c.notes(rng).map((note) => ({ cls: c.cls, note })));
}

/**
 * Whether any part of `secret` is still in `text`: the 12-character window at every offset is
 * looked for (the README promises that no 12-character piece survives), so a redaction that stops
 * early and leaves a tail, or cuts a value in the middle, is caught, not only a whole leak. A secret
 * of 12 characters or fewer must be gone whole. The redaction's own tags are not looked in (issue 40: a URL's
 * password `password` was counted as left in `[REDACTED:url-password]`, seen on the dev recall data).
 */
export function survives(redacted: string, secret: string): boolean {
  // The tags the redaction leaves are not text of the note: a secret `password` is not left in `[REDACTED:url-password]`.
  const text = redacted.replace(/\[REDACTED:[a-z0-9-]+\]/g, '\u0000');
  if (secret.length <= 12) return text.includes(secret);
  for (let i = 0; i + 12 <= secret.length; i += 1) if (text.includes(secret.slice(i, i + 12))) return true;
  return false;
}
