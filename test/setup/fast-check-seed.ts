/**
 * Property tests draw from one fixed seed unless told otherwise, so that a run's verdict depends on
 * the code and not on the draw: a rare counterexample found by a random draw once failed CI on a
 * commit that had not touched what it found. What the draws find is kept as a plain test beside the
 * property (test/memory/redact-corpus.test.ts "counterexamples the property found").
 * To explore with fresh draws: GMS_FC_SEED=random npx vitest run (or a number, to replay a draw).
 */
import fc from 'fast-check';

const seed = process.env.GMS_FC_SEED ?? '20261206';
if (seed !== 'random') fc.configureGlobal({ seed: Number(seed) });
