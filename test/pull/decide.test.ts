/** The rule per note (issue 42), without a server: each row of docs/pull.md's table, and the cases between them. */
import { describe, expect, it } from 'vitest';
import { decide, type NoteFacts } from '../../src/lib/pull/decide.js';
import { firstOfText, type Incoming, type NoteVersion } from '../../src/lib/pull/incoming.js';
import type { PulledNote } from '../../src/lib/state/pulled.js';

const H = (c: string) => c.repeat(64).slice(0, 64);
const version = (origin: string, v: number, parent: number, hash: string): NoteVersion => ({ id: 'p:x.md', project: 'p', path: 'x.md', version: v, parent, origin, hash12: hash.slice(0, 12), fileId: 'f0', groupId: 'main', parts: [] });
const pulled = (v: number, hash: string): PulledNote => ({ project: 'p', path: 'x.md', version: v, hash, file: '/m/x.md', origin: 'm-b', redacted: false, pulledAt: '', group: 'main' });
const facts = (f: Partial<NoteFacts>): NoteFacts => ({ incoming: undefined, own: undefined, pulled: undefined, local: undefined, incomingRedacted: false, sameAsLocal: false, groupListed: true, now: 0, patienceMs: 0, ...f });

describe('decide', () => {
  it('new here: written; already there: adopted', () => {
    expect(decide(facts({ incoming: version('m-b', 10, 0, H('b')) }))).toEqual({ kind: 'write', why: 'new' });
    expect(decide(facts({ incoming: version('m-b', 10, 0, H('b')), local: { hash: H('a'), redacted: false }, sameAsLocal: true }))).toEqual({ kind: 'adopt' });
  });
  it('untouched since pulled: a newer version replaces it; the same or an older one (a replay) changes nothing', () => {
    const base = { pulled: pulled(10, H('p')), local: { hash: H('p'), redacted: false } };
    expect(decide(facts({ ...base, incoming: version('m-b', 11, 0, H('b')) }))).toEqual({ kind: 'write', why: 'newer' });
    expect(decide(facts({ ...base, incoming: version('m-b', 10, 0, H('b')) })).kind).toBe('none');
    expect(decide(facts({ ...base, incoming: version('m-b', 9, 0, H('b')) })).kind).toBe('none');
  });
  it('changed here (not sent): never overwritten, the newer one goes beside', () => {
    expect(decide(facts({ pulled: pulled(10, H('p')), local: { hash: H('e'), redacted: false }, incoming: version('m-b', 11, 10, H('b')) }))).toEqual({ kind: 'copy', why: 'both-changed' });
    expect(decide(facts({ local: { hash: H('e'), redacted: false }, incoming: version('m-b', 11, 0, H('b')) }))).toEqual({ kind: 'copy', why: 'both-changed' });
  });
  it('sent from here: an edit built on it replaces it; a concurrent one goes beside, on both machines', () => {
    const own = version('m-a', 20, 0, H('a'));
    const local = { hash: H('a'), redacted: false };
    expect(decide(facts({ own, local, incoming: version('m-b', 21, 20, H('b')) }))).toEqual({ kind: 'write', why: 'newer' });
    expect(decide(facts({ own, local, incoming: version('m-b', 21, 15, H('b')) }))).toEqual({ kind: 'copy', why: 'both-changed' });
    // The other side: its own version is newer, but it never saw this one.
    expect(decide(facts({ own: version('m-a', 22, 15, H('a')), local, incoming: version('m-b', 21, 15, H('b')) }))).toEqual({ kind: 'copy', why: 'both-changed' });
    // ... and once seen (pulled version recorded), not again.
    // (Nothing is written: at most this machine remembers its own version is in the graph.)
    expect(decide(facts({ own: version('m-a', 22, 15, H('a')), local, pulled: pulled(21, ''), incoming: version('m-b', 21, 15, H('b')) })).kind).toBe('remember-own');
    expect(decide(facts({ own: version('m-a', 22, 21, H('a')), local, incoming: version('m-b', 21, 15, H('b')) })).kind).toBe('remember-own');
    expect(decide(facts({ own: version('m-a', 22, 21, H('a')), local, pulled: pulled(22, H('a')), incoming: version('m-b', 21, 15, H('b')) })).kind).toBe('none');
  });
  it('one text sent by two files as their own: the file whose own copy was not processed first gives way; one with an edit of its own never does', () => {
    const local = { hash: H('a'), redacted: false };
    const mine = version('m-a', 20, 0, H('a'));
    const theirs = version('m-b', 21, 0, H('a'));
    // Taken for the other machine's version (newer), or remembered as this machine's (newer): gives way when the other copy came first.
    expect(decide(facts({ own: mine, local, incoming: theirs, sameAsLocal: true, firstOfText: theirs })).kind).toBe('give-way');
    expect(decide(facts({ own: theirs, local, incoming: mine, sameAsLocal: true, firstOfText: mine })).kind).toBe('give-way');
    // Its own copy came first: it stays.
    expect(decide(facts({ own: mine, local, incoming: theirs, sameAsLocal: true, firstOfText: mine })).kind).toBe('remember-own');
    expect(decide(facts({ own: theirs, local, incoming: mine, sameAsLocal: true, firstOfText: theirs })).kind).toBe('remember-own');
    // Its own copy not listed yet (queued): the listed one came first.
    expect(decide(facts({ local, incoming: theirs, sameAsLocal: true, firstOfText: theirs })).kind).toBe('give-way');
    // An edit here not sent yet (the file holds neither copy's text) is never given up.
    const edited = { hash: H('e'), redacted: false };
    expect(decide(facts({ own: mine, local: edited, incoming: theirs, firstOfText: undefined })).kind).toBe('copy');
  });
  it('a redacted version never replaces a file without redaction marks, even an untouched one', () => {
    const base = { pulled: pulled(10, H('p')), incoming: version('m-b', 11, 10, H('b')), incomingRedacted: true };
    expect(decide(facts({ ...base, local: { hash: H('p'), redacted: false } }))).toEqual({ kind: 'copy', why: 'redacted' });
    expect(decide(facts({ ...base, local: { hash: H('p'), redacted: true } }))).toEqual({ kind: 'write', why: 'newer' });
  });
  it('deleted elsewhere: an untouched copy goes, a changed one stays; a group not listed (or a capped listing) judges nothing', () => {
    expect(decide(facts({ pulled: pulled(10, H('p')), local: { hash: H('p'), redacted: false } }))).toEqual({ kind: 'remove-local' });
    expect(decide(facts({ pulled: pulled(10, H('p')), local: { hash: H('e'), redacted: false } }))).toEqual({ kind: 'kept-deleted-elsewhere' });
    expect(decide(facts({ pulled: pulled(10, H('p')), local: { hash: H('p'), redacted: false }, groupListed: false })).kind).toBe('none');
    expect(decide(facts({ pulled: pulled(10, H('p')) }))).toEqual({ kind: 'forget' });
  });
  it('absent for less than the group\'s patience (an edit elsewhere on a break-before-make server, its new version still queued): nothing done yet, the absence remembered; after it, judged as a deletion', () => {
    const untouched = { pulled: pulled(10, H('p')), local: { hash: H('p'), redacted: false }, patienceMs: 60_000 };
    const changed = { ...untouched, local: { hash: H('e'), redacted: false } };
    const T = Date.parse('2026-12-06T08:00:00.000Z');
    // First seen absent: the absence starts now.
    expect(decide(facts({ ...untouched, now: T }))).toEqual({ kind: 'absent', since: T });
    expect(decide(facts({ ...changed, now: T }))).toEqual({ kind: 'absent', since: T });
    const seen = (since: string) => ({ pulled: { ...pulled(10, H('p')), missingSince: since } });
    expect(decide(facts({ ...untouched, ...seen('2026-12-06T08:00:00.000Z'), now: T + 59_999 }))).toEqual({ kind: 'absent', since: T });
    expect(decide(facts({ ...untouched, ...seen('2026-12-06T08:00:00.000Z'), now: T + 60_000 }))).toEqual({ kind: 'remove-local' });
    expect(decide(facts({ ...changed, ...seen('2026-12-06T08:00:00.000Z'), now: T + 60_000 }))).toEqual({ kind: 'kept-deleted-elsewhere' });
    // A start in the future (a clock set back) or unreadable starts again now: never waited for forever.
    expect(decide(facts({ ...untouched, ...seen('2026-12-07T08:00:00.000Z'), now: T }))).toEqual({ kind: 'absent', since: T });
    expect(decide(facts({ ...untouched, ...seen('garbage'), now: T }))).toEqual({ kind: 'absent', since: T });
    // The queue moved since (an edit elsewhere may wait behind others): the patience counts from the movement, at most the maximum.
    const moving = { ...untouched, ...seen('2026-12-06T08:00:00.000Z'), movedAt: T + 50_000, maxAbsenceMs: 300_000 };
    expect(decide(facts({ ...moving, now: T + 60_000 }))).toEqual({ kind: 'absent', since: T });
    expect(decide(facts({ ...moving, now: T + 109_999 }))).toEqual({ kind: 'absent', since: T });
    expect(decide(facts({ ...moving, now: T + 110_000 }))).toEqual({ kind: 'remove-local' });
    expect(decide(facts({ ...moving, movedAt: T + 299_000, now: T + 299_999 }))).toEqual({ kind: 'absent', since: T });
    expect(decide(facts({ ...moving, movedAt: T + 299_000, now: T + 300_000 }))).toEqual({ kind: 'remove-local' });
    // Movement before the absence was seen, or in the future (a server clock ahead): no later than now, never held forever.
    expect(decide(facts({ ...moving, movedAt: T - 30_000, now: T + 60_000 }))).toEqual({ kind: 'remove-local' });
    expect(decide(facts({ ...moving, movedAt: T + 10 * 60_000, now: T + 60_000 }))).toEqual({ kind: 'absent', since: T });
    expect(decide(facts({ ...moving, movedAt: T + 10 * 60_000, now: T + 300_000 }))).toEqual({ kind: 'remove-local' });
    // A make-before-break server (no patience): movement does not matter.
    expect(decide(facts({ ...moving, patienceMs: 0, now: T }))).toEqual({ kind: 'remove-local' });
    // A version in the graph (the edit processed): judged as usual, the absence plays no part.
    expect(decide(facts({ ...untouched, ...seen('2026-12-06T08:00:00.000Z'), now: T, incoming: version('m-b', 11, 10, H('b')) }))).toEqual({ kind: 'write', why: 'newer' });
    // The file gone here too: nothing to hold.
    expect(decide(facts({ ...seen('2026-12-06T08:00:00.000Z'), now: T, patienceMs: 60_000 }))).toEqual({ kind: 'forget' });
  });
  it('deleted here: its versions leave the graph; a newer edit made elsewhere comes back instead', () => {
    expect(decide(facts({ pulled: pulled(10, H('p')), incoming: version('m-b', 10, 0, H('b')) }))).toEqual({ kind: 'delete-in-graph' });
    expect(decide(facts({ pulled: pulled(10, H('p')), incoming: version('m-b', 12, 10, H('b')) }))).toEqual({ kind: 'write', why: 'newer' });
  });
  it('what never leaves this machine (a secret, a <private> block) is never written over or removed: the version goes beside, the note deleted elsewhere is kept', () => {
    const kept = { hash: H('a'), redacted: true, keptHere: true };
    // Built on this machine's sent version, redacted or not: beside.
    expect(decide(facts({ own: version('m-a', 20, 0, H('a')), local: kept, incoming: version('m-b', 21, 20, H('b')), incomingRedacted: true }))).toEqual({ kind: 'copy', why: 'redacted' });
    expect(decide(facts({ own: version('m-a', 20, 0, H('a')), local: { ...kept, redacted: false }, incoming: version('m-b', 21, 20, H('b')) }))).toEqual({ kind: 'copy', why: 'private' });
    // Deleted elsewhere: kept.
    expect(decide(facts({ pulled: pulled(10, H('a')), local: kept }))).toEqual({ kind: 'kept-deleted-elsewhere' });
    // Marks only (nothing kept here): a newer version replaces it as before.
    expect(decide(facts({ pulled: pulled(10, H('p')), local: { hash: H('p'), redacted: true, keptHere: false }, incoming: version('m-b', 11, 10, H('b')), incomingRedacted: true }))).toEqual({ kind: 'write', why: 'newer' });
  });
});

