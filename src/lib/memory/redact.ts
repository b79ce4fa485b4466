/**
 * Secret redaction and `<private>` blocks: the public face of ./secrets/.
 *
 * Memory files are written by people and by hooks that paste tool output, so they contain keys
 * now and then; an episode body is sent to a server and to an LLM, so every recognised secret is
 * replaced by `[REDACTED:<kind>]` first. The rules live in ./secrets/ by family (one owner per
 * rule); the order below is the order they run in, most specific first, so labels are precise:
 * PEM blocks and manifests before vendor prefixes (vendor.ts, then the documented prefixes and
 * shapes of vendor-documented.ts and vendor-shapes.ts), vendor prefixes before URLs (and their
 * query credentials, url-query.ts), command lines
 * and generic `key = value`, a credential's fallback in code (env-default.ts), an XML element named for its credential (xml-element.ts), a YAML block
 * scalar of one line (yaml-block.ts), other ways of writing a password down (password-forms.ts), then the
 * credentials under id and login names (credential-id.ts),
 * YAML name/value pairs (named-value.ts), generated values under any key (random-assignment.ts),
 * the context rules (a value beside a credential word, table and CSV columns), which must not
 * re-label what is already redacted, and last the class behind the vendor rows: a short prefix and
 * a random run (prefixed-token.ts), and after it a random run with nothing around it (bare-token.ts).
 *
 * Nothing here logs or returns a secret: results carry the text and counts per kind.
 * Off the hook path: only the sync engine imports this (test/hooks/import-graph.test.ts).
 */
import { ACCESS_CODE_RULES } from './secrets/access-codes.js';
import { CONFIG_DIRECTIVE_RULES } from './secrets/config-directives.js';
import { ASSIGNMENT_RULES } from './secrets/assignment.js';
import { BARE_TOKEN } from './secrets/bare-token.js';
import { CLOUDFORMATION_LITERALS } from './secrets/cloudformation.js';
import { COMMAND_LINE_RULES } from './secrets/command-line.js';
import { CONTEXT_RULES } from './secrets/context.js';
import { CREDENTIAL_ID_RULES } from './secrets/credential-id.js';
import { ENV_DEFAULT_RULES } from './secrets/env-default.js';
import { NAMED_VALUE } from './secrets/named-value.js';
import { PASS_PHRASE_RULES, PASSWORD_FORM_RULES } from './secrets/password-forms.js';
import { PREFIXED_TOKEN } from './secrets/prefixed-token.js';
import { RANDOM_ASSIGNMENT } from './secrets/random-assignment.js';
import { runRules, type RedactResult, type Rule } from './secrets/engine.js';
import { STRUCTURED_FIRST, STRUCTURED_RULES } from './secrets/structured.js';
import { URL_QUERY_CREDENTIAL } from './secrets/url-query.js';
import { VENDOR_RULES } from './secrets/vendor.js';
import { VENDOR_DOCUMENTED_RULES } from './secrets/vendor-documented.js';
import { VENDOR_SHAPE_RULES } from './secrets/vendor-shapes.js';
import { XML_ELEMENT, XML_NAMED_VALUE } from './secrets/xml-element.js';
import { YAML_BLOCK } from './secrets/yaml-block.js';

export type { RedactResult } from './secrets/engine.js';

export interface PrivateBlocksResult {
  text: string;
  /** Number of `<private>` blocks removed (an unclosed one counts). */
  count: number;
  /** True when a block had no `</private>` and everything after it was removed. */
  unclosed: boolean;
  warnings: string[];
}

/** Every rule, in the order they run (exported for the dispatch test). */
export const REDACTION_RULES: readonly Rule[] = [...STRUCTURED_FIRST, ...VENDOR_RULES, ...VENDOR_DOCUMENTED_RULES, ...VENDOR_SHAPE_RULES, ...STRUCTURED_RULES, URL_QUERY_CREDENTIAL, ...COMMAND_LINE_RULES, ...PASS_PHRASE_RULES, ...ASSIGNMENT_RULES, ...ENV_DEFAULT_RULES, XML_ELEMENT, XML_NAMED_VALUE, YAML_BLOCK, ...PASSWORD_FORM_RULES, ...CONFIG_DIRECTIVE_RULES, ...ACCESS_CODE_RULES, ...CREDENTIAL_ID_RULES, NAMED_VALUE, CLOUDFORMATION_LITERALS, RANDOM_ASSIGNMENT, ...CONTEXT_RULES, PREFIXED_TOKEN, BARE_TOKEN];

/**
 * Replaces every recognised secret by `[REDACTED:<kind>]`, in time linear in the text and
 * whatever a value's length. Generic kinds are `password`, `api-key`, `private-key`, `token`
 * and `secret`; the others name the vendor or format.
 */
export function redactSecrets(text: string): RedactResult {
  return runRules(REDACTION_RULES, text);
}

/** Adds one result's counts by kind into a running total (for a document's several fields, a run's files). */
/** Redactions counted by kind (`{ 'github-token': 1 }`): kinds and counts, never values. */
export type RedactionsByKind = Record<string, number>;

/** How many redactions in all. */
export function totalRedactions(byKind: Readonly<RedactionsByKind>): number {
  return Object.values(byKind).reduce((n, k) => n + k, 0);
}

export function addCounts(into: RedactionsByKind, counts: Readonly<RedactionsByKind>): RedactionsByKind {
  for (const [kind, n] of Object.entries(counts)) into[kind] = (into[kind] ?? 0) + n;
  return into;
}

/**
 * Removes `<private>…</private>` blocks (case-insensitive, multi-line, nested blocks
 * count once). An unclosed `<private>` removes everything after it — the writer meant
 * it to be private, and losing a tail is better than leaking it — with a warning.
 * A stray `</private>` without an opener is left as it is.
 */
export function stripPrivateBlocks(text: string): PrivateBlocksResult {
  if (!/<\/?private\b/i.test(text)) return { text, count: 0, unclosed: false, warnings: [] };
  const re = /<(\/?)private(?:\s[^<>]*)?>/gi;
  let out = '';
  let cursor = 0;
  let depth = 0;
  let count = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const closing = m[1] === '/';
    if (!closing) {
      if (depth === 0) {
        out += text.slice(cursor, m.index);
      }
      depth += 1;
    } else if (depth > 0) {
      depth -= 1;
      if (depth === 0) {
        count += 1;
        cursor = m.index + m[0].length;
      }
    }
  }
  if (depth > 0) {
    count += 1;
    return {
      text: out,
      count,
      unclosed: true,
      warnings: ['a <private> block is not closed with </private>: everything after it was left out'],
    };
  }
  out += text.slice(cursor);
  return { text: out, count, unclosed: false, warnings: [] };
}
