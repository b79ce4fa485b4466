/**
 * A generated value assigned to a key of any name (`mimi=gX69…`, `"cfg": "…"`): a line that is one
 * assignment in a .env, INI, YAML or JSON shape whose value is a long run of the base64 alphabet
 * with the entropy of random bytes. People name secrets whatever they like; what gives a key away
 * is a value no person writes. Next to a credential word the context rules (context.ts) already
 * accept shorter and plainer values; this rule needs no word and so asks for much more:
 * - the whole line is the assignment (not a sentence, not a list of values);
 * - 32+ characters of `[A-Za-z0-9+/=_-]`, upper case, lower case and digits all present;
 * - Shannon entropy of random base62/base64 text (>= 4.3 bits a character from 32 characters,
 *   >= 4.5 from 40: hex digests, UUIDs and words joined stay far below);
 * - the key does not name a public digest or an id (`integrity`, `sha256`, `checksum`, `etag`,
 *   `commit`, `id`…), and the value does not start with an algorithm name (`sha512-…`) nor is a certificate or a
 *   public key in base64 (values.ts PUBLIC_PEM: kubeconfig's `certificate-authority-data`).
 */
import { entropy } from './context.js';
import { tag, type ScanRule } from './engine.js';
import { isCursorTokenName, isDummy, isNamedPath, isPlaceholder, isPublicPem, isRedacted } from './values.js';

/**
 * One whole line: an optional `export`, a key (quoted or not), `=` or `:`, an optionally quoted
 * value, an optional trailing comma. Each part is a run of a class the next part cannot start
 * with, so a line is matched in one pass.
 */
const LINE = /^([ \t]*(?:export[ \t]+)?(["']?)([A-Za-z_][A-Za-z0-9_.-]*)\2[ \t]*[:=][ \t]*(["']?))([A-Za-z0-9+/=_-]{32,})(\4[ \t]*,?[ \t]*)$/gm;

/** Keys whose values are public digests, ids, versions or public keys (`DOTENV_PUBLIC_KEY`, `publishableKey`), by their last words. */
const PUBLIC_KEY = /(?:integrity|hash|sha\d*|md5|digest|checksum|etag|fingerprint|commit|revision|rev|ref|sum|id|uuid|guid|version|nonce|salt|iv|image|tag|(?:public|publishable|pub)[_.-]?key)$/i;

/** Entropy of random text of the base64 alphabet, by length (short samples show less of it). */
function random(v: string): boolean {
  if (!/[a-z]/.test(v) || !/[A-Z]/.test(v) || !/\d/.test(v)) return false;
  if (/^(?:sha\d+|md5|sha)[-_:]/i.test(v)) return false;
  return entropy(v) >= (v.length >= 40 ? 4.5 : 4.3);
}

export const RANDOM_ASSIGNMENT: ScanRule = {
  kind: 'high-entropy',
  hints: ['=', ':'],
  scan: (text) =>
    text.replace(LINE, (m, head: string, _q: string, key: string, _vq: string, value: string, tail: string) => {
      if (PUBLIC_KEY.test(key.replace(/[_.-]+$/, '')) || isCursorTokenName(key) || isRedacted(value) || isPlaceholder(value) || isDummy(value) || isNamedPath(value) || isPublicPem(value) || !random(value)) return m;
      return `${head}${tag('high-entropy')}${tail}`;
    }),
};
