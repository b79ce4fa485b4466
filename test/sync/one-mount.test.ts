/**
 * ONE_MOUNT_PER_FILE (sync/one-mount.ts): which of a file id's paths is synced, and how an older
 * build's records of the others are folded in. The sync cases are in team-memory.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { foldMirrorRecords, oneMountPerFile } from '../../src/lib/sync/one-mount.js';
import type { MemorySource, ScannedFile } from '../../src/lib/memory/types.js';
import type { EpisodeRef, FileRecord, SyncState } from '../../src/lib/state/types.js';

const OLD = '-home-alice-src-app';
const NEW = '-home-alice-src-webapp';

describe('ONE_MOUNT_PER_FILE: which path is synced', () => {
  const source: MemorySource = { name: 'auto-memory', kind: 'auto-memory', root: '/c/projects', origin: 'm-0123456789', shared: false, layout: 'projects' };
  const file = (project: string, rel: string, mtimeMs: number): ScannedFile => ({ source: 'auto-memory', kind: 'auto-memory', relPath: `${project}/memory/${rel}`, absPath: `/c/projects/${project}/memory/${rel}`, mtimeMs, size: 10, project });

  it('the path written last; at equal times the one the state follows, then the first path; private notes at one relative path stay two', () => {
    const old = file(OLD, 'team/acme/deploy.md', 1000);
    const recent = file(NEW, 'team/acme/deploy.md', 2000);
    expect(oneMountPerFile([old, recent], [source], { files: {} })).toEqual({ files: [recent], mirrors: [old] });
    const same = { ...recent, mtimeMs: 1000 };
    expect(oneMountPerFile([old, same], [source], { files: {} }).files).toEqual([old]);
    expect(oneMountPerFile([old, same], [source], { files: { [`auto-memory:${same.relPath}`]: {} as never } }).files).toEqual([same]);
    const own = [file(OLD, 'style.md', 1000), file(NEW, 'style.md', 2000)];
    expect(oneMountPerFile(own, [source], { files: {} })).toEqual({ files: own, mirrors: [] });
  });

  it("an older build's record of a mirror is folded into the synced one: its other version retired as older, a copy of the synced version listed again", () => {
    const old = file(OLD, 'team/acme/deploy.md', 1000);
    const recent = file(NEW, 'team/acme/deploy.md', 2000);
    const part = (marker: string, uuid: string): EpisodeRef => ({ marker, name: 'Deploy process', groupId: 'main', part: 1, parts: 1, uuid, resends: 0, confirmedAt: '2026-12-01T00:00:00Z', settledAt: '2026-12-01T00:01:00Z' });
    const record = (f: ScannedFile, episodes: EpisodeRef[]) => ({ id: `auto-memory:${f.relPath}`, fileId: 'team-id', episodes, superseded: [] as EpisodeRef[], updatedAt: '2026-12-01T00:00:00Z' }) as unknown as FileRecord;
    const state = { files: {
      [`auto-memory:${recent.relPath}`]: record(recent, [part('gms:v2', 'u-2')]),
      [`auto-memory:${old.relPath}`]: record(old, [part('gms:v1', 'u-1')]),
    } } as unknown as SyncState;
    const mounts = oneMountPerFile([old, recent], [source], state);
    expect(foldMirrorRecords(state, mounts, '2026-12-07T12:00:00Z')).toBe(1);
    expect(Object.keys(state.files)).toEqual([`auto-memory:${recent.relPath}`]);
    expect(state.files[`auto-memory:${recent.relPath}`]?.superseded.map((r) => r.uuid)).toEqual(['u-1']);

    // A second copy of the version synced (both paths sent it): no retirement, the copy is listed again.
    const twice = { files: {
      [`auto-memory:${recent.relPath}`]: record(recent, [part('gms:v2', 'u-2')]),
      [`auto-memory:${old.relPath}`]: record(old, [part('gms:v2', 'u-3')]),
    } } as unknown as SyncState;
    foldMirrorRecords(twice, oneMountPerFile([old, recent], [source], twice), '2026-12-07T12:00:00Z');
    const kept = twice.files[`auto-memory:${recent.relPath}`];
    expect(kept?.superseded).toEqual([]);
    expect(kept?.episodes[0]?.settledAt).toBeUndefined();
  });

  it('paths of one file id that go to different groups are a note each; a mirror\'s record folds into the synced record of its own group', () => {
    const third = '-home-alice-src-other';
    const old = file(OLD, 'team/acme/deploy.md', 1000);
    const recent = file(NEW, 'team/acme/deploy.md', 2000);
    const other = file(third, 'team/acme/deploy.md', 3000);
    // The settings send OLD and NEW to `web` (a group_id in the front matter), the third project's copy to `other`.
    const groups = { bySettings: (f: ScannedFile) => f.project ?? '', withFrontMatter: (f: ScannedFile) => (f.project === third ? 'other' : 'web') };
    expect(oneMountPerFile([old, recent, other], [source], { files: {} }, groups)).toEqual({ files: [recent, other], mirrors: [old] });
    expect(oneMountPerFile([old, recent, other], [source], { files: {} }, { ...groups, withFrontMatter: (f) => f.project ?? '' }).mirrors).toEqual([]);
    const part = (marker: string, uuid: string, groupId: string): EpisodeRef => ({ marker, name: 'Deploy process', groupId, part: 1, parts: 1, uuid, resends: 0 });
    const record = (f: ScannedFile, episodes: EpisodeRef[]) => ({ id: `auto-memory:${f.relPath}`, fileId: 'team-id', episodes, superseded: [] as EpisodeRef[], updatedAt: '2026-12-01T00:00:00Z' }) as unknown as FileRecord;
    const state = { files: {
      [`auto-memory:${other.relPath}`]: record(other, [part('gms:o', 'u-o', 'other')]),
      [`auto-memory:${recent.relPath}`]: record(recent, [part('gms:v2', 'u-2', 'web')]),
      [`auto-memory:${old.relPath}`]: record(old, [part('gms:v1', 'u-1', 'web')]),
    } } as unknown as SyncState;
    expect(foldMirrorRecords(state, oneMountPerFile([other, old, recent], [source], state, groups), '2026-12-07T12:00:00Z')).toBe(1);
    expect(state.files[`auto-memory:${recent.relPath}`]?.superseded.map((r) => r.uuid)).toEqual(['u-1']);
    expect(state.files[`auto-memory:${other.relPath}`]?.superseded).toEqual([]);
  });
});
