/**
 * A credential as an XML element's text, the element named for it (xml-element.ts): Maven's
 * settings.xml, .NET and Java configuration, SOAP bodies. Found by writing issue 40's forms as
 * configuration files hold them, not on a held-out sample. Values are written here.
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
