/**
 * A credential as an XML element's text, the element named for it: Maven's `settings.xml`
 * (`<password>…</password>` under `<server>`), .NET and Java configuration files, SOAP bodies
 * (`<apiKey>…</apiKey>`). The `key = value` rules never see a separator there, and the context rules
 * read a word inside `<…>` as markup. The element's name is judged as any key is
 * (assignment.ts `namesCredential`: `passwordPolicy`, `token-count` stay) and its text as any value
 * beside a credential word (values.ts: `${env.PASSWORD}`, `{{ vault_pw }}` and masks stay), so a
 * password is removed however weak (issue 40).
 */
import { keyedCredentialTag } from './assignment.js';
import type { RegexRule } from './engine.js';

export const XML_ELEMENT: RegexRule = {
  kind: 'xml-element',
  // Every element that closes holds `</`; a note without one pays nothing.
  hints: ['</'],
  // An opening tag, its text on one line, and the closing tag of the same name. The opening tag may
  // carry attributes (`<password name="db">…</password>`): they say which credential, the text is still it.
  re: /<([A-Za-z_][\w.-]{0,63})((?:[ \t][^<>\n]*)?)>([^<>\n]+)<\/\1>/g,
  replace: (m, g) => {
    const name = g[0] ?? '';
    const attributes = g[1] ?? '';
    const value = g[2] ?? '';
    const tagged = keyedCredentialTag(name, value.trim());
    return tagged === undefined ? undefined : `<${name}${attributes}>${tagged}</${name}>`;
  },
};

/**
 * XML_NAMED_VALUE: a credential as a configuration element names it in an attribute and gives it in another,
 * or in its text: .NET's `<add key="SmtpPassword" value="…"/>` (appSettings), Spring's and Ant's
 * `<property name="password" value="…"/>`, Java's XML properties `<entry key="password">…</entry>`. The element's
 * own name says nothing (`add`, `property`, `entry`), so XML_ELEMENT never reads it, and the `key = value` rules
 * see `value="…"`, whose name is no credential's. The `name` or `key` attribute is judged as any key is
 * (assignment.ts `namesCredential`: `PasswordMinLength`, `tokenTtl` stay) and the value as any value beside a
 * credential word (values.ts: `${db.password}`, `#{vault.pw}` and masks stay), so a password is removed however
 * weak (issue 40). The value attribute right after the naming one, as these files write them.
 */
export const XML_NAMED_VALUE: RegexRule = {
  kind: 'xml-element',
  hints: ['name=', 'key='],
  re: /(<[A-Za-z_][\w.:-]{0,63}[ \t]+(?:name|key)=(["'])([^"'<>\n]{1,64})\2)(?:([ \t]+value=(["']))([^"'<>\n]{1,256})\5|([^<>\n]{0,256}>)([^<>\n]{1,256})(<\/))/g,
  replace: (m, g) => {
    const [lead = '', , name = '', valueLead, valueQuote, attribute, tagEnd, text, closing] = g;
    if (attribute !== undefined) {
      const tagged = keyedCredentialTag(name, attribute);
      return tagged === undefined ? undefined : `${lead}${valueLead}${tagged}${valueQuote}`;
    }
    const tagged = keyedCredentialTag(name, (text ?? '').trim());
    return tagged === undefined ? undefined : `${lead}${tagEnd}${tagged}${closing}`;
  },
};
