import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets, stripPrivateBlocks } from '../../src/lib/memory/redact.js';

// Planted secrets are assembled at run time so this file itself does not look like a
// leaked credential to secret scanners.
const j = (...parts: string[]) => parts.join('');
const A36 = 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5';
const PEM_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu';

interface Planted {
  kind: string;
  text: string;
  /** The part that must disappear. */
  secret: string;
  expected?: string;
}

const PLANTED: Planted[] = [
  { kind: 'aws-access-key-id', text: j('AKIA', 'IOSFODNN7EXAMPL3'), secret: j('AKIA', 'IOSFODNN7EXAMPL3') },
  { kind: 'aws-access-key-id', text: j('key=ASIA', 'Y34FZKBOKMUTVV7A'), secret: j('ASIA', 'Y34FZKBOKMUTVV7A'), expected: 'key=[REDACTED:aws-access-key-id]' },
  {
    kind: 'aws-secret-access-key',
    text: j('aws_secret_access_key = ', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY1234567890'),
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY1234567890',
    expected: 'aws_secret_access_key = [REDACTED:aws-secret-access-key]',
  },
  { kind: 'gcp-api-key', text: j('AIza', 'SyD-U8JZpDE0iGXlD6gNCFbaEPFj_123456'), secret: j('AIza', 'SyD-bD0kH8Oool8DklZDOCj2ISaJ_123456') },
  {
    kind: 'gcp-private-key',
    text: j('{"type": "service_account", "private_key_id": "abc", "private_key": "-----BEGIN PRIVATE KEY-----\\n', 'MIIEvQIBADANBgkqhkiG9w0B', '\\n-----END PRIVATE KEY-----\\n", "client_email": "x@y.iam.gserviceaccount.com"}'),
    secret: 'MIIEvQIBADANBgkqhkiG9w0B',
    expected: '{"type": "service_account", "private_key_id": "abc", "private_key": "[REDACTED:gcp-private-key]", "client_email": "x@y.iam.gserviceaccount.com"}',
  },
  {
    kind: 'azure-storage-key',
    text: j('DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=', 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==', ';EndpointSuffix=core.windows.net'),
    secret: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
    expected: 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net',
  },
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map((p) => ({ kind: 'github-token', text: j(p, A36), secret: j(p, A36) })),
  { kind: 'github-token', text: j('github_pat_', '11ABCDEFG0123456789_iHkTj0rLGlkoMXGjtEkDnNfrib0123456789ABCDEFGHIJKLMNOP'), secret: j('github_pat_', '11ABCDEFG0123456789_xUdl7dXTPyLsxPFkThf4VucSmE0123456789ABCDEFGHIJKLMNOP') },
  { kind: 'gitlab-token', text: j('glpat-', 'xY9_aBcDeFgHiJkLmNoPq'), secret: j('glpat-', 'xY9_aBcDeFgHiJkLmNoPq') },
  { kind: 'slack-token', text: j('xoxb-', '2817364950-4729183650271-', 'Qm7TzK2wXa9LpR4vNc8BhY3e'), secret: j('xoxb-', '2817364950-4729183650271-', 'Qm7TzK2wXa9LpR4vNc8BhY3e') },
  // The value this test held before it was made random (8b4863b; restored by issue 40): a full-length token whose parts count up.
  { kind: 'slack-token', text: j('xoxb-', '1234567890-1234567890123-', 'AbCdEfGhIjKlMnOpQrStUvWx'), secret: j('xoxb-', '1234567890-1234567890123-', 'AbCdEfGhIjKlMnOpQrStUvWx') },
  { kind: 'slack-token', text: j('xoxp-', '1234567890-HgaKwVJ7fa'), secret: j('xoxp-', '1234567890-C9qEwjky40') },
  {
    kind: 'slack-webhook',
    text: j('https://hooks.slack.com/services/', 'T00000000/B00000000/1qH6YytwMe4LbyoVFz8uZdZv'),
    secret: 'T00000000/B00000000/8FuKKIBJl5dzpJn0meq7WJjj',
    expected: 'https://hooks.slack.com/services/[REDACTED:slack-webhook]',
  },
  { kind: 'stripe-key', text: j('sk_live_', '51H8UVsWmflzdE1F8ResqEDusTpkr0'), secret: j('sk_live_', '51H8cStY4qWB8dWKnHfDNxSIvPZZ63') },
  { kind: 'stripe-key', text: j('rk_live_', '51H8fFKcZjR4I0b3jRtaWr4Y9OJFLJ'), secret: j('rk_live_', '51H8OqOAf1lLQSAJaiXnkU8Is2g8np') },
  { kind: 'openai-key', text: j('sk-', 'rvDd53x83rzjZZZZGeoZT3BlbkFJDMENcKHVmDGAkJiG8XnB'), secret: j('sk-', 'E3NnYJoQ9WmXeHH2fdeeT3BlbkFJTFJGvVvQe1sKhBN88hXJ') },
  { kind: 'openai-key', text: j('sk-proj-', 'Ab12_Cd34-Ef56Gh78Ij90Kl12Mn34Op56Qr78St90'), secret: j('sk-proj-', 'Ab12_Cd34-Ef56Gh78Ij90Kl12Mn34Op56Qr78St90') },
  { kind: 'anthropic-key', text: j('sk-ant-', 'api03-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56-AA'), secret: j('sk-ant-', 'api03-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56-AA') },
  { kind: 'google-oauth-client-secret', text: j('GOCSPX-', 'AbCdEfGhIjKlMnOpQrStUvWxYz12'), secret: j('GOCSPX-', 'AbCdEfGhIjKlMnOpQrStUvWxYz12') },
  { kind: 'google-oauth-token', text: j('ya29.', 'a0AfH6SMBx1234567890si6BwhTp3Fs2QhX6'), secret: j('ya29.', 'a0AfH6SMBx1234567890KWxOiixgVoOnzyw2') },
  { kind: 'npm-token', text: j('npm_', 'MzP0ZvzOMhfWuBByReQMsm9Wcz0123456789'), secret: j('npm_', '7uW9XFOGOeMVNen5n1Ae6pWzpF0123456789') },
  { kind: 'twilio-api-key', text: j('SK', '7c1e94b0d25fa3861e0b7d4c92f5a6e3'), secret: j('SK', '7c1e94b0d25fa3861e0b7d4c92f5a6e3') },
  { kind: 'twilio-account-sid', text: j('AC', 'e5a0c39f17d4b82a6f0e91c3d7b48a25'), secret: j('AC', 'e5a0c39f17d4b82a6f0e91c3d7b48a25') },
  // The values these tests held before they were made random (ebf87af; restored by issue 40).
  { kind: 'twilio-api-key', text: j('SK', '0123456789abcdef0123456789abcdef'), secret: j('SK', '0123456789abcdef0123456789abcdef') },
  { kind: 'twilio-account-sid', text: j('AC', '0123456789abcdef0123456789abcdef'), secret: j('AC', '0123456789abcdef0123456789abcdef') },
  { kind: 'sendgrid-key', text: j('SG.', 'ngeVfQFYQlKU0ufo8x5d1A', '.', 'TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr'), secret: j('SG.', 'ngeVfQFYQlKU0ufo8x5d1A', '.', 'TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr') },
  {
    kind: 'jwt',
    text: j('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ', '.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'),
    secret: j('eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ', '.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'),
  },
  {
    kind: 'pem-private-key',
    text: j('-----BEGIN RSA PRIVATE KEY-----\n', PEM_BODY, '\n-----END RSA PRIVATE KEY-----'),
    secret: 'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu',
  },
  {
    kind: 'pem-private-key',
    text: j('-----BEGIN OPENSSH PRIVATE KEY-----\n', PEM_BODY, '\n-----END OPENSSH PRIVATE KEY-----'),
    secret: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
  },
  {
    kind: 'pem-private-key',
    text: j('-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n', PEM_BODY, '\n-----END PGP PRIVATE KEY BLOCK-----'),
    secret: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
  },
  { kind: 'url-password', text: 'postgres://admin:S3cr3t!pw@db.internal:5432/app', secret: 'S3cr3t!pw', expected: 'postgres://admin:[REDACTED:url-password]@db.internal:5432/app' },
  { kind: 'url-password', text: 'redis://:hunter2hunter2@cache:6379', secret: 'hunter2hunter2', expected: 'redis://:[REDACTED:url-password]@cache:6379' },
  { kind: 'url-password', text: 'https://bob:pa:ss%40word@example.com/x', secret: 'pa:ss%40word', expected: 'https://bob:[REDACTED:url-password]@example.com/x' },
  {
    kind: 'authorization',
    text: j('curl -H "Authorization: Bearer ', 'abc123def456ghi789jkl', '" https://api'),
    secret: 'abc123def456ghi789jkl',
    expected: 'curl -H "Authorization: Bearer [REDACTED:authorization]" https://api',
  },
  { kind: 'authorization', text: j('Authorization: Basic ', 'dXNlcjpwYXNzd29yZA=='), secret: 'dXNlcjpwYXNzd29yZA==', expected: 'Authorization: Basic [REDACTED:authorization]' },
  { kind: 'bearer-token', text: j('send Bearer ', 'f3a9c1e07b4d52e8a6c0d9'), secret: 'f3a9c1e07b4d52e8a6c0d9', expected: 'send Bearer [REDACTED:bearer-token]' },
  // The value this test held before it was made random (ebf87af; restored by issue 40).
  { kind: 'bearer-token', text: j('send Bearer ', 'abcdef0123456789abcdef'), secret: 'abcdef0123456789abcdef', expected: 'send Bearer [REDACTED:bearer-token]' },
  { kind: 'password', text: 'password = hunter2!', secret: 'hunter2!', expected: 'password = [REDACTED:password]' },
  { kind: 'password', text: 'DB_PASSWORD=Tr0ub4dor&3', secret: 'Tr0ub4dor&3', expected: 'DB_PASSWORD=[REDACTED:password]' },
  { kind: 'password', text: '**Password:** c0rrect-horse', secret: 'c0rrect-horse', expected: '**Password:** [REDACTED:password]' },
  { kind: 'password', text: 'password: 482913', secret: '482913', expected: 'password: [REDACTED:password]' },
  // The value this test held before it was made random (ebf87af; restored by issue 40): the most common password there is.
  { kind: 'password', text: 'password: 123456', secret: '123456', expected: 'password: [REDACTED:password]' },
  { kind: 'password', text: 'password = $ecretPass1', secret: '$ecretPass1', expected: 'password = [REDACTED:password]' },
  { kind: 'api-key', text: '{"api_key": "0a1b2c3d4e5f"}', secret: '0a1b2c3d4e5f', expected: '{"api_key": "[REDACTED:api-key]"}' },
  { kind: 'api-key', text: 'My API key: 9f8e7d6c5b4a3210', secret: '9f8e7d6c5b4a3210', expected: 'My API key: [REDACTED:api-key]' },
  { kind: 'token', text: "export SERVICE_TOKEN='q1w2e3r4t5y6'", secret: 'q1w2e3r4t5y6', expected: "export SERVICE_TOKEN='[REDACTED:token]'" },
  { kind: 'secret', text: 'client_secret: `Zx9-Yw8_Xv7`', secret: 'Zx9-Yw8_Xv7', expected: 'client_secret: `[REDACTED:secret]`' },
  { kind: 'secret', text: 'secret=abc123xyz789', secret: 'abc123xyz789', expected: 'secret=[REDACTED:secret]' },
];

describe('redactSecrets: each planted secret is removed', () => {
  it.each(PLANTED.map((p) => [p.kind, p]))('%s', (kind, p) => {
    const text = `Notes before.\n${p.text}\nNotes after.`;
    const r = redactSecrets(text);
    expect(r.text).not.toContain(p.secret);
    expect(r.text).toContain(`[REDACTED:${kind}]`);
    expect(r.counts[kind]).toBeGreaterThanOrEqual(1);
    expect(r.total).toBeGreaterThanOrEqual(1);
    expect(r.text.startsWith('Notes before.\n')).toBe(true);
    expect(r.text.endsWith('\nNotes after.')).toBe(true);
    if (p.expected !== undefined) expect(r.text).toBe(`Notes before.\n${p.expected}\nNotes after.`);
  });

  it('labels Anthropic keys as anthropic, not OpenAI (order matters)', () => {
    const r = redactSecrets(j('sk-ant-', 'api03-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56-AA'));
    expect(r.counts).toEqual({ 'anthropic-key': 1 });
  });

  it('redacts a PEM block as one, before generic rules see its lines', () => {
    const r = redactSecrets(j('private_key = -----BEGIN EC PRIVATE KEY-----\n', PEM_BODY, '\n-----END EC PRIVATE KEY-----\n'));
    expect(r.text).toBe('private_key = [REDACTED:pem-private-key]\n');
    expect(r.total).toBe(1);
  });

  it('an unclosed PEM block loses its key lines but not the text after a blank line', () => {
    const r = redactSecrets(j('-----BEGIN PRIVATE KEY-----\n', PEM_BODY, '\n\nThe rest of the note.'));
    expect(r.text).toBe('[REDACTED:pem-private-key]\n\nThe rest of the note.');
  });

  it('counts several secrets by kind', () => {
    const r = redactSecrets(j('a ghp_', A36, ' b ghs_', A36, ' c ', 'AKIA', 'IOSFODNN7EXAMPL3'));
    expect(r.counts).toEqual({ 'github-token': 2, 'aws-access-key-id': 1 });
    expect(r.total).toBe(3);
  });

  it('does not redact twice', () => {
    const once = redactSecrets(j('token = ghp_', A36, '\npassword = hunter2!'));
    const twice = redactSecrets(once.text);
    expect(twice.text).toBe(once.text);
    expect(twice.total).toBe(0);
  });
});

describe('redactSecrets: prose is untouched', () => {
  const PROSE = [
    'We need to fix the password reset flow before Friday.',
    'The API key is stored in the vault, never in the repo.',
    'password: reset it via the admin panel',
    '**Password:** Reset via the admin panel.',
    'token: the JWT is refreshed every hour.',
    'Token refresh happens every hour; see the auth service.',
    'The bearer token expires after 1 hour.',
    'Authorization: required for all endpoints.',
    'Authorization: Bearer <token>',
    'Authorization: Bearer $API_TOKEN',
    'password = $DB_PASSWORD',
    'token: ${GITHUB_TOKEN}',
    'Set the secret in your environment (secret: ${API_SECRET}).',
    'api_key: <your key here>',
    'password = getPassword()',
    'token = self.config.token',
    'max_tokens: 4096',
    'token_count = 123456',
    'password_file: /etc/app/password.txt',
    'secret_name: prod-database',
    'tokenizer: cl100k_base',
    'The ghp_ prefix marks GitHub tokens; AKIA marks AWS key ids; JWTs start with eyJ.',
    'Use sk-learn and scikit-learn for the model.',
    '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----',
    'Connect to postgres://localhost:5432/app or https://example.com/path?x=1',
    'Mail me at someone@example.com.',
    'secrets: managed by 1Password',
    'The keys: stored in KMS.',
    'passwords: rotate quarterly',
    'What do I know about the knowledge graph and add_memory?',
  ];

  it.each(PROSE.map((p) => [p]))('%j', (text) => {
    const r = redactSecrets(text);
    expect(r.text).toBe(text);
    expect(r.total).toBe(0);
    expect(r.counts).toEqual({});
  });
});

describe('redactSecrets: performance', () => {
  it('handles megabytes of adversarial text quickly (no catastrophic backtracking)', () => {
    const inputs = [
      'a'.repeat(2_000_000),
      'password'.repeat(200_000),
      'x_'.repeat(1_000_000),
      '"private_key": "'.concat('a'.repeat(1_000_000)),
      'https://u:'.concat('p'.repeat(1_000_000)),
      '-----BEGIN PRIVATE KEY-----'.concat('\nAAAA'.repeat(200_000)),
      'eyJ'.concat('a'.repeat(1_000_000)),
      'password= '.repeat(100_000),
    ];
    // A ratio, not a wall-clock limit: each adversarial input is timed against ordinary prose of the
    // same length redacted just before it, so a loaded machine slows both alike. Backtracking that
    // goes quadratic on 1–2 MB is thousands of times slower than the prose (10^12 steps); linear work
    // stays within a few tens (the densest input, a megabyte of `password= `, is about 30×).
    const prose = 'The staging cluster rotates its certificates every ninety days. '.repeat(40_000);
    for (const input of inputs) {
      const baseline = prose.slice(0, input.length);
      const t0 = performance.now();
      redactSecrets(baseline);
      const t1 = performance.now();
      redactSecrets(input);
      const t2 = performance.now();
      expect((t2 - t1) / Math.max(t1 - t0, 50), `${input.slice(0, 20)}… against prose of its length`).toBeLessThan(200);
    }
  });
});

describe('redactSecrets: property — arbitrary text', () => {
  it('arbitrary unicode text never throws and redaction is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 500 }), (text) => {
        const once = redactSecrets(text);
        expect(redactSecrets(once.text).text).toBe(once.text);
      }),
    );
  });
});

