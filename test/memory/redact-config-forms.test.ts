/**
 * Issue 40's "a password beside its word, however weak" in two forms configuration files hold it,
 * found by writing the issue's forms out (no held-out or dev sample holds one): an XML element's text,
 * the element named for it (xml-element.ts: Maven's settings.xml, .NET and Java configuration, SOAP
 * bodies), and a YAML block scalar of one line (yaml-block.ts: Helm values, Ansible vars). Values are
 * written here.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/lib/memory/redact.js';
import { survives } from '../support/secret-corpus.js';

const j = (...parts: string[]) => parts.join('');
const KEY = j('Zk3Qp9Lm2X', 'v7Rt5Wn8Bd');

const untouched = (text: string): void => expect(redactSecrets(text).text).toBe(text);
const removed = (text: string, secret: string): void => expect(survives(redactSecrets(text).text, secret)).toBe(false);

describe('an XML element named for its credential (xml-element.ts)', () => {
  it("a Maven server's password, however weak, and an API key or a secret as an element's text: removed", () => {
    removed(`<server>\n  <id>releases</id>\n  <username>deploy</username>\n  <password>letmein</password>\n</server>`, 'letmein');
    removed(`<Password>hunter22</Password>`, 'hunter22');
    removed(`<apiKey>${KEY}</apiKey>`, KEY);
    removed(`<client_secret>${KEY}</client_secret>`, KEY);
  });
  it('a template, a mask or a vault reference as the text, elements naming something about the credential, a bare key: stay', () => {
    untouched('<password>${env.MAVEN_PASSWORD}</password>');
    untouched('<password>{{ vault_maven_password }}</password>');
    untouched('<password>********</password>');
    untouched('<passwordPolicy>strict</passwordPolicy>');
    untouched('<token-count>42</token-count>');
    untouched('<username>deploy</username>');
    untouched('<key>name</key>');
  });
});

describe('a YAML block scalar of one line under a credential key (yaml-block.ts)', () => {
  it('`password: |` or `|-` then the password, however weak; `api_key: >-` then a key: removed', () => {
    removed('db:\n  password: |-\n    letmein\n  user: app', 'letmein');
    removed(`password: |\n  ${KEY}\nuser: bob`, KEY);
    removed(`api_key: >-\n  ${KEY}`, KEY);
  });
  it('a template, a block of several lines, a key naming something else, a description: stay', () => {
    untouched('password: |\n  {{ .Values.dbPassword }}\nuser: bob');
    untouched('password: |\n  line one\n  line two');
    untouched('script: |\n  echo hi');
    untouched('description: |\n  The password is rotated monthly.');
    untouched('password_file: |\n  /run/secrets/db');
  });
});

describe("a server's or a device's configuration directive (config-directives.ts, 2026-12-06 fifth session)", () => {
  it("redis.conf's requirepass and masterauth, HAProxy's stats auth, Cisco's secrets, SNMP communities, IPsec pre-shared keys: removed", () => {
    removed('requirepass foobared22', 'foobared22');
    removed('masterauth hunter22', 'hunter22');
    removed('CONFIG SET requirepass "hunter22"', 'hunter22');
    removed('listen stats\n  bind :8404\n  stats auth admin:hunter22', 'hunter22');
    removed('enable secret cisco123', 'cisco123');
    removed('enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0', '$1$mERr$hx5rVt7rPNoS4wqbXKX7m0');
    removed('username admin privilege 15 secret cisco123', 'cisco123');
    removed('username admin password 0 cisco123', 'cisco123');
    removed('Router(config)# username ops secret Ops2024!', 'Ops2024!');
    removed('snmp-server community s3cr3tComm RO', 's3cr3tComm');
    removed('crypto isakmp key Vpn2024! address 203.0.113.5', 'Vpn2024!');
    removed(' pre-shared-key ascii 0 hunter22', 'hunter22');
  });
  it('the same words in a sentence, and a word of one after them: stay', () => {
    untouched('enable secret scanning in the repo settings');
    untouched('enable password protection for the share');
    untouched('the username field takes a password too');
    untouched('we turned on requirepass last week');
  });
});

describe("SQL's password clause in a statement about an account (password-forms.ts, 2026-12-06 fifth session)", () => {
  it("PostgreSQL's WITH PASSWORD, SQL Server's WITH PASSWORD =, MySQL's SET PASSWORD … = PASSWORD(…): removed", () => {
    removed("CREATE USER app WITH PASSWORD 'hunter22';", 'hunter22');
    removed("CREATE ROLE ro LOGIN ENCRYPTED PASSWORD 'hunter22';", 'hunter22');
    removed("CREATE LOGIN sa WITH PASSWORD = 'Hunter22!';", 'Hunter22!');
    removed("SET PASSWORD FOR 'root'@'localhost' = PASSWORD('hunter22');", 'hunter22');
  });
  it("a psql variable, and the words outside such a statement: stay", () => {
    untouched("ALTER USER app WITH PASSWORD :'pw';");
    untouched("we should create users with password 'rotation' enabled");
  });
});

describe("a credential's name given to a call with its literal next (assignment.ts NAMED_ARGUMENT, 2026-12-06 fifth session)", () => {
  it("wp-config.php's define('DB_PASSWORD', …), System.setProperty, config.set('password', …): removed", () => {
    removed("define('DB_PASSWORD', 'hunter22');", 'hunter22');
    removed("define( 'DB_PASSWORD', 'Hunter22!' );", 'Hunter22!');
    removed(`define('AUTH_KEY', '${KEY}');`, KEY);
    removed('System.setProperty("javax.net.ssl.keyStorePassword", "changeit");', 'changeit');
    removed("config.set('password', 'hunter22')", 'hunter22');
  });
  it("names that are no credential's, one credential word for another, a template or the salts' placeholder: stay", () => {
    untouched("define('DB_USER', 'wpuser');");
    untouched("define('AUTH_KEY', 'put your unique phrase here');");
    untouched("el.setAttribute('type', 'password')");
    untouched("t('password', 'Password')");
    untouched("rename('password', 'passwd')");
    untouched('svc.On("GlobalSecretFind", "global-secret")');
    untouched('setenv("DB_PASSWORD", "${DB_PASSWORD}")');
  });
});
