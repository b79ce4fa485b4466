/**
 * Reading a log another process appends to (support/json-lines.ts readLogLines) and waiting on it
 * (helpers/wait-for-condition.ts): a CI run caught the worker's log with its last line half-written,
 * and the strict parse threw from an fs.watch callback, failing the whole run (an uncaught exception).
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLogLines } from '../support/json-lines.js';
import { waitForCondition } from './wait-for-condition.js';

const dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gms-log-lines-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('readLogLines', () => {
  it('reads the complete lines and leaves the one still being written (no newline yet) for the next look', () => {
    const log = join(folder(), 'x.log');
    writeFileSync(log, '{"msg":"a"}\n{"msg":"worker fin');
    expect(readLogLines(log)).toEqual([{ msg: 'a' }]);
    appendFileSync(log, 'ished"}\n');
    expect(readLogLines(log)).toEqual([{ msg: 'a' }, { msg: 'worker finished' }]);
  });

  it('a complete line that is not JSON still throws: what a test asserts on must be clean', () => {
    const log = join(folder(), 'x.log');
    writeFileSync(log, '{"msg":"a"}\nnot json\n');
    expect(() => readLogLines(log)).toThrow(SyntaxError);
  });

  it('no file yet: no lines', () => {
    expect(readLogLines(join(folder(), 'missing.log'))).toEqual([]);
  });
});

describe('waitForCondition', () => {
  it('a check that throws rejects the wait (it does not escape as an uncaught exception)', async () => {
    const dir = folder();
    let calls = 0;
    const waiting = waitForCondition(dir, () => {
      calls += 1;
      if (calls > 1) throw new SyntaxError('torn');
      return false;
    }, 5_000, 'a torn log');
    writeFileSync(join(dir, 'poke'), 'x');
    await expect(waiting).rejects.toThrow('torn');
  });

  it('a check that throws at once rejects at once', async () => {
    await expect(waitForCondition(folder(), () => {
      throw new Error('at once');
    })).rejects.toThrow('at once');
  });
});
