/** test/setup/fast-check-seed.ts: the property tests' draws are the same on every run (unless GMS_FC_SEED=random). */
import fc from 'fast-check';
import { expect, it } from 'vitest';

it.skipIf(process.env.GMS_FC_SEED === 'random')('draws from the fixed seed: the same values on every run', () => {
  expect(fc.readConfigureGlobal().seed).toBe(Number(process.env.GMS_FC_SEED ?? '20261206'));
  expect(fc.sample(fc.integer(), 5)).toEqual(fc.sample(fc.integer(), 5));
});
