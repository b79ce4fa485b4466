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