describe('firstOfText', () => {
  const at = (v: NoteVersion, uuid: string, createdAt: string): NoteVersion => ({ ...v, parts: [{ uuid, groupId: 'main', part: 1, name: 'x', body: '', createdAt }] });
  const notes = (...all: NoteVersion[]): Incoming => ({ incoming: new Map(), own: new Map(), ownByFile: new Map(), all: new Map([['p:x.md', all]]), unverified: 0, incomplete: 0 });
  const first = at(version('m-a', 20, 0, H('a')), 'u1', '2026-12-06T08:00:00Z');
  it('saved alike on their own: the copy processed first, whatever the versions', () => {
    const later = at(version('m-b', 30, 0, H('a')), 'u2', '2026-12-06T08:01:00Z');
    expect(firstOfText(notes(first, later), 'p:x.md', () => true)).toBe(first);
    expect(firstOfText(notes(later, first), 'p:x.md', () => true)).toBe(first);
  });
  it('one built on the other (an edit reverted to the text it was built on, sent): the successor, processed later or not', () => {
    const successor = at(version('m-b', 30, 20, H('a')), 'u2', '2026-12-06T08:01:00Z');
    expect(firstOfText(notes(first, successor), 'p:x.md', () => true)).toBe(successor);
    // Built on an older version than the one there: saved on its own as far as this one goes.
    const onOlder = at(version('m-b', 30, 15, H('a')), 'u2', '2026-12-06T08:01:00Z');
    expect(firstOfText(notes(first, onOlder), 'p:x.md', () => true)).toBe(first);
  });
});
