/** What the sync reads of pull's ledger (state/pulled.ts), without a server. */
import { describe, expect, it } from 'vitest';
import { sentOverPulled, type PulledCopy } from '../../src/lib/state/pulled.js';
import type { EpisodeRef, FileRecord } from '../../src/lib/state/types.js';

const part = (extra: Partial<EpisodeRef> = {}): EpisodeRef => ({ marker: '[gms:f:h:1/1:m-b]', name: 'x', groupId: 'main', part: 1, parts: 1, resends: 0, ...extra });
const record = (noteTag: FileRecord['noteTag'], episodes: EpisodeRef[], superseded: EpisodeRef[] = []): Pick<FileRecord, 'noteTag' | 'episodes' | 'superseded'> => ({ ...(noteTag === undefined ? {} : { noteTag }), episodes, superseded });
const copy: PulledCopy = { hash: 'h', gaveWay: false, version: 10 };
const SENT = part({ sentAt: '2026-12-06T08:00:00.000Z' });

describe('sentOverPulled: this machine sent an edit built on the pulled copy', () => {
  it('an edit built on it (its parent is the pulled version) and sent, queued or confirmed: yes', () => {
    expect(sentOverPulled(copy, record({ version: 12, parent: 10 }, [SENT]))).toBe(true);
    expect(sentOverPulled(copy, record({ version: 12, parent: 10 }, [part({ uuid: 'u' })]))).toBe(true);
    // Edited again since, the later edit not sent yet: the first one was.
    expect(sentOverPulled(copy, record({ version: 13, parent: 10 }, [part()], [SENT]))).toBe(true);
  });
  it('never sent (nothing of it reached the graph), an older version pull wrote over, a conflict copy, an untagged note: no', () => {
    expect(sentOverPulled(copy, record({ version: 12, parent: 10 }, [part()]))).toBe(false);
    expect(sentOverPulled(copy, record({ version: 8, parent: 5 }, [SENT]))).toBe(false);
    expect(sentOverPulled({ hash: 'h', gaveWay: false }, record({ version: 12, parent: 10 }, [SENT]))).toBe(false);
    expect(sentOverPulled(copy, record(undefined, [SENT]))).toBe(false);
    expect(sentOverPulled(copy, undefined)).toBe(false);
  });
  it('this machine\'s own copy of a text that gave way (saved on its own, not built on the other copy): no, whatever its version', () => {
    expect(sentOverPulled({ ...copy, gaveWay: true }, record({ version: 30, parent: 0 }, [SENT]))).toBe(false);
  });
});
