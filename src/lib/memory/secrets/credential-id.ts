/**
 * Credentials under names the context rules read as "not a secret": an id, a login.
 *
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
import { isHighEntropy } from './context.js';
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

/**
 * A token given where a login name goes: SonarQube's `sonar.login` property ("the authentication
 * token of a SonarQube user", SonarQube's analysis parameters; `sonar.token` since 10.0) and tools
 * that copied it (`SONAR_LOGIN=…`, `--login …`). A login name is chosen and short; only a long
 * generated value (isHighEntropy, 20+ characters) is taken for a token.
 */
const LOGIN_VALUE = /((?<![A-Za-z])(?:login|Login|LOGIN)(?![a-z])["']?(?:[ \t]*(?::=|=>|[:=])[ \t]*|[ \t]+)["']?)([A-Za-z0-9_.+/=-]+)/g;

export const LOGIN_TOKEN: ScanRule = {
  kind: 'login-token',
  hints: ['login'],
  scan: (text) =>
    text.replace(LOGIN_VALUE, (m, head: string, value: string) => {
      const v = value.replace(/[.,;]+$/, '');
      if (v.length < 20 || !isHighEntropy(v)) return m;
      return `${head}${tag('login-token')}${value.slice(v.length)}`;
    }),
};

export const CREDENTIAL_ID_RULES: readonly ScanRule[] = [CREDENTIAL_ID, LOGIN_TOKEN];
