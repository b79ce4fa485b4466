/**
 * Vendor tokens recognised by their published prefix (and length, charset or checksum shape).
 * One row per kind; a row's `body` is checked in code after a greedy match, so a body of any
 * length is replaced whole and matching never backtracks.
 * Order matters where prefixes nest: `sk-ant-` and `sk-or-v1-` before the OpenAI-style `sk-`,
 * `sk.eyJ` (Mapbox), `ops_eyJ`, `sntrys_eyJ`, `glc_eyJ` before the bare JWT rule.
 */
import { tag, type RegexRule } from './engine.js';
import { isDummy, isJwtIoSample, isRedacted } from './values.js';

// A token must not be glued to the word or token before it: `xghp_…` is not a GitHub token, nor
// is the `ico-<hash>` of a file name `video_box.ico-7a38….png` (a dotted name).
const B = '(?<![A-Za-z0-9_-]|[A-Za-z0-9]\\.)';
/** The same, and not glued to a base64 run before it either. */
const B64 = '(?<![A-Za-z0-9_+/-]|[A-Za-z0-9]\\.)';

export interface VendorRow {
  kind: string;
  /** Regex source of the prefix (the literal part users recognise). */
  prefix: string;
  /** Regex character class of the body, matched greedily and without an upper bound. */
  body: string;
  /** Minimum body length; shorter bodies are prose or truncated examples. */
  min: number;
  /** Extra shape check on the body (e.g. hex only, a fixed length, mixed case). */
  check?: (body: string) => boolean;
  /** Whether the body has the format's full length and structure (values.ts isDummy `fullLength`: typed runs are part of it). */
  full?: (body: string) => boolean;
  /** Lower-case literal(s) that must be present for the row to run; default: the prefix if literal. */
  hints: readonly string[];
  /** Flags besides `g` (e.g. `i`). */
  flags?: string;
  /**
   * The token must not sit inside a base64 run: no `+` or `/` glued before or after it (a prefix
   * such as `EZTK` turns up by chance inside long base64 blobs). For rows whose body excludes `+/`.
   */
  notInBase64?: boolean;
}

const HEX = /^[0-9a-f]+$/;
const hexOnly = (b: string): boolean => HEX.test(b);
const mixed = (b: string): boolean => /\d/.test(b) && /[A-Za-z]/.test(b);
const hasDigit = (b: string): boolean => /\d/.test(b);
const exact = (...lengths: number[]) => (b: string): boolean => lengths.includes(b.length);

const ALNUM = '[A-Za-z0-9]';
const URLSAFE = '[A-Za-z0-9_-]';

