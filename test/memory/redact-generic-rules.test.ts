/**
 * Issue 40, sixth dev round: classes shown by the scanners' generic rules (dev-generic.json and the
 * examples of the same rules it leaves out, dev only; README "sixth round"). Each class is tested beside
 * a real-looking value in the same place that must still be removed; no test names or copies a sample,
 * the values are written here.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { survives } from '../support/secret-corpus.js';

const untouched = (text: string): void => expect(redactSecrets(text).text).toBe(text);
const removed = (text: string, secret: string): void => expect(survives(redactSecrets(text).text, secret)).toBe(false);

describe('SECRET_COMPARED_AS_VALUE: a secret compared with a literal (assignment.ts)', () => {
  it('the literal is the secret the code checks for, a name-like one too: removed', () => {
    removed('if cfg.Secret != "blue-harbor" {', 'blue-harbor');
    removed("if (webhookSecret === 'tidal-moon-lantern') return;", 'tidal-moon-lantern');
    // Beside it, as before: a random secret compared, and a password compared.
    removed('if cfg.Secret != "Qm7vR2xL9pTw" {', 'Qm7vR2xL9pTw');
    removed('if creds.Password != "blue-harbor" {', 'blue-harbor');
  });
  it("a Secret object's name assigned, a Secret's name or type compared, a template compared: stay", () => {
    untouched('secret: db-credentials');
    untouched('if secret.name == "db-credentials" {');
    untouched('if (secretType === "kubernetes.io/tls")');
    untouched('if cfg.Secret != "${WEBHOOK_SECRET}" {');
  });
});
