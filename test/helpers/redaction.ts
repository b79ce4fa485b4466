/**
 * The two checks the redaction's form tests make: a value is removed (gone from the text outside the
 * tags, which hold words such as `password`, and something was redacted), or a text is left as it was.
 */
import { expect } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';

export function removed(text: string, value: string): void {
  const r = redactSecrets(text);
  const outside = r.text.replace(/\[REDACTED:[a-z0-9-]+\]/g, '\u0000');
  expect(outside.split(value).length - 1, r.text).toBeLessThan(text.split(value).length - 1);
  expect(r.total, r.text).toBeGreaterThanOrEqual(1);
}

export const untouched = (text: string): void => expect(redactSecrets(text).text).toBe(text);
