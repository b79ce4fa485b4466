/**
 * A credential as a YAML block scalar of one line, the key named for it (`password: |` then the
 * value indented on the next line; Helm values, Kubernetes manifests, Ansible vars write strings so).
 * The `key = value` rules read `|` as the value and stop. The key is judged as any key
 * (assignment.ts `namesCredential`) and the line as any value beside a credential word (values.ts),
 * so a password is removed however weak (issue 40). A block of several lines (a certificate, a JSON
 * document, a script) is left to the rules for what it holds: PEM blocks are structured.ts's.
 */
import { keyedCredentialTag } from './assignment.js';
import type { RegexRule } from './engine.js';

export const YAML_BLOCK: RegexRule = {
  kind: 'yaml-block',
  hints: [': |', ': >'],
  // The key, `|` or `>` with an optional chomping sign, then one line indented deeper, then a line that
  // is not (or the end): a block of exactly one line.
  // (The line is read greedily and its trailing spaces cut in code: a lazy read would retry at each space.)
  re: /^([ \t]*)(["']?)([A-Za-z_][\w.-]{0,63})\2[ \t]*:[ \t]*[|>][+-]?[ \t]*\r?\n(\1[ \t]+)(\S[^\n\r]*)(?=\r?\n(?!\4[ \t]*\S)|$(?![^]))/gm,
  replace: (m, g) => {
    const key = g[2] ?? '';
    const line = g[4] ?? '';
    const value = line.trimEnd();
    const tagged = keyedCredentialTag(key, value);
    return tagged === undefined ? undefined : `${m.slice(0, m.length - line.length)}${tagged}${line.slice(value.length)}`;
  },
};
