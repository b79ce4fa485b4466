/**
 * Passwords in the configuration lines people paste from servers and network devices into ops
 * notes, where a directive's name says what the value is and no `key = value` or credential word
 * beside it does: redis.conf's `requirepass …`, HAProxy's `stats auth admin:…`, Cisco IOS's
 * `enable secret …` and `username admin privilege 15 secret …`, SNMP community strings, IPsec
 * pre-shared keys. One row per directive, so a device is one more row, never a new rule.
 *
 * A directive starts its line (after indentation, a list marker, a device prompt such as
 * `Router(config)#`, a shell prompt or a backtick), as configuration is written, and the value
 * ends the line or is followed by what the directive takes after it (`RO`, `address …`): in a
 * sentence the same words are prose (`enable secret scanning in the settings`), and a value that
 * reads as a word of one is not read either. Values are judged by values.ts like every other rule's.
 */
import { tag, type RegexRule } from './engine.js';
import { readsAsProse } from './prose.js';
import { isCredentialValue, isRedacted } from './values.js';

interface Directive {
  /** A lower-case piece every such line holds (the engine's hint). */
  hint: string;
  /** The words before the value (a regex source, case-insensitive). */
  lead: string;
  /** What may follow the value on its line (a regex source); the end of the line or a comment always may. */
  after?: string;
  /** The value follows the lead with no space (`stats auth admin:…`). */
  glued?: boolean;
}

/** Cisco's type digit before a secret (0 plain, 5/8/9 hashes, 7 the reversible one): the value follows it. */
const CISCO_TYPE = '(?:[ \\t]+[05789](?=[ \\t]))?';

const DIRECTIVES: readonly Directive[] = [
  // Redis and Valkey (redis.conf, and `CONFIG SET requirepass …`).
  { hint: 'requirepass', lead: '(?:config[ \\t]+set[ \\t]+)?requirepass' },
  { hint: 'masterauth', lead: '(?:config[ \\t]+set[ \\t]+)?masterauth' },
  // HAProxy's stats page login.
  { hint: 'stats auth', lead: 'stats[ \\t]+auth[ \\t]+[^\\s:]+:', glued: true },
  // Cisco IOS and its kin: the privileged-mode secret, a local user's password or secret.
  { hint: 'enable', lead: `enable[ \\t]+(?:secret|password)(?:[ \\t]+level[ \\t]+\\d+)?${CISCO_TYPE}` },
  { hint: 'username', lead: `username[ \\t]+\\S+(?:[ \\t]+privilege[ \\t]+\\d+)?[ \\t]+(?:secret|password)${CISCO_TYPE}` },
  // SNMP v1/v2c's community string is its password.
  { hint: 'community', lead: 'snmp-server[ \\t]+community', after: '[ \\t]+(?:RO|RW|view)\\b[^\\n]*' },
  // IPsec pre-shared keys.
  { hint: 'isakmp', lead: 'crypto[ \\t]+isakmp[ \\t]+key(?:[ \\t]+[06](?=[ \\t]))?', after: '[ \\t]+(?:address|hostname)\\b[^\\n]*' },
  { hint: 'pre-shared-key', lead: 'pre-shared-key(?:[ \\t]+(?:ascii|hex|local|remote))?(?:[ \\t]+[06](?=[ \\t]))?' },
];

/** Where a configuration line starts: indentation, a list marker, a device or shell prompt, a backtick. */
const LINE_START = '(?:^[ \\t]*(?:[-*+][ \\t]+|\\d+[.)][ \\t]+)?(?:[\\w.-]+\\([\\w-]*\\)#[ \\t]*|[$>#][ \\t]*)?|`)';

function directiveRule(d: Directive): RegexRule {
  return {
    kind: 'password',
    hints: [d.hint],
    re: new RegExp(`(${LINE_START}${d.lead}${d.glued === true ? '' : '[ \\t]+'})("[^"\\n]+"|[^\\s"\`]+)(?=${d.after === undefined ? '' : `(?:${d.after})?`}[ \\t]*(?:$|[#!\`]))`, 'gim'),
    replace: (m, g) => {
      const raw = g[1] ?? '';
      const value = raw.replace(/^"|"$/g, '');
      if (isRedacted(value) || readsAsProse(value) || !isCredentialValue(raw, true, { inSentence: false })) return m;
      return `${g[0] ?? ''}${raw.startsWith('"') ? `"${tag('password')}"` : tag('password')}`;
    },
  };
}

export const CONFIG_DIRECTIVE_RULES: readonly RegexRule[] = DIRECTIVES.map(directiveRule);
