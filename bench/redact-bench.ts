/**
 * Issue 12: secret redaction on the generated corpus (test/support/secret-corpus.ts): per-kind
 * recall, overall recall, the share of benign notes touched, and throughput in MB/s, each beside
 * the redaction this project shipped before (src/lib/memory/redact.ts at BASELINE_COMMIT, read from
 * git into a temporary file and measured in the same run on the same notes).
 * A secret counts as removed only if no 12-character piece of it is left (a kept tail is a miss).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactSecrets } from '../src/lib/memory/redact.js';
import { benignCorpus, secretCorpus, survives } from '../test/support/secret-corpus.js';
import { median, ROOT, type Row } from './util.js';

/** The last commit before the rule tables (issue 12). */
const BASELINE_COMMIT = 'f046211';

type Redact = (text: string) => { text: string };

async function loadBaseline(): Promise<{ redact: Redact | undefined; cleanup: () => void }> {
  const shown = spawnSync('git', ['show', `${BASELINE_COMMIT}:src/lib/memory/redact.ts`], { cwd: ROOT, encoding: 'utf8' });
  if (shown.status !== 0) return { redact: undefined, cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'gms-redact-baseline-'));
  const file = join(dir, 'redact-baseline.ts');
  writeFileSync(file, shown.stdout);
  const mod = (await import(file)) as { redactSecrets: Redact };
  return { redact: mod.redactSecrets, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

interface Quality {
  recallByKind: Map<string, [number, number]>;
  recall: number;
  falsePositiveRate: number;
}

function quality(redact: Redact): Quality {
  const recallByKind = new Map<string, [number, number]>();
  let removed = 0;
  const secrets = secretCorpus();
  for (const p of secrets) {
    const ok = !survives(redact(p.note).text, p.secret);
    const [hit, all] = recallByKind.get(p.kind) ?? [0, 0];
    recallByKind.set(p.kind, [hit + (ok ? 1 : 0), all + 1]);
    if (ok) removed += 1;
  }
  const benign = benignCorpus();
  const touched = benign.filter((b) => redact(b.note).text !== b.note).length;
  return { recallByKind, recall: (100 * removed) / secrets.length, falsePositiveRate: (100 * touched) / benign.length };
}

/** MB/s redacting each note on its own (as the engine does, per document), median of 5 runs after a warm-up. */
function throughput(redact: Redact, notes: readonly string[]): number {
  const bytes = notes.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const once = (): void => {
    for (const n of notes) redact(n);
  };
  once();
  const samples: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const t0 = process.hrtime.bigint();
    once();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return bytes / 1e6 / median(samples);
}

/** Notes repeated until they add up to about `bytes`. */
function repeatTo(notes: string[], bytes: number): string[] {
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i += 1) {
    const n = notes[i % notes.length] as string;
    out.push(n);
    size += n.length;
  }
  return out;
}

export async function benchRedact(): Promise<Row[]> {
  const baseline = await loadBaseline();
  try {
    const ours = quality(redactSecrets);
    const old = baseline.redact === undefined ? undefined : quality(baseline.redact);
    const oldName = `before (${BASELINE_COMMIT})`;
    const rows: Row[] = [];
    const kinds = [...ours.recallByKind.keys()].sort();
    for (const kind of kinds) {
      const [hit, all] = ours.recallByKind.get(kind) as [number, number];
      const before = old?.recallByKind.get(kind);
      rows.push({
        name: `recall ${kind}`,
        value: (100 * hit) / all,
        unit: '%',
        note: `${hit}/${all}${before === undefined ? '' : `; before ${before[0]}/${before[1]}`}`,
      });
    }
    rows.push({ name: `recall, all ${secretCorpus().length} secrets of ${kinds.length} kinds`, value: ours.recall, unit: '%', baseline: old?.recall, baselineName: oldName, note: old === undefined ? 'baseline unavailable (no git)' : `before: ${old.recall.toFixed(1)} %` });
    rows.push({ name: `benign notes touched, of ${benignCorpus().length}`, value: ours.falsePositiveRate, unit: '%', baseline: old?.falsePositiveRate, baselineName: oldName, note: old === undefined ? '' : `before: ${old.falsePositiveRate.toFixed(1)} %` });

    const mixed = repeatTo([...secretCorpus().map((p) => p.note), ...benignCorpus().map((b) => b.note)], 4_000_000);
    const prose = repeatTo(benignCorpus().filter((b) => b.cls === 'ordinary-note' || b.cls === 'prose-about-secrets').map((b) => b.note), 4_000_000);
    const memoryNotes = repeatTo(prose.map((_, i) => prose.slice(i, i + 40).join('\n\n')).slice(0, 40), 4_000_000);
    for (const [name, text] of [['corpus notes (secrets + look-alikes)', mixed], ['prose notes', prose], ['4 KB memory notes of prose', memoryNotes]] as const) {
      const oldRate = baseline.redact === undefined ? undefined : throughput(baseline.redact, text);
      const rate = throughput(redactSecrets, text);
      rows.push({ name: `throughput, ${name}`, value: rate, unit: 'MB/s', baseline: oldRate, baselineName: oldName, note: oldRate === undefined ? '' : `before: ${oldRate.toFixed(1)} MB/s` });
    }
    return rows;
  } finally {
    baseline.cleanup();
  }
}