describe('stripPrivateBlocks', () => {
  it('removes multi-line, case-insensitive blocks and counts them', () => {
    const r = stripPrivateBlocks('keep 1\n<private>\nsecret line\n</private>\nkeep 2 <PRIVATE reason="x">inline</Private> keep 3');
    expect(r).toEqual({ text: 'keep 1\n\nkeep 2  keep 3', count: 2, unclosed: false, warnings: [] });
  });

  it('nested blocks count once and are removed whole', () => {
    const r = stripPrivateBlocks('a <private>x <private>y</private> z</private> b');
    expect(r.text).toBe('a  b');
    expect(r.count).toBe(1);
  });

  it('an unclosed block removes everything after it and warns', () => {
    const r = stripPrivateBlocks('public\n<private>\nsecret\nmore secret');
    expect(r.text).toBe('public\n');
    expect(r.count).toBe(1);
    expect(r.unclosed).toBe(true);
    expect(r.warnings[0]).toMatch(/not closed/);
    expect(r.warnings.join()).not.toContain('secret\n');
  });

  it('leaves text without blocks (and stray closers, and look-alike tags) alone', () => {
    for (const text of ['nothing here', 'a </private> b', 'a <privateer> b', 'the word private']) {
      expect(stripPrivateBlocks(text)).toEqual({ text, count: 0, unclosed: false, warnings: [] });
    }
  });

  it('property: text inside a block never survives', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), fc.stringMatching(/^[A-Za-z0-9]{12,30}$/), fc.string({ maxLength: 100 }), fc.boolean(), (before, secret, after, close) => {
        fc.pre(!before.includes(secret) && !after.includes(secret));
        const r = stripPrivateBlocks(`${before}<private>${secret}${close ? '</private>' : ''}${after}`);
        expect(r.text).not.toContain(secret);
      }),
    );
  });
});
