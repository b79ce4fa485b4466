/**
 * Issue 29, precision: benign classes found in the dev docs (documentation of projects that handle
 * credentials, test/support/secret-heldout/dev-docs.json), one test per class, each beside a
 * real-looking value in the same place that must still be removed. Values are written here, not
 * copied from the docs.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { survives } from '../support/secret-corpus.js';

// Assembled at run time so this file does not look like a leaked credential to scanners.
const j = (...parts: string[]) => parts.join('');
const PW = j('Zx8!pq', '3Rt#w');
const TOKEN = j('a8Fk2Lq9Zt4Mx7Bn', '3Vc6Xz1Qw5Er8Ty0');

const untouched = (text: string): void => expect(redactSecrets(text).text).toBe(text);
const removed = (text: string, secret: string): void => expect(survives(redactSecrets(text).text, secret)).toBe(false);

describe('a remark in brackets after an argument name (Terraform argument references)', () => {
  it('`(Optional)`, `(Required, Sensitive)` after ` - ` stay', () => {
    untouched('* `token` - (Optional) The Vault token used to log in.');
    untouched('* `password` - (Required, Sensitive) The password to log in with.');
    untouched('- `client_secret` - (Optional) The client secret of the app.');
  });
  it('a value after the same separator is removed', () => {
    removed(`* token - ${TOKEN}`, TOKEN);
    removed(`* password - ${PW}`, PW);
  });
});

describe('names and types where a key or token goes', () => {
  it('a lowerCamelCase name, a slug with a word, a code type and a mention stay', () => {
    untouched('secretKey: registryName');
    untouched('- secretKey: test-login-1');
    untouched('apiKey: "sk_test_123"');
    untouched('Json tag: token `json:"accessTokenSpec,omitempty"`');
    untouched('| privateKey | `[]byte` |\n|---|---|\n| pemKey | `map[string]string` |');
    untouched('Added incoming.allow to AccessToken VoiceGrant. Thanks to @some-contributor!');
  });
  it('short random parts joined by separators, and random tokens, are still removed', () => {
    const parts = j('Zx9-Yw8', '_Xv7');
    removed(`client_secret: \`${parts}\``, parts);
    removed(`secretKey: ${TOKEN}`, TOKEN);
  });
  it('a password may be words: a pass phrase is still removed', () => {
    removed('password: correct-horse-battery-staple-42', 'correct-horse-battery-staple-42');
  });
});

describe('markup and clauses around a credential word in prose', () => {
  it('closing HTML tags after a word are markup', () => {
    untouched('<p>The key where the token is found.</p>');
    untouched('<p>Required unless Token is set.</p>');
  });
  it('a clause word makes the word its subject, not a label (`where secret is located`, `when format is set to`)', () => {
    untouched('<p>Project where secret is located</p>');
    untouched('Password for the archive when format is set to "pkcs12".');
    untouched('# Except db-admin-password which goes to admin/');
  });
  it('the same sentences holding a value are still removed', () => {
    removed(`The token is ${TOKEN}</p>`, TOKEN);
    removed(`The password for the archive is set to "${PW}".`, PW);
  });
});

describe('separators that are not a label', () => {
  it('a shell pipe, a regex alternation and a template pipeline are not a table', () => {
    untouched("kubectl get secret app -o jsonpath='{.data.secretKey}' | base64 -d");
    untouched('(?:SECRET|PRIVATE|ACCESS|KEY|TOKEN)');
    untouched('Use a private key in the same secret: `( .private_key | rsaDecrypt ... )`.');
  });
  it('a markdown row still is', () => {
    removed(`| secret | ${TOKEN} |`, TOKEN);
  });
  it('a colon between digits is a time or a port', () => {
    untouched('Expiration date for the secret in RFC3339 format (e.g. `2099-12-31T23:59:59Z`).');
  });
  it('an escaped line break right after the separator starts no value', () => {
    untouched('"private_key": "-----BEGIN RSA PRIVATE KEY-----\\nMIIEpQ ... /WZs=\\n-----END RSA PRIVATE KEY-----\\n",');
  });
});

describe('a description of the credential, not the credential', () => {
  it('a word naming the credential right after the bare value (`Password: OpenStack password`)', () => {
    untouched('- **Password**: OpenStack password (stored in a Kubernetes secret)');
    untouched('Token: GitHub token with the repo scope');
  });
  it('a value followed by other words is still removed', () => {
    removed(`- **Password**: ${PW} (stored in the vault)`, PW);
  });
});

describe('a placeholder written in base64 in a Secret manifest', () => {
  const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
  it('base64 of a placeholder word stays (`test` as a token, `XXXX`)', () => {
    untouched(`token: ${b64('test')} # "test"`);
    untouched(`ACCESS_KEY: ${b64('XXXX')}`);
  });
  it('issue 40: base64 of a common password is that password (`root`, `mypassword`), removed', () => {
    removed(`  password: ${b64('root')}`, b64('root'));
    removed(`password: ${b64('mypassword')} # base64 encoded`, b64('mypassword'));
  });
  it('base64 of a password or of random bytes is still removed', () => {
    const pw = b64(PW);
    removed(`password: ${pw}`, pw);
    const random = j('q8Zr', 'Lw2x', 'Nf5t', 'Yk1B');
    removed(`token: ${random}`, random);
  });
});

describe('a PEM block around no key material', () => {
  it('a JSON private key whose block holds words or a template stays', () => {
    untouched('"private_key": "-----BEGIN PRIVATE KEY-----\\nA key\\n-----END PRIVATE KEY-----\\n",');
    untouched('"private-key": "-----BEGIN PRIVATE KEY-----\\n<private-key>\\n-----END PRIVATE KEY-----\\n",');
  });
  it('a block around key material is removed', () => {
    const body = j('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'BKcwggSjAgEAAoIBAQC7');
    removed(`"private_key": "-----BEGIN PRIVATE KEY-----\\n${body}\\n-----END PRIVATE KEY-----\\n",`, body);
  });
});

describe('names that hold a credential word but name something else', () => {
  it('a camelCase word after the credential word says what about it (`secretVersionSelectionPolicy`)', () => {
    untouched('secretVersionSelectionPolicy: LatestOrFetch');
    untouched('tokenType: BearerTokenV2');
  });
  it("a type or field name that refers to a credential (`BarbicanProviderPasswordRef`) stays, in a password's cell too", () => {
    untouched('| `password` | BarbicanProviderPasswordRef | Yes |');
    untouched('secret: ClientSecretSpec');
  });
  it('a product named with a digit before the word (`1Password`) is not the word', () => {
    untouched('| [1Password SDK](https://example.org/provider/1password-sdk) | alpha |');
    untouched('To create it as a secret in 1Password, a `Kind=PushSecret` resource is needed.');
  });
  it('the credential keys themselves still work', () => {
    removed(`secretKey: ${TOKEN}`, TOKEN);
    removed(`DB1PASSWORD=${PW}`, PW);
    removed(`| password | ${PW} |`, PW);
  });
});

describe('a vendor prefix with a mask of three x', () => {
  it('`whsec_xxx`, `sk_live_XXX` stay', () => {
    untouched('> Ready! Your webhook signing secret is whsec_xxx');
    untouched('STRIPE_SECRET_KEY=sk_live_XXX');
  });
  it('a token that ends in random characters is removed', () => {
    const t = j('whsec_', TOKEN);
    removed(`Your webhook signing secret is ${t}`, t);
  });
});

describe('more classes from the dev docs (second pass: Traefik, Argo CD, Docker CLI)', () => {
  it('a URN that refers to a secret is a reference, and a credential word inside it is one of its parts', () => {
    untouched('password: urn:k8s:secret:redis:password');
    untouched('urn:k8s:secret:[name]:[valueKey]');
  });
  it('the name of an encoding or a format is not the secret', () => {
    untouched('# Ensure the secret is base64 encoded');
    untouched('The token is sha256 hashed before it is stored.');
  });
  it("a list of name=value options (Docker's --secret) is settings, unless a name is a credential's", () => {
    untouched('docker service create --secret source=ssh-key,target=ssh,mode=0400 redis');
    removed(`--secret user=app,password=${PW}`, PW);
  });
  it('words after an Authorization scheme are an example; a token there is removed', () => {
    untouched('curl -H "Authorization: Bearer strong-password" http://localhost:4355/api');
    removed(`curl -H "Authorization: Bearer ${TOKEN}" http://localhost:4355/api`, TOKEN);
  });
  it("a quoted policy name after 'this token is' is a name; a quoted token there is removed", () => {
    untouched("The ACL privilege for this token is 'read-job', as the docs say.");
    removed(`The API token is '${TOKEN}', as the docs say.`, TOKEN);
  });
  it('a bare word and a colon after the separator is the next label, not a value', () => {
    untouched('acme: error presenting token: gandiv5: unexpected authZone example.com.');
  });
  it("`to` after a verb in -ing is the verb's", () => {
    untouched('Defines a password for connecting to zooKeeper.');
    removed(`The password was changed to ${PW}.`, PW);
  });
  it('a template variable with hyphens ($email-password) is a reference', () => {
    untouched('{ username: $email-username, password: $email-password, host: smtp.example.org }');
  });
});

describe('markup, masks and comments around a value (dev docs, third pass)', () => {
  it('quotes written as HTML entities around a file name, an entity ending a run', () => {
    untouched('If no key for the Secret is specified, external-secret will default to &lsquo;tls.crt&rsquo;.</p>');
    untouched('</tr><tr><td><p>&#34;BeyondtrustWorkloadCredentialsDynamicSecret&#34;</p></td>');
  });
  it('a mask of stars around a value after the separator', () => {
    untouched('kubectl create secret generic ob --from-literal=API_KEY=*****VZYKYJNMMEMK***** \\');
  });
  it('a comment telling the reader to put their own value there', () => {
    untouched('  password: "P@ssw0rd"      # Replace with an actual password');
    untouched('db_password: "Welcome2024!"  # change this to your own');
  });
  it('the same values without such a comment, or with another comment, are removed', () => {
    removed(`  password: "${PW}"      # rotated in March`, PW);
    removed(`api_key = "${TOKEN}"  // prod`, TOKEN);
  });
  it('a closing bracket after the word ends a template (`{{ .password }}@host`)', () => {
    untouched('postgresql://{{ .username }}:{{ .password }}@my-postgresql:5432/mydb');
  });
  it('a quoted password may open with a closing bracket', () => {
    const pw = j(']35d/{pB', '9Fo9wJ');
    removed(`"NewPassword": "${pw}"`, pw);
  });
  it('a type in code is not a password either', () => {
    untouched('| pkcs12keyPass | extracts the key using the provided password | password `string` | `[]byte` |');
  });
});

describe('classes from the SDK docs (dev docs, fourth pass: Slack Bolt, Mailgun, Auth0)', () => {
  it('a table cell of Japanese prose is text', () => {
    untouched('| `signingSecret` | アプリの設定の「Basic Information」から取得した 文字列。 |');
  });
  it('a markdown link after the word is a reference', () => {
    untouched('- Support providing Organization when resetting password [\\#892](https://github.com/auth0/node-auth0/pull/892)');
  });
  it('a bold remark in brackets (`(**Required**)`)', () => {
    untouched('| password     | (**Required**) Supply desired password for the credentials |');
  });
  it('words that name the value and end in the credential word (`user_password`, `new password`)', () => {
    untouched("  password: 'user_password' // provide password");
    untouched("  password: 'new password',");
  });
  it('a password with words and other characters is still removed', () => {
    removed("  password: 'user_password_9!Qx'", 'user_password_9!Qx');
  });
});

describe('code that handles credentials and holds none (dev docs, fifth pass: SDK and tool sources)', () => {
  it('a type annotation or a type alias after the name', () => {
    untouched('  client_secret: string;');
    untouched('function isUnsafeAccessToken(accessToken: string): boolean {');
    untouched("  authorization: Partial<AuthorizeResult> & { botToken: Required<AuthorizeResult>['botToken'] },");
    untouched('export type CardToken = Stripe.Token;');
  });
  it("Go's conversions, slices and composite literals", () => {
    untouched('\tsecret := []byte("test")');
    untouched('\tsecretTypes := []string{"static-secret", "dynamic-secret"}');
    untouched('\tsecretRequest := ssm.PutParameterInput{');
  });
  it('a variable whose name ends in the credential word, a statement ending in `;`', () => {
    untouched('context.functionBotAccessToken = functionBotAccessToken;');
    untouched('testOnlyAgePassword = mockIdentityPassphrase');
    untouched('this.pool[token] = client;');
  });
  it("an escaped line break or a comma right after the label: the string's or the call's, not a value", () => {
    untouched('t.Errorf("\\nTesting SetSecret:\\nName: %v\\nReason: %v", name, tc.reason)');
    untouched('pm.RegisterPassword("Paste your secret:", func(_, _ string) (string, error) {');
  });
  it('a mask of bullets or stars inside a value, a test fixture stand-in (`abc123`)', () => {
    untouched('- Generic High Entropy Secret (**valid**): byIvS••••TXHU');
    untouched('  - Token: gho_******');
    untouched('\t\tToken:    "abc123",');
  });
  it('real values in the same places are still removed', () => {
    removed(`  client_secret: "${TOKEN}";`, TOKEN);
    removed(`\tsecret := "${TOKEN}"`, TOKEN);
    removed(`testOnlyAgePassword = "${PW}"`, PW);
    removed('\t\tToken:    "abc123xyz789",', 'abc123xyz789');
  });
});

describe('stand-ins, references and words where a value goes (dev docs, sixth pass: what the fifth left)', () => {
  it('a counting stand-in after a vendor prefix (`xoxb-123abc`, `gho_abc123`): no vendor issues six characters', () => {
    untouched("    botToken: 'xoxb-456def',");
    untouched('\tenv: map[string]string{"GH_TOKEN": "gho_def456"},');
    untouched('  - Token: ghp_xyz789');
  });
  it('a stand-in in a string literal ends at its escaped line break (`oauth_token: abc123\\n    user: …`)', () => {
    untouched('\twantHosts: "example.com:\\n    oauth_token: def456\\n    user: octocat\\n",');
  });
  it('a variable named for the credential (`password: $password`, `privateKey: $slack-privateKey`)', () => {
    untouched('    password: $password');
    untouched('    privateKey: $gitlab-privateKey');
    untouched('    token: $slackToken');
  });
  it("a format string's verbs (`%[1]sadmin:org%[1]s`)", () => {
    untouched('Your token needs the %[1]sread:org%[1]s scope; run %[1]sgh auth refresh%[1]s.');
  });
  it('a word in markdown emphasis, or one a symbol follows', () => {
    untouched('Set the __Token Claim Name__ to _roles_ and save.');
    untouched('TOKEN was rendered⏎');
  });
  it('words run together in one case (`dockerconfigjson`, `AWSCURRENT`), a path ending in a constant', () => {
    untouched('        secretKey: dockercfgjson');
    untouched('The operator asks for the secret with two version stages: `AWSPENDING` and `AWSCURRENT`:');
    untouched('      # password -> vault/DB_PASSWORD');
  });
  it('real values in the same places are still removed', () => {
    const slack = j('xoxb-', '1234567890', '-', 'a8Fk2Lq9Zt4Mx7Bn3Vc6Xz1Q');
    removed(`    botToken: '${slack}',`, slack);
    removed(`\twantHosts: "example.com:\\n    oauth_token: ${TOKEN}\\n    user: octocat\\n",`, TOKEN);
    removed(`    password: $${PW}`, PW);
    removed(`    password: ${j('$ecret', 'Pass')}`, j('$ecret', 'Pass'));
    // Random letters in one case hold runs of consonants; generated keys of one case stay keys.
    const lower = j('qwkrtzpx', 'mvnbhdlf');
    const upper = j('JBSWKRTZ', 'PXMVNQHD');
    removed(`        secretKey: ${lower}`, lower);
    removed(`  totp_secret: "${upper}"`, upper);
    // A password may be words, in any case.
    removed('    password: correcthorsebattery', 'correcthorsebattery');
  });
});

describe('drivers, a mail library and login tools (dev docs, sixth pass: node-postgres, node-mysql2, nodemailer, octokit.js, login-action, typeorm)', () => {
  it("a markdown link's text running into its target (`[to password callback](https://…)`)", () => {
    untouched('- Add support for [a password hook](https://example.com/pull/42).');
  });
  it('a parameter list after the name: a function, not a value', () => {
    untouched('    password: (opts) => {');
    untouched('const make_clear_password_plugin = (pluginOptions) =>');
  });
  it('ports published after `-p`', () => {
    untouched('docker run -d -e MYSQL_ROOT_PASSWORD_FILE=/run/secrets/db -p 3306:3306 mysql:8.3');
  });
  it("another name's value at the start of a string (a SCRAM message after `'password',`)", () => {
    untouched("await session.next('password', 'r=xy,s=wxyz,i=4096')");
  });
  it("an algorithm's name (`scram-sha-256`), a name the language defines (`__dirname`), an id named in an index", () => {
    untouched("SET password_encryption = 'scram-sha-256';");
    untouched("attachments: [{ filename: 'token.txt', path: __dirname + '/fixtures/a.txt' }]");
    untouched("tokenRequest['registryIds'] = accountIDs;");
    untouched('- Added SessionToken notes to README, fixes #12');
  });
  it('real values in the same places are still removed', () => {
    removed(`    password: '${PW}',`, PW);
    removed(`docker run -d -e MYSQL_ROOT_PASSWORD=${PW} mysql:8.3`, PW);
    removed(`mysql -u root -p${PW} db`, PW);
    removed(`await session.next('password', 'password=${PW}')`, PW);
    removed(`SET password = '${TOKEN}';`, TOKEN);
    removed(`tokenRequest['token'] = '${TOKEN}';`, TOKEN);
  });
});

describe('badges, program names in paths, PEM markers as entities, names with a digit (dev docs, sixth pass)', () => {
  it("a status badge's embed token in an image URL (`badge.svg?token=…`)", () => {
    untouched('[![coverage](https://codecov.io/gh/acme/app/branch/main/graph/badge.svg?token=Q7wmZk2pLd)](https://codecov.io/gh/acme/app)');
  });
  it("a program's name inside a path or an image reference is not that program running (`github.com/helm/charts`)", () => {
    // No `-p` of helm's is read (no cli-password); the Helm value `password=abc123` is a password since issue 40.
    const r = redactSecrets('argocd app create redis --repo https://github.com/helm/charts.git --path stable/redis -p password=abc123');
    expect(r.counts).toEqual({ password: 1 });
    expect(r.text).toBe('argocd app create redis --repo https://github.com/helm/charts.git --path stable/redis -p password=[REDACTED:password]');
  });
  it('a PEM block written with HTML entities around no key material', () => {
    untouched('&ldquo;tls.key&rdquo;: &ldquo;&mdash;&ndash;BEGIN PRIVATE KEY&mdash;&ndash;\\n<tls-key>\\n&mdash;&ndash;END PRIVATE KEY&mdash;&ndash;\\n&rdquo;,');
  });
  it('a lowerCamelCase name whose first word ends in a digit (`pkcs8DER`)', () => {
    untouched('\tblock := pem.EncodeToMemory(&pem.Block{Type: pemPrivateKey, Bytes: pkcs1DER})');
  });
  it('real values in the same places are still removed', () => {
    removed(`curl "https://example.com/api/data.json?token=${TOKEN}"`, TOKEN);
    removed(`curl https://example.com/badge.svg?access_token=${TOKEN}`, TOKEN);
    removed(`helm repo add acme https://charts.example.com --username ci --password ${PW}`, PW);
    removed(`/usr/bin/mysql -u root -p${PW} db`, PW);
    removed(`\tblock := pem.Block{Type: pemPrivateKey, Bytes: "${TOKEN}"}`, TOKEN);
  });
});

describe('placeholders in command examples (dev extension: the AWS CLI examples)', () => {
  it('a CamelCase name ending in the credential word (`--proposed-password NewPassword`)', () => {
    untouched('  aws cognito-idp change-password --previous-password CurrentPassword --proposed-password ChosenPassword');
  });
  it('a bracketed placeholder, then the next query parameter (`Token=[token]&X-Amz-Algorithm=…`)', () => {
    untouched('"Url": "https://bucket.example.com/import?X-Amz-Security-Token=[token]&X-Amz-Algorithm=AWS4-HMAC-SHA256"');
  });
  it('real values in the same places are still removed; a password in one case of letters is one', () => {
    removed(`  aws cognito-idp change-password --previous-password ${PW} --proposed-password ${PW}`, PW);
    removed(`--proposed-password ${j('Correct', 'Horse', 'Battery')}`, j('Correct', 'Horse', 'Battery'));
    removed('  password_only: supersecretpassword', 'supersecretpassword');
    removed(`"Url": "https://bucket.example.com/import?X-Amz-Security-Token=${TOKEN}&X-Amz-Algorithm=AWS4-HMAC-SHA256"`, TOKEN);
  });
});

describe('HTTP clients, a web framework, an SDK and a .env loader (dev docs, seventh pass: requests, boto3, flask, dotenv, httpx, google-auth)', () => {
  it('a word in emphasis whose opening mark went with the label (`are *strongly* encouraged`)', () => {
    untouched('Users keeping their proxy credentials in the URL are *firmly* advised to upgrade.');
  });
  it('no letter and no digit (a test of reserved characters); metasyntactic words (`FooBarBazToken`)', () => {
    untouched(`USER = PASSWORD = "%!*'();:@&=+$,/?#[] "`);
    untouched('    request_headers = {"X-Auth-Token": "FooBarQuxToken"}');
  });
  it('an escaped line break inside a bare value ends it (`.env` text in a string)', () => {
    // The value ends at `\\r` (`DB=tests` is not part of it); `password` itself is a password since issue 40.
    expect(redactSecrets("const parsed = dotenv.parse(Buffer.from('HOST=localhost\\rPASSWORD=password\\rDB=tests\\r'))").text).toBe(
      "const parsed = dotenv.parse(Buffer.from('HOST=localhost\\rPASSWORD=[REDACTED:password]\\rDB=tests\\r'))",
    );
  });
  it('a standard cited, an object literal opening, code with a non-null assertion, an expression or typed parameter in brackets', () => {
    untouched(' * The required token exchange grant_type: rfc8693#section-2.1');
    untouched("    this.credentials = {expiry_date: 1, refresh_token: 'compute-placeholder'};");
    untouched('      access_token: this.cachedAccessToken!.access_token,');
    untouched('        private_key: (this.jsonContent as JWTInput).private_key,');
    untouched('  getSubjectToken: (context: SupplierContext) => Promise<string>;');
  });
  it('real values in the same places are still removed', () => {
    const basic = Buffer.from(`deploy:${PW}`).toString('base64');
    removed(`"Authorization": "Basic ${basic}"`, basic);
    const keyOnly = Buffer.from(`${TOKEN}:`).toString('base64');
    removed(`"Authorization": "Basic ${keyOnly}"`, keyOnly);
    removed(`    request_headers = {"X-Auth-Token": "${TOKEN}"}`, TOKEN);
    removed(`const parsed = dotenv.parse(Buffer.from('HOST=localhost\\rPASSWORD=${PW}\\rDB=tests\\r'))`, PW);
    removed(` * grant_type: client_credentials, client_secret: ${TOKEN}`, TOKEN);
    removed(`      access_token: '${TOKEN}',`, TOKEN);
    removed(`USER = PASSWORD = "${PW}"`, PW);
  });
});

describe("operators' tools (dev docs, eighth pass: alertmanager, watchtower, external-dns, configure-aws-credentials)", () => {
  it("a Go struct tag's field name and options (`yaml:\"smtp_auth_password,omitempty\"`)", () => {
    untouched('\tAuthPassword     commoncfg.Secret     `yaml:"basic_auth_password,omitempty" json:"basic_auth_password,omitempty"`');
    untouched('\tRoutingKey     commoncfg.Secret `yaml:"integration_key,omitempty"`');
  });
  it('a variable named for the credential whose first word ends in a digit (`krb5Password`)', () => {
    untouched('\t\tkrb5Password:          krb5Password,');
  });
  it("an /etc/passwd entry's `x`", () => {
    untouched("    fs.writeFileSync('/etc/passwd', 'daemon:x:1:1::/usr/sbin:/usr/sbin/nologin');");
  });
  it('a key or token typed along the shifted digit row (`STSA#$%^&Key`)', () => {
    untouched("      SecretAccessKey: 'TEST!@#$%Key',");
  });
  it('real values in the same places are still removed', () => {
    removed(`\tAuthPassword: "${PW}", // yaml:"auth_password,omitempty"`, PW);
    removed(`\t\tkrb5Password:          "${PW}",`, PW);
    removed(`      SecretAccessKey: '${TOKEN}',`, TOKEN);
    removed(`      password: '${j('Pa!@#$', 'word9')}',`, j('Pa!@#$', 'word9'));
  });
});

describe('release and CI tools (dev docs, ninth pass: goreleaser, semantic-release, woodpecker)', () => {
  it("the env library's struct tags (`env:\"SMTP_PASSWORD,notEmpty\"`), another key's tag after the word", () => {
    untouched('\tPassword string `env:"MASTODON_PASSWORD,notEmpty"`');
    untouched("\tPassword string `json:\"password\" xorm:\"TEXT 'password'\"`");
  });
  it("a concatenation after the label's string closed (`\"GPG_PASSWORD=\" + stdin`)", () => {
    untouched('\t\t\t"MINIO_ROOT_PASSWORD=" + rootPwd,');
    untouched('\t\t\t\tEnv: []string{"GPG_PASSWORD=" + stdin},');
  });
  it("a placeholder written twice (`pass456pass456`); a header's name as a URL's user (`x-access-token:token@`), a URL password naming itself", () => {
    untouched('\t\tenv := []string{"API_KEY=key789key789"}');
    // (`DB_SECRET=pass123pass123` is a secret since issue 40: a secret named as such is chosen, and any value may be one.)
    removed('\t\t"DB_SECRET=pass123pass123",', 'pass123pass123');
    untouched('    "https://x-access-token:token@host.example/owner/repo.git"');
    untouched('      repositoryUrl: "https://x-access-token:my-token@github.com/owner/repo.git",');
  });
  it('real values in the same places are still removed', () => {
    removed(`\t\t\t"MINIO_ROOT_PASSWORD=${PW}",`, PW);
    removed(`\t\tenv := []string{"DB_PASSWORD=${j('hunter', '7hunter7')}"}`, j('hunter', '7hunter7'));
    removed(`    "https://x-access-token:${TOKEN}@github.com/owner/repo.git"`, TOKEN);
    removed(`X-Access-Token: ${TOKEN}`, TOKEN);
    removed(`\tToken string \`json:"token" xorm:"${TOKEN}"\``, TOKEN);
  });
});

describe('issue 40 follow-up (dev docs): words of a sentence and runs of a hash are not weak passwords', () => {
  it('`pw` glued to letters or digits is two letters of a run (a base64 integrity hash), not the key', () => {
    untouched('    resolution: {integrity: sha512-62dPZHpIXzvChfvfLJow3q5dDtiNMkwiRzPylSCfriLvZeq0a1bWChrGx/BbUbPwOrsWKMn8idSllklzBy+dgQ==}');
    removed(`PW=${PW}`, PW);
    removed('db_pw: letmein', 'letmein');
    removed(`DBPW=${PW}`, PW);
  });
  it('after `is`/`was`, a word with more of the sentence after it describes the secret (`is easy to forget`, `was last updated`)', () => {
    untouched('3. **Maintenance burden** — keeping the PushSecret config in sync is easy to forget.');
    untouched('- `Retain`: (Default) The remote secret is left intact in Secret Server when it is deleted.');
    untouched('  secret was last updated.');
    untouched('     * Specifies the password to de-crypt the {@link tlsCertificateKeyFile}.');
  });
  it("a secret's field named after `secretKey:` is its name, not its value (`secretKey: password`); the value is not read as the key's name", () => {
    untouched('  - secretKey: password # the target k8s secret key');
    untouched('        secretKey: "password"');
    removed('APP_SECRET: password', 'password');
    removed('secret: password', 'password');
    removed(`  - secretKey: ${TOKEN}`, TOKEN);
  });
  it('after an arrow or a long dash, a word with more of the sentence after it opens a description', () => {
    untouched('> committed secret — remains valid indefinitely with no automatic recovery.');
    removed('JWT secret → letmein on staging', 'letmein');
    removed('wifi password → sunshine', 'sunshine');
  });
  it('a password there is still removed: at the end, before punctuation or a joining word', () => {
    removed('The staging database password is letmein', 'letmein');
    removed('The JWT secret is sunshine on staging.', 'sunshine');
    removed('Reset the wiki password; it was dragon before.', 'dragon');
    removed('The wifi password is sunshine and the user is admin', 'sunshine');
  });
});

describe('issue 40, second follow-up: digits under a name whose credential word other words follow (assignment.ts)', () => {
  it("an error code or a setting's number named after the password stays (`ER_PASSWORD_ANONYMOUS_USER = 1131`)", () => {
    untouched('exports.ER_PASSWORD_ANONYMOUS_USER = 1131;');
    untouched('exports.ER_MUST_CHANGE_PASSWORD_LOGIN = 1862;');
    untouched('PASSWORD_LOCK_TIME = 3');
  });
  it('digits under the credential word itself, or with only a qualifier after it, are still a PIN or password', () => {
    removed('DB_PASSWORD=58213', '58213');
    removed('ADMIN_PIN: 4321', '4321');
    removed('password_prod = 58213', '58213');
    removed('ROOT_PASSWORD_OLD: 58213', '58213');
    removed('DB_PASSWORD_2=58213', '58213');
  });
});

describe('issue 40, fourth session (dev docs): the key = value rule asks whether the word belongs to the code around it (assignment.ts, prose.ts continuesSentence)', () => {
  it('a keyword or a call after an assignment spaced as code stays (`for _, secret := range secrets {`, `= await hash(…)`)', () => {
    untouched('for _, secret := range secrets {');
    untouched('for i, secret := range payload.Secrets {');
    untouched('const saltedPassword = await crypto.deriveKey(password, salt)');
    untouched("typeof signingSecret === 'string' ? signingSecret : await signingSecret(),");
  });
  it('a password in the same place, alone or with a joining word or punctuation after it, is still removed', () => {
    removed('secret := letmein', 'letmein');
    removed('db_password = letmein', 'letmein');
    removed(`password = ${PW} # staging`, PW);
    removed('DB_PASSWORD=letmein npm start', 'letmein');
    removed('password: letmein on staging', 'letmein');
  });
});

describe("issue 40, fourth session (dev docs): another option's `=` and an escaped pipe are not the credential's separator (context.ts, prose.ts)", () => {
  it("`argocd-secret --type='json'` gives `--type` its value; `\\|` inside a table cell is a pipe written in it", () => {
    untouched(`kubectl patch -n argocd secrets argocd-secret --type='json' -p='[]'`);
    untouched('| `email` | `EmailAttributeIdentifier` | `"password"` \\| `"email_otp"` |');
  });
  it("an option named for the credential, and a table's own separator, still give the value", () => {
    removed('mysql --password=letmein', 'letmein');
    removed(`tool --secret --token=${TOKEN}`, TOKEN);
    removed('| password | letmein |', 'letmein');
    removed('| service | password |\n|---|---|\n| wiki | letmein |', 'letmein');
  });
});

describe('issue 40, fourth session (dev docs): code, links, comments and instructions where a value would go (values.ts, context.ts, prose.ts)', () => {
  it('a member read in brackets, a regular expression method, a selector attribute, link text, a comment, an instruction: stay', () => {
    untouched('SECRETS_CACHE_KEY: [secret.to_dict() for secret in self.found]');
    untouched('f"Secret detected: {secret.detector_display_name}.\\nMatches: {n}"');
    untouched('const secretContainsWhitespace = /\\s/.test(secret);');
    untouched(`await page.type('#password input[type="password"]', config.password)`);
    untouched('  - [LDAP Secret Backend: `length`](#ldap-secret-backend)');
    untouched('host: host-of-password-depot # port is 8714 by default');
    untouched('- `secret scan ci`: fetch the target branch before computing the range');
    untouched('**Option 2 -- reference a Secret via `caProvider`**: store the PEM certificate in a resource');
  });
  it('a value in the same places is still removed', () => {
    removed(`SECRETS_CACHE_KEY: ${TOKEN}`, TOKEN);
    removed('secret: letmein', 'letmein');
    removed('  - LDAP secret: `letmein` for the bind user', 'letmein');
    removed('db_password: letmein # staging', 'letmein');
    removed('- `secret`: letmein on staging', 'letmein');
    removed(`password = "${PW}"`, PW);
  });
});
