/**
 * Credentials in a URL's query under names the `key = value` rules do not take alone: `?key=…`
 * (Google Maps and other APIs take their API key so, per their docs), `&auth=…`, and the
 * signatures of pre-signed URLs (`X-Amz-Signature`, AWS "Authenticating Requests: Using Query
 * Parameters"; `X-Goog-Signature`, Google Cloud Storage "Signed URLs"; `signature`), which grant
 * access to whoever holds the URL until it expires. (`sig=` of Azure SAS is structured.ts's; named
 * credentials such as `api_key=` and `access_token=` are assignment.ts's.)
 *
 * Only a value that looks generated counts (16+ characters with a digit, not a placeholder), so
 * `?key=value` in a document and `?key=en-US` stay.
 */
import { tag, type RegexRule } from './engine.js';
import { looksRandom } from './values.js';

export const URL_QUERY_CREDENTIAL: RegexRule = {
  kind: 'url-query-credential',
  hints: ['key=', 'auth=', 'signature='],
  re: /([?&](?:key|auth|signature|x-amz-signature|x-goog-signature)=)([A-Za-z0-9%._~+/=-]+)/gi,
  replace: (_m, g) => {
    const value = g[1] ?? '';
    if (value.length < 16 || !/\d/.test(value) || !looksRandom(value, 16)) return undefined;
    return `${g[0]}${tag('url-query-credential')}`;
  },
};

/**
 * The query of an image's URL ending right before a `token=` (`…/graph/badge.svg?token=…`): a
 * status badge's embed token, which Codecov, Travis CI and the like issue read-only for pasting
 * into a README, public by design. (Google's map images take `key=`, which is not this.)
 */
const IMAGE_QUERY = /\.(?:svg|png|gif)\?(?:[\w.-]+=[^&\s"'()]*&)*$/i;

export function isImageEmbedToken(before: string, key: string): boolean {
  return /^token$/i.test(key) && IMAGE_QUERY.test(before.slice(-200));
}