const ROWS: VendorRow[] = [
  { kind: 'aws-access-key-id', prefix: '(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA|A3T[A-Z0-9])', body: '[A-Z0-9]', min: 16, check: exact(16, 17), hints: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'APKA', 'A3T'] },
  { kind: 'gcp-api-key', prefix: 'AIza', body: URLSAFE, min: 35, hints: ['AIza'] },
  { kind: 'google-oauth-client-secret', prefix: 'GOCSPX-', body: URLSAFE, min: 20, hints: ['GOCSPX-'] },
  { kind: 'google-oauth-token', prefix: '(?:ya29\\.|1//0)', body: URLSAFE, min: 20, hints: ['ya29.', '1//0'] },
  { kind: 'github-token', prefix: '(?:gh[pousr]_|github_pat_)', body: '[A-Za-z0-9_]', min: 30, hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'] },
  { kind: 'gitlab-token', prefix: '(?:gl(?:pat|dt|rt|ptt|ft|cbt|oas|soat|imt|agent|rrt)-|GR1348941)', body: URLSAFE, min: 20, hints: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glft-', 'glcbt-', 'gloas-', 'glsoat-', 'glimt-', 'glagent-', 'glrrt-', 'GR1348941'] },
  // A bot or user token in full: two numeric ids, then 24 (bot) or 32 (user) letters and digits.
  { kind: 'slack-token', prefix: '(?:xox[abposre]-|xapp-)', body: '[A-Za-z0-9-]', min: 10, check: (b) => hasDigit(b) && !/^[\d-]+$/.test(b), full: (b) => /^\d{10,13}-\d{10,13}-[A-Za-z0-9]{24,32}$/.test(b), hints: ['xox', 'xapp-'] },
  { kind: 'stripe-key', prefix: '(?:sk|rk)_(?:live|test)_', body: ALNUM, min: 10, hints: ['_live_', '_test_'] },
  { kind: 'stripe-webhook-secret', prefix: 'whsec_', body: '[A-Za-z0-9+/=]', min: 20, hints: ['whsec_'] },
  { kind: 'anthropic-key', prefix: 'sk-ant-', body: URLSAFE, min: 20, hints: ['sk-ant-'] },
  { kind: 'openrouter-key', prefix: 'sk-or-v1-', body: '[0-9a-f]', min: 40, hints: ['sk-or-v1-'] },
  { kind: 'mapbox-token', prefix: '(?:sk|pk|tk)\\.eyJ', body: '[A-Za-z0-9_.-]', min: 40, hints: ['.eyJ'] },
  // OpenAI-style `sk-` keys (OpenAI project/service/admin keys, DeepSeek and other compatible APIs).
  { kind: 'openai-key', prefix: 'sk-', body: URLSAFE, min: 20, check: hasDigit, hints: ['sk-'] },
  { kind: 'perplexity-key', prefix: 'pplx-', body: ALNUM, min: 40, hints: ['pplx-'] },
  { kind: 'groq-key', prefix: 'gsk_', body: ALNUM, min: 40, hints: ['gsk_'] },
  { kind: 'xai-key', prefix: 'xai-', body: ALNUM, min: 60, hints: ['xai-'] },
  { kind: 'replicate-token', prefix: 'r8_', body: ALNUM, min: 30, hints: ['r8_'] },
  { kind: 'huggingface-token', prefix: '(?:hf_|api_org_)', body: ALNUM, min: 30, hints: ['hf_', 'api_org_'] },
  { kind: 'npm-token', prefix: 'npm_', body: ALNUM, min: 36, hints: ['npm_'] },
  { kind: 'pypi-token', prefix: 'pypi-Ag', body: URLSAFE, min: 50, hints: ['pypi-Ag'] },
  { kind: 'dockerhub-token', prefix: 'dckr_(?:pat|oat)_', body: URLSAFE, min: 20, hints: ['dckr_'] },
  { kind: 'shopify-token', prefix: 'shp(?:at|ca|pa|ss)_', body: '[0-9a-fA-F]', min: 32, hints: ['shpat_', 'shpca_', 'shppa_', 'shpss_'] },
  { kind: 'square-token', prefix: '(?:sq0atp-|sq0csp-|EAAA)', body: URLSAFE, min: 22, check: mixed, hints: ['sq0atp-', 'sq0csp-', 'EAAA'] },
  { kind: 'postman-key', prefix: 'PMAK-', body: '[0-9a-fA-F-]', min: 50, hints: ['PMAK-'] },
  { kind: 'linear-key', prefix: 'lin_(?:api|oauth)_', body: ALNUM, min: 40, hints: ['lin_api_', 'lin_oauth_'] },
  { kind: 'databricks-token', prefix: 'dapi', body: '[0-9a-f-]', min: 32, check: (b) => /^[0-9a-f]{32}(?:-\d+)?$/.test(b), hints: ['dapi'] },
  { kind: 'grafana-token', prefix: '(?:glsa_|glc_eyJ|eyJrIjoi)', body: '[A-Za-z0-9_=+/-]', min: 32, hints: ['glsa_', 'glc_eyJ', 'eyJrIjoi'] },
  { kind: 'tailscale-key', prefix: 'tskey-(?:auth|api|client|scim|webhook)-', body: '[A-Za-z0-9-]', min: 20, check: hasDigit, hints: ['tskey-'] },
  { kind: 'vault-token', prefix: 'hv[sbr]\\.', body: URLSAFE, min: 20, hints: ['hvs.', 'hvb.', 'hvr.'] },
  // Legacy Vault service tokens: `s.` + 24 characters of mixed case and digits.
  { kind: 'vault-token', prefix: '(?<![.])s\\.', body: ALNUM, min: 24, check: (b) => b.length === 24 && /\d/.test(b) && /[a-z]/.test(b) && /[A-Z]/.test(b), hints: ['s.'] },
  { kind: 'doppler-token', prefix: 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.', body: ALNUM, min: 40, hints: ['dp.'] },
  { kind: 'digitalocean-token', prefix: 'do[opr]_v1_', body: '[0-9a-f]', min: 64, hints: ['_v1_'] },
  { kind: 'cloudflare-origin-ca-key', prefix: 'v1\\.0-', body: '[0-9a-f-]', min: 150, hints: ['v1.0-'] },
  { kind: 'newrelic-key', prefix: '(?:NRAK-|NRII-|NRJS-|NRAA-)', body: '[A-Za-z0-9]', min: 19, hints: ['NRAK-', 'NRII-', 'NRJS-', 'NRAA-'] },
  { kind: 'sentry-token', prefix: '(?:sntrys_eyJ|sntryu_)', body: '[A-Za-z0-9_=+/-]', min: 40, hints: ['sntrys_eyJ', 'sntryu_'] },
  { kind: 'atlassian-token', prefix: '(?:ATATT3|ATCTT3|ATBB)', body: '[A-Za-z0-9_=-]', min: 28, check: mixed, hints: ['ATATT3', 'ATCTT3', 'ATBB'] },
  { kind: 'notion-token', prefix: '(?:secret_|ntn_)', body: ALNUM, min: 40, check: mixed, hints: ['secret_', 'ntn_'] },
  { kind: 'figma-token', prefix: 'fig[dou]_', body: URLSAFE, min: 30, hints: ['figd_', 'figo_', 'figu_'] },
  { kind: 'heroku-key', prefix: 'HRKU-', body: URLSAFE, min: 20, hints: ['HRKU-'] },
  { kind: 'fly-token', prefix: 'FlyV1 fm\\d[a-z]?_', body: '[A-Za-z0-9_=+/,-]', min: 40, hints: ['FlyV1 fm'] },
  { kind: 'supabase-key', prefix: '(?:sbp_|sb_secret_)', body: URLSAFE, min: 20, hints: ['sbp_', 'sb_secret_'] },
  { kind: 'netlify-token', prefix: 'nfp_', body: ALNUM, min: 30, hints: ['nfp_'] },
  { kind: 'pulumi-token', prefix: 'pul-', body: '[0-9a-f]', min: 40, hints: ['pul-'] },
  { kind: 'terraform-cloud-token', prefix: '[A-Za-z0-9]{14}\\.atlasv1\\.', body: '[A-Za-z0-9_=-]', min: 40, hints: ['.atlasv1.'] },
  { kind: 'buildkite-token', prefix: 'bk(?:ua|ct)_', body: '[0-9a-f]', min: 40, hints: ['bkua_', 'bkct_'] },
  { kind: 'circleci-token', prefix: 'CCIPAT_', body: '[A-Za-z0-9_]', min: 40, hints: ['CCIPAT_'] },
  { kind: 'langsmith-key', prefix: 'lsv2_(?:pt|sk)_', body: '[0-9a-f_]', min: 40, hints: ['lsv2_'] },
  { kind: 'contentful-token', prefix: 'CFPAT-', body: URLSAFE, min: 40, hints: ['CFPAT-'] },
  { kind: 'dynatrace-token', prefix: 'dt0[a-z]\\d\\d\\.', body: '[A-Za-z0-9.]', min: 80, hints: ['dt0'] },
  { kind: 'prefect-key', prefix: 'pnu_', body: ALNUM, min: 36, hints: ['pnu_'] },
  { kind: 'readme-key', prefix: 'rdme_', body: ALNUM, min: 60, hints: ['rdme_'] },
  { kind: 'planetscale-token', prefix: 'pscale_(?:tkn|pw|oauth)_', body: '[A-Za-z0-9_.-]', min: 30, hints: ['pscale_'] },
  { kind: 'resend-key', prefix: 're_', body: '[A-Za-z0-9_]', min: 30, check: (b) => /\d/.test(b) && /[a-z]/.test(b) && /[A-Z]/.test(b), hints: ['re_'] },
  { kind: 'infracost-key', prefix: 'ico-', body: ALNUM, min: 32, check: mixed, hints: ['ico-'] },
  { kind: 'age-secret-key', prefix: 'AGE-SECRET-KEY-1', body: '[A-Z0-9]', min: 50, hints: ['AGE-SECRET-KEY-1'] },
  // 1Password account Secret Key: A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX (the second group is optional in older kits).
  // 1Password's "About your Secret Key": 34 letters and numbers in all, so 32 after `A3`; copies
  // that lost a dash (`798JRYLJVD4`) are the same key, so the count, not the grouping, decides.
  { kind: 'onepassword-secret-key', prefix: 'A3-', body: '[A-Z0-9-]', min: 30, check: (b) => /^[A-Z0-9]{6}(?:-[A-Z0-9]{5,6}){5,6}$/.test(b) || (/^[A-Z0-9]{6}(?:-[A-Z0-9]{5,12}){3,6}$/.test(b) && b.replace(/-/g, '').length === 32), hints: ['A3-'] },
  { kind: 'onepassword-service-token', prefix: 'ops_eyJ', body: '[A-Za-z0-9_=+/-]', min: 40, hints: ['ops_eyJ'] },
  { kind: 'twilio-api-key', prefix: 'SK', body: '[0-9a-f]', min: 32, check: exact(32), full: exact(32), hints: ['SK'] },
  { kind: 'twilio-account-sid', prefix: 'AC', body: '[0-9a-f]', min: 32, check: exact(32), full: exact(32), hints: ['AC'] },
  { kind: 'sendgrid-key', prefix: 'SG\\.', body: '[A-Za-z0-9_.-]', min: 40, check: (b) => b.includes('.'), hints: ['SG.'] },
  { kind: 'mailgun-key', prefix: 'key-', body: '[0-9a-z]', min: 32, check: (b) => hexOnly(b) && b.length === 32, hints: ['key-'] },
  { kind: 'mailchimp-key', prefix: '[0-9a-f]{32}-us', body: '[0-9]', min: 1, check: (b) => b.length <= 2, hints: ['-us'] },
  { kind: 'telegram-bot-token', prefix: '\\d{8,10}:AA', body: URLSAFE, min: 30, hints: [':AA'] },
  { kind: 'discord-bot-token', prefix: '[MNO][A-Za-z0-9]{23,25}\\.[A-Za-z0-9_-]{6}\\.', body: URLSAFE, min: 27, hints: ['.'] },
];

/** One row as a rule: the prefix, a greedy body, then length, dummy and shape checks in code. Shared by vendor-*.ts. */
export function vendorRule(row: VendorRow): RegexRule {
  return {
    kind: row.kind,
    hints: row.hints,
    // With `notInBase64`, the character after the body is captured when it is `+` or `/` (an optional
    // group after a greedy run never makes the run give back characters) and judged in code.
    re: new RegExp(`${row.notInBase64 === true ? B64 : B}(${row.prefix})(${row.body}+)${row.notInBase64 === true ? '([+/]?)' : ''}`, `g${row.flags ?? ''}`),
    replace: (match, g) => {
      if ((g[2] ?? '') !== '') return undefined;
      const body = g[1] ?? '';
      if (body.length < row.min || isRedacted(match) || isDummy(body, { fullLength: row.full?.(body) === true })) return undefined;
      if (row.check !== undefined && !row.check(body)) return undefined;
      return tag(row.kind);
    },
  };
}

/**
 * JSON Web Tokens; jwt.io's sample payload (John Doe, sub 1234567890) is documentation, not a secret, and
 * so is a token that says it is an example in its text (`….EXAMPLEFAKESIG`, a `…-xxxx` signature), as
 * every other value that says so (values.ts isDummy's example marks; only those: a token's runs are
 * not judged as typed by hand).
 */
const JWT: RegexRule = {
  kind: 'jwt',
  hints: ['eyJ'],
  re: new RegExp(`${B}(eyJ[A-Za-z0-9_-]+)\\.([A-Za-z0-9_-]+)\\.?([A-Za-z0-9_-]*)`, 'g'),
  replace: (_m, g) => {
    const payload = g[1] ?? '';
    if ((g[0] ?? '').length < 10 || payload.length < 8) return undefined;
    if (isJwtIoSample(_m) || isDummy(_m, { chooser: 'chosen' })) return undefined;
    return tag('jwt');
  },
};

export const VENDOR_RULES: readonly RegexRule[] = [...ROWS.map(vendorRule), JWT];
