/**
 * A generated token with nothing around it: no vendor prefix, no name, no credential word (a
 * token pasted as a JSON-RPC parameter, a line of a log, a value after a product's name with no
 * separator). The last rule, the class behind the named ones: the run itself must look generated
 * by the same test as prefixed-token.ts's bodies (30+ characters of `[A-Za-z0-9]`, upper case, lower
 * case and digits switching often, the Shannon entropy of random base62), so ids made of words and
 * numbers, hex digests, UUIDs and counting stand-ins stay. Random base62 of that length is a
 * secret far more often than not: session ids, API keys and signing keys are made so.
 *
 * What stays, and why:
 * - a run inside a URL or a path (`https://drive.google.com/file/d/1AbC…`, `ids/4fZk…`): documents,
 *   files and images are named by random ids there; a URL's credentials are url-query.ts's;
 * - a digest named by its algorithm (`SHA256:46OSHA1Rmj8E…`, an SSH host key's fingerprint);
 * - a run glued to a base64 run (`+`, `/`, `=`) or to another word by `-`, `_`, `.`, `~`, `%`: a
 *   piece of something longer that another rule judges whole (prefixed-token.ts reads `sk_…`);
 * - a value given to a name (`publishableKey: …`, `"nextPageToken": "…"`, `token = <…>`, `{cipher}…`):
 *   the assignment and context rules have judged it already, by its name (a public key, a cursor, a
 *   placeholder, ciphertext), and their judgement stands;
 * - public key material: after an SSH key type (`ssh-ed25519 AAAAC3…`), or a line of its own in a
 *   PEM block (private key blocks are removed whole by structured.ts before this rule runs);
 * - a run the words just before it call public or an id (`the CA is …`, `commit …`, `request id …`,
 *   `fingerprint …`): what it is has been said, and it is not a secret;
 * - a stand-in typed by hand (values.ts's `isDummy`).
 */
import { tag, type ScanRule } from './engine.js';
import { looksGenerated } from './prefixed-token.js';
import { isDummy } from './values.js';

/** The shortest run judged (looksGenerated asks 30 characters). */
const MIN_RUN = 30;
/** `[A-Za-z0-9]` by character code, for the one pass over the text (a table lookup costs less than a regular expression's class here). */
const ALNUM = new Uint8Array(128);
for (let c = 0; c < 128; c += 1) ALNUM[c] = /[A-Za-z0-9]/.test(String.fromCharCode(c)) ? 1 : 0;
/** Characters that glue a run to a longer word (a piece of base64, a path, a slug, an escape). */
const GLUE = /[A-Za-z0-9+/=_.~%-]/;
/** A digest named by its algorithm right before the run (`SHA256:`, `md5=`, `sha512-`). */
const DIGEST_NAME = /(?:sha\d*|md5|blake\d*\w*|sha3)[:=-]$/i;

/** A name, a tag or a template right before the run, quotes and spaces aside: the run is a value given to it. */
const NAMED = /(?:[:=<>{}]|=>)["'`]?[ \t]*["'`]?$/;
/** An SSH public key's type before its base64 body. */
const SSH_KEY_TYPE = /(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-[\w-]+|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-[\w@.-]+)[ \t]+$/;

/** Words that call what follows public or an id, then at most a few words of the same clause (`the CA is `). */
const SAID_PUBLIC = /\b(?:CA|[Cc]ert(?:ificate)?s?|CERT(?:IFICATE)?S?|[Pp]ublic|[Pp]ublishable|[Pp]ubkey|[Ff]ingerprint|[Rr]ecipient|[Ii][Dd]s?|[Hh]ash|[Dd]igest|[Cc]hecksum|[Cc]ommit|[Nn]once|[Ss]alt)\b[^.;:=\n]{0,20}$/;

/** Whether the run at `at..end` is judged by another rule or is public (see the list above). */
function isJudgedElsewhere(text: string, at: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const before = text.slice(lineStart, at);
  if (NAMED.test(before) || SSH_KEY_TYPE.test(before) || SAID_PUBLIC.test(before)) return true;
  const lineEnd = text.indexOf('\n', end);
  return before.trim() === '' && text.slice(end, lineEnd < 0 ? text.length : lineEnd).trim() === '' && text.includes('-----BEGIN');
}

/** The word the run is in, from the last space or quote before it. */
function wordBefore(text: string, at: number): string {
  let i = at;
  while (i > 0 && !/[\s"'`<>([{,]/.test(text[i - 1] as string)) i -= 1;
  return text.slice(i, at);
}

export const BARE_TOKEN: ScanRule = {
  kind: 'token',
  // Every generated run holds a digit; a note without one pays nothing.
  hints: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'],
  scan: (text) => {
    let out = '';
    let cursor = 0;
    let at = 0;
    for (let i = 0; i <= text.length; i += 1) {
      const c = i < text.length ? text.charCodeAt(i) : 0;
      if (c < 128 && ALNUM[c] === 1) continue;
      const end = i;
      const runStart = at;
      at = i + 1;
      if (end - runStart < MIN_RUN) continue;
      const run = text.slice(runStart, end);
      if ((runStart > 0 && GLUE.test(text[runStart - 1] as string)) || (end < text.length && GLUE.test(text[end] as string))) continue;
      if (!looksGenerated(run) || isDummy(run)) continue;
      const word = wordBefore(text, runStart);
      if (word.includes('/') || DIGEST_NAME.test(word) || isJudgedElsewhere(text, runStart, end)) continue;
      out += text.slice(cursor, runStart) + tag('token');
      cursor = end;
    }
    return cursor === 0 ? text : out + text.slice(cursor);
  },
};
