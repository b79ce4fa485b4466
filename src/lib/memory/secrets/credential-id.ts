/**
 * The identifier half of a credential pair, when it is generated rather than chosen: an `access id`
 * (Sumo Logic's `accessId`, sent with the `accessKey` as the Basic-auth user name, per Sumo Logic's
 * "API Authentication": `curl -u "<accessId>:<accessKey>"`) or a `secret id` (Tencent Cloud's
 * `SecretId`, HashiCorp Vault AppRole's `secret_id`, which is itself the secret of the pair).
 *
 * The context rules treat `… id` as not a secret (`key id`, `token id` name a secret, they are not
 * it), which is right for names and numbers; these keys are the exception. Only a value that reads
 * as generated counts: letters and digits mixed (and both cases for an access id), 12+ characters,
 * not a placeholder, a path, a name of words or a number.
 */
import { tag, type ScanRule } from './engine.js';
import { isDummy, isPlaceholder, isRedacted, looksRandom } from './values.js';

/**
 * `accessId`, `sumoAccessId`, `ACCESS_ID`, `sumo.access-id`, `SecretId`, `secret_id`, `"access id"`, then a
 * separator and an optionally quoted value. Keys are a literal followed by a separator, values a
 * greedy run of a token alphabet with nothing after it that can fail: linear.
 */
const PAIR_ID =
  /((?<![A-Za-z])(?:access|Access|ACCESS|secret|Secret|SECRET)|(?<=[a-z])(?:Access|Secret))[ _.-]?(?:id|Id|ID)(?![a-z])["']?[ \t]*(?::=|=>|[:=])[ \t]*["']?([A-Za-z0-9_.+/=-]+)/g;

function generated(which: string, v: string): boolean {
  if (v.length < 12 || isRedacted(v) || isPlaceholder(v) || isDummy(v) || !looksRandom(v, 12)) return false;
  if (!/\d/.test(v) || !/[A-Za-z]/.test(v)) return false;
  // Words and numbers joined (`team-alpha-2`, `svc.reporting.v2`) are names.
  if (/^(?:[A-Za-z]+|\d+)(?:[._-](?:[A-Za-z]+|\d+))*$/.test(v) && !/[a-z][A-Z]|[A-Z]{2}[a-z]/.test(v)) return false;
  // An access id is mixed case (generated); a secret id may be a lower-case UUID (Vault's secret_id).
  return which.toLowerCase() === 'secret' ? true : /[a-z]/.test(v) && /[A-Z]/.test(v);
}

export const CREDENTIAL_ID: ScanRule = {
  kind: 'credential-id',
  hints: ['accessid', 'access_id', 'access id', 'access-id', 'access.id', 'secretid', 'secret_id', 'secret id', 'secret-id', 'secret.id'],
  scan: (text) =>
    text.replace(PAIR_ID, (m, which: string, value: string) => {
      const v = value.replace(/[.,;]+$/, '');
      if (!generated(which, v)) return m;
      return `${m.slice(0, m.length - value.length)}${tag('credential-id')}${value.slice(v.length)}`;
    }),
};

export const CREDENTIAL_ID_RULES: readonly ScanRule[] = [CREDENTIAL_ID];
