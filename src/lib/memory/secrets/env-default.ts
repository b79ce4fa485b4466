/**
 * A credential's fallback in code: the literal an environment lookup of a credential's name falls back
 * to when the variable is unset (`os.getenv("DB_PASSWORD", "…")`, `os.environ.get("API_KEY", "…")`,
 * `process.env.DB_PASSWORD || "…"`, `getenv("SECRET") or "…"`). Pasted code in a note holds the
 * development password or key written there as a default, which works wherever the variable is not
 * set (issue 40: a weak password is still a password). The `key = value` rules see only the
 * assignment's right-hand side as code and leave it. The variable's name is judged as any key is
 * (assignment.ts `namesCredential`: `PASSWORD_FILE`, `TOKEN_URL` stay) and the literal as any value
 * beside its name (`keyedCredentialLiteral`: empty strings, templates, masks and example words stay).
 */
import { keyedCredentialLiteral } from './assignment.js';
import type { RegexRule } from './engine.js';

/** A quoted literal (a bytes literal's `b` kept before it): group 1 the lead, the literal last. */
const LITERAL = `(b?)("[^"\\n]{1,256}"|'[^'\\n]{1,256}')`;

/** The tag in place of a literal's text, its quotes and the lead kept; undefined to keep the match. */
function replaceLiteral(lead: string, name: string, bytes: string, literal: string): string | undefined {
  const tagged = keyedCredentialLiteral(name, literal);
  return tagged === undefined ? undefined : `${lead}${bytes}${tagged}`;
}

/** `getenv("NAME", "…")`, `os.environ.get('NAME', '…')`, `env.get("NAME", "…")`, `getOrDefault("NAME", "…")`, `getenv(NAME, b"…")`. */
const DEFAULT_ARGUMENT: RegexRule = {
  kind: 'generic',
  hints: ['getenv', 'environ', 'env.get', 'getordefault'],
  re: new RegExp(`((?<![\\w$])(?:getenv|environ\\.get|env\\.get|getOrDefault)\\([ \\t]*(["']?)([A-Za-z_][\\w.]*)\\2[ \\t]*,[ \\t]*)${LITERAL}`, 'gi'),
  replace: (m, g) => replaceLiteral(g[0] ?? '', g[2] ?? '', g[3] ?? '', g[4] ?? '') ?? m,
};

/** `process.env.NAME || "…"`, `process.env["NAME"] ?? "…"`, `getenv("NAME") or "…"`, `os.environ.get("NAME") or "…"`. */
const FALLBACK_OPERATOR: RegexRule = {
  kind: 'generic',
  // (`env.` and `env[`: a Node lookup's, `…env.NAME`, `…env["NAME"]`.)
  hints: ['getenv', 'environ', 'env.', 'env['],
  re: new RegExp(
    `((?:process\\.env(?:\\.([A-Za-z_]\\w*)|\\[[ \\t]*["']([A-Za-z_]\\w*)["'][ \\t]*\\])|(?<![\\w$])(?:getenv|environ\\.get|env\\.get)\\([ \\t]*["']([A-Za-z_][\\w.]*)["'][ \\t]*\\))[ \\t]*(?:\\|\\||\\?\\?|[ \\t]or[ \\t])[ \\t]*)${LITERAL}`,
    'gi',
  ),
  replace: (m, g) => replaceLiteral(g[0] ?? '', g[1] ?? g[2] ?? g[3] ?? '', g[4] ?? '', g[5] ?? '') ?? m,
};

export const ENV_DEFAULT_RULES: readonly RegexRule[] = [DEFAULT_ARGUMENT, FALLBACK_OPERATOR];
