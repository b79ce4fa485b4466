/**
 * Issue 40, thirteenth session (helper qa-redact-9): text people write for coding agents in public repositories
 * (test/support/secret-heldout/dev-public-notes.json), measured as memory notes. Each `untouched` case of a rule
 * fails on the code before it (f01eb19); the `removed` cases beside it are the values that must still go.
 */
import { describe, it } from 'vitest';
import { removed, untouched } from '../helpers/redaction.js';

describe('code quoted in agent notes', () => {
  it('SCOPE_PATH: a credential word followed by `::` is a path segment, not a name given a value', () => {
    // Anchor's SPL token program, as an AGENTS.md quotes it (the dev half's one touched sample), and its kin.
    untouched('token::transfer(cpi_ctx, amount)?;');
    untouched('let cpi = token::mint_to(cpi_ctx, 100)?;');
    untouched('use anchor_spl::token::{self, Mint, Transfer};');
    untouched('std::token::parse(input)');
    untouched('$hash = Password::hash($plain);');
    // A value after one colon, or after the path's last segment, is still a value.
    removed('Config::password = "Hx9!vq2Lm"', 'Hx9!vq2Lm');
    removed('token: tkn_9Qm2Xr7Lp4Vz8Ks1', 'tkn_9Qm2Xr7Lp4Vz8Ks1');
    removed('password: letmein', 'letmein');
  });
});
