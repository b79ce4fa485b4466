/**
 * Vendor tokens found by the prefix their vendor documents, with no credential word needed beside
 * them (issue 29: a token pasted alone on a line, in a URL's query or in a log is still a token).
 * Each row is a documented prefix followed by a long run of the token's alphabet; the length and
 * shape checks keep prose and truncated examples out. The rows run with vendor.ts's (same engine,
 * same `vendorRule`), after them, so a more specific row there keeps its label.
 *
 * Sources (the vendors' own documentation):
 * - EasyPost, "Authentication and Key Management" (docs.easypost.com/docs/authentication): test and
 *   production API keys, used as the Basic-auth user name; production keys begin `EZAK`, test keys
 *   `EZTK`, followed by a long alphanumeric run.
 * - Sourcegraph, "Revoking an access token" (sourcegraph.com/docs/cli/how-tos): "access tokens are
 *   tokens starting with sgp_"; "Secret formats" (sourcegraph.com/docs/dev/security/secret_formats)
 *   and the token check in Sourcegraph's own src-cli: `sgp_` or `sgph_`, an optional instance id
 *   and `_` (`local` or 16 hex as issued), then 40 hex characters of either case.
 * - SonarQube, "Managing your tokens" (docs.sonarsource.com): user, project-analysis and
 *   global-analysis tokens, prefixed `squ_`, `sqp_` and `sqa_`, then 40 hex characters.
 * - Slack, "tooling.tokens.rotate" (docs.slack.dev): app configuration tokens `xoxe.xoxp-…` /
 *   `xoxe.xoxb-…` and their refresh tokens `xoxe-…` (vendor.ts's `xox?-` row covers the tail; the
 *   row here takes the whole `xoxe.` token so no piece is left).
 * - Red Hat OpenShift, "OAuth APIs" (docs.redhat.com, OAuthAccessToken): OAuth access tokens are
 *   `sha256~` followed by unpadded URL-safe base64 (43 characters for a 256-bit token).
 * - Fly.io, flyctl `tokens` and the macaroon library's README (fly.io/docs/flyctl, hexdocs macfly):
 *   macaroon tokens `fm1a_`/`fm1r_`/`fm2_…` (base64, several joined by commas), with or without
 *   the `FlyV1 ` scheme vendor.ts requires; OAuth tokens `fo1_`.
 * - Facebook (Meta) Graph API access tokens begin `EAA` then a long base62 run (user, page and
 *   system-user tokens alike; the examples in Meta's access-token docs and Graph API Explorer show
 *   this shape). Square's `EAAA` tokens are vendor.ts's and run first.
 * - 42 (Intra) API v2 application secrets, as the 42 developer portal issues them: `s-s4t2ud-`
 *   (user apps) or `s-s4t2af-` (school apps), then 64 hex characters.
 */
import type { RegexRule } from './engine.js';
import { vendorRule, type VendorRow } from './vendor.js';

const HEX = /^[0-9a-f]+$/;
const mixedCase = (b: string): boolean => /\d/.test(b) && /[a-z]/.test(b) && /[A-Z]/.test(b);

const ROWS: VendorRow[] = [
  { kind: 'easypost-key', prefix: 'EZ[AT]K', body: '[A-Za-z0-9]', min: 40, check: mixedCase, hints: ['EZAK', 'EZTK'] },
  // `sgp_` (or `sgph_`) then 40 hex, optionally after an instance id and an underscore.
  { kind: 'sourcegraph-token', prefix: 'sgph?_', body: '[A-Za-z0-9_]', min: 40, check: (b) => /^(?:[A-Za-z0-9]{1,32}_)?[0-9a-fA-F]{40}$/.test(b), hints: ['sgp_', 'sgph_'] },
  { kind: 'sonarqube-token', prefix: 'sq[upa]_', body: '[0-9a-f]', min: 40, check: (b) => b.length === 40 && HEX.test(b), hints: ['squ_', 'sqp_', 'sqa_'] },
  { kind: 'slack-token', prefix: 'xoxe\\.xox[a-z]-', body: '[A-Za-z0-9-]', min: 20, check: (b) => /\d/.test(b), hints: ['xoxe.'] },
  { kind: 'openshift-token', prefix: 'sha256~', body: '[A-Za-z0-9_-]', min: 40, check: (b) => /\d/.test(b) && /[A-Za-z]/.test(b), hints: ['sha256~'] },
  { kind: 'fly-token', prefix: '(?:fm1[ar]|fm2|fo1)_', body: '[A-Za-z0-9_=+/,-]', min: 40, hints: ['fm1a_', 'fm1r_', 'fm2_', 'fo1_'] },
  { kind: 'facebook-token', prefix: 'EAA[A-Z]', body: '[A-Za-z0-9]', min: 60, check: mixedCase, hints: ['EAA'] },
  { kind: 'intra42-secret', prefix: 's-s4t2(?:ud|af)-', body: '[0-9a-f]', min: 64, check: (b) => b.length === 64, hints: ['s-s4t2'] },
];

// None of these bodies holds `+` or `/`: a prefix glued to a base64 run is chance, not a token.
export const VENDOR_DOCUMENTED_RULES: readonly RegexRule[] = ROWS.map((row) => vendorRule({ ...row, notInBase64: !row.body.includes('+') }));
