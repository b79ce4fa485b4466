/**
 * Name/value pairs in YAML lists, where the credential word is in one field and the value in the
 * next: a Kubernetes container's `env` (`- name: DB_PASSWORD` then `value: …`, the shape the
 * Kubernetes docs use for "Define an environment variable for a container"), and the same shape in
 * ECS task definitions and CI files. The `key = value` rules never see the word and the value on
 * one line, so they miss it. (JSON's `{"name": …, "value": …}` is structured.ts's JSON_NAMED_VALUE.)
 *
 * The value is replaced when the name is a credential's (`…PASSWORD`, `…_TOKEN`, `…SECRET…`,
 * `…_KEY`, not `…_FILE`, `…_URL`, `…_ID`…) and the value is a credential (values.ts) as the name makes it
 * (assignment.ts chosenFor).
 */
import { chosenFor, genericKind } from './assignment.js';
import { tag, type ScanRule } from './engine.js';
import { isCredentialValue, isPath, isRedacted, isTemplateStart, unquote } from './values.js';

/** `- name: X` and, on the next line, indented deeper than the dash, `value: v`. */
const PAIR = /^([ \t]*)-[ \t]+name:[ \t]*["']?([A-Za-z_][\w.-]*)["']?[ \t]*\r?\n\1[ \t]+value:[ \t]*([^\n]*)$/gm;

const CREDENTIAL_NAME = /passw|passwd|pwd|passphrase|secret|token|api[_.-]?key|apikey|private[_.-]?key|credential|(?:^|[_.-])key$/i;
const NOT_A_CREDENTIAL = /(?:^|[_.-])(?:file|path|url|uri|name|id|ids|ref|type|ttl|expiry|length|count|size|version|arn|mount|dir|endpoint|header|hint|policy)$/i;

export const NAMED_VALUE: ScanRule = {
  kind: 'named-value',
  hints: ['name:'],
  scan: (text) =>
    text.replace(PAIR, (m, _indent: string, name: string, rawValue: string) => {
      if (!CREDENTIAL_NAME.test(name) || NOT_A_CREDENTIAL.test(name)) return m;
      const raw = rawValue.replace(/[ \t]+$/, '');
      const { inner, quote } = unquote(raw);
      if (inner === '' || isRedacted(inner) || isTemplateStart(inner) || isPath(inner)) return m;
      const kind = genericKind(name);
      // Judged by the name and the value (chosenFor): a weak value under `API_KEY` is that weak key.
      if (!isCredentialValue(raw, chosenFor(name, raw))) return m;
      return `${m.slice(0, m.length - rawValue.length)}${quote}${tag(kind)}${quote}${rawValue.slice(raw.length)}`;
    }),
};
