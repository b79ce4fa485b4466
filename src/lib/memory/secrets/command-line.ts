/**
 * Credentials on command lines: `curl -u user:secret`, `mysql -pSECRET`, `sshpass -p`,
 * `docker login -p`, `redis-cli -a`, `ldapsearch -w`, `openssl -passin pass:`, keytool's
 * `-storepass`, `--token VALUE` / `--password VALUE` with a space, `--from-literal=k=v`.
 * Short flags mean different things to different programs (`docker run -u 1000:1000`), so they
 * are only read on a line that runs the program they belong to.
 */
import { tag, type RegexRule, type ScanRule } from './engine.js';
import { isHighEntropy } from './context.js';
import { chosenBy } from './assignment.js';
import { type ChosenBy, isCredentialValue, isRedacted, looksRandom, isCursorTokenName } from './values.js';

/**
 * A flag's value: quoted (any length, spaces allowed) or a bare word up to whitespace. A bare word
 * runs through `&`, `|` and `;` too: in a note they are as likely part of a password as shell
 * operators, and redacting `|jq` costs less than leaking a password's tail.
 */
const VALUE = `("[^"\\n]*"|'[^'\\n]*'|[^\\s"'\`]+)`;

/** `chosen`: the flag takes a password (values.ts ChosenBy); a token's flag takes a generated value. */
function keepOrTag(prefix: string, value: string, kind: string, chosen: ChosenBy = true): string | undefined {
  if (value.startsWith('-') || isRedacted(value) || !isCredentialValue(value, chosen, { inSentence: false })) return undefined;
  const q = /^["']/.test(value) ? (value[0] as string) : '';
  return `${prefix}${q}${tag(kind)}${q}`;
}

interface ProgramFlags {
  /** Program names that must appear on the line. */
  programs: readonly string[];
  /** The engine's hints, where a program's name is also a piece of common words (`rar` in `library`): default `programs`. */
  hints?: readonly string[];
  /** The flag and separator, as a capture group: its value follows. */
  flag: string;
}

const PROGRAMS: ProgramFlags[] = [
  { programs: ['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mariadb', 'mariadb-dump'], flag: '(\\s-p)' },
  { programs: ['sshpass'], flag: '(\\s-p[ \\t]*)' },
  { programs: ['docker', 'podman', 'nerdctl', 'buildah', 'skopeo', 'helm', 'oras', 'crane'], flag: '(\\s(?:-p|--password)(?:[ \\t]+|=))' },
  { programs: ['redis-cli', 'valkey-cli'], flag: '(\\s(?:-a|--pass)[ \\t]+)' },
  { programs: ['ldapsearch', 'ldapmodify', 'ldapadd', 'ldapdelete', 'ldapwhoami', 'ldappasswd'], flag: '(\\s-w[ \\t]+)' },
  { programs: ['mongo', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport'], flag: '(\\s-p[ \\t]+)' },
  { programs: ['sqlcmd', 'bcp', 'osql', 'isql', 'sqlpackage'], flag: '(\\s-P[ \\t]*)' },
  // HTTPie and xh: `http -a user:password`, `--auth user:password`.
  { programs: ['http', 'https', 'xh', 'xhs'], flag: '(\\s(?:-a|--auth)(?:[ \\t]+|=)[^\\s:"\']*:)' },
  { programs: ['keytool', 'jarsigner'], flag: '(\\s-(?:storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass|new)[ \\t]+)' },
  // Archives: `zip -P`/`unzip -P` with a space; 7-Zip's and RAR's `-p` glued to the password
  // (`7z a -p archive.7z` alone prompts: nothing is glued to it).
  { programs: ['zip', 'unzip', 'zipcloak'], hints: ['zip '], flag: '(\\s-P[ \\t]+)' },
  { programs: ['7z', '7za', '7zz', '7zr', 'rar', 'unrar'], hints: ['7z', 'rar '], flag: '(\\s-p)' },
  // `ssh-keygen -N` (the new passphrase) and `-P` (the old one, with `-p`); `-N ""` is no passphrase.
  { programs: ['ssh-keygen'], flag: '(\\s-[NP][ \\t]*)' },
  // Remote desktops, BMCs, Windows' remote execution, MQTT, FTP and Cassandra/Neo4j shells: `-p`/`-P` is the password.
  { programs: ['rdesktop', 'psexec', 'psexec64', 'paexec', 'ncftp', 'ncftpget', 'ncftpput', 'cqlsh', 'cypher-shell'], flag: '(\\s-p[ \\t]+)' },
  { programs: ['ipmitool', 'mosquitto_pub', 'mosquitto_sub', 'mosquitto_rr', 'tsql', 'sqsh'], flag: '(\\s-P[ \\t]+)' },
  // Azure CLI: `-p` is the password of `az login` only (elsewhere it is `--parameters`).
  { programs: ['az login'], flag: '(\\s(?:-p|--password)(?:[ \\t]+|=))' },
  // OpenSSL's deprecated `-k password` (`openssl enc -k …`).
  { programs: ['openssl'], flag: '(\\s-k[ \\t]+)' },
  // lftp's `-u user,password` (`-u user` alone prompts).
  { programs: ['lftp'], flag: '(\\s-u[ \\t]+[^\\s,"\']+,)' },
];

function programRule(p: ProgramFlags): ScanRule {
  const names = p.programs.map((n) => n.replace(/[-]/g, '\\-')).join('|');
  // The program's name as a command, not a part of a path or a reference after it (`github.com/helm/charts`,
  // the image `mysql:8.3`): `/usr/bin/mysql -p…` and `mysql.exe -p…` still count.
  const line = new RegExp(`^[^\\n]*?(?<![\\w-])(?:${names})(?![\\w/:-])(?:[^\\n]*\\\\\\n)*[^\\n]*`, 'gm');
  const flag = new RegExp(`${p.flag}${VALUE}`, 'g');
  return {
    kind: 'cli-password',
    hints: p.hints ?? p.programs,
    scan: (text) => text.replace(line, (l) => l.replace(flag, (m, prefix: string, value: string) => keepOrTag(prefix, value, 'cli-password') ?? m)),
  };
}

/**
 * The user:password argument of `curl -u`: quoted whole (`"u:p"`), each part quoted apart
 * (`"u":"p"`, as some vendors' docs print it), bare, or a bare user and a quoted password.
 */
const CURL_USER_ARG = new RegExp(
  [
    `"([^"\\n]*)"[ \\t]*:[ \\t]*"([^"\\n]*)"`,
    `'([^'\\n]*)'[ \\t]*:[ \\t]*'([^'\\n]*)'`,
    `"([^"\\n:]*):([^"\\n]*)"`,
    `'([^'\\n:]*):([^'\\n]*)'`,
    `([^\\s"':]*):([^\\s"']+)`,
    `([^\\s"':]*):(["'][^"'\\n]*["'])`,
  ]
    .map((alt) => `(?:${alt})`)
    .join('|'),
);
const CURL_USER_FLAG = new RegExp(`(\\s(?:-u|--user|--proxy-user|-U)(?:[ \\t]*|=))(?:${CURL_USER_ARG.source})`, 'g');

/** `{value}`: braces kept from a docs template around a real value (`"{ZqL5kVrX1n8tA2}"`), not a template name. */
function unbrace(v: string): { inner: string; open: string; close: string } {
  const m = /^\{([^{}]+)\}$/.exec(v);
  if (m === null || !looksRandom(m[1] as string, 8)) return { inner: v, open: '', close: '' };
  return { inner: m[1] as string, open: '{', close: '}' };
}

/**
 * One part of a curl credential: the password always when it is a credential value; the user part
 * only when it is generated rather than chosen (a service credential's user id, `acd3c08b-74e8-…`),
 * or when the password is empty and the user part is an API key (`curl -u "$KEY:"`, the Basic-auth
 * form Stripe and EasyPost document: the key is the user name, no password).
 */
function curlPart(raw: string, role: 'user' | 'password', passwordEmpty: boolean): string {
  const { inner, open, close } = unbrace(raw);
  if (inner === '' || isRedacted(inner)) return raw;
  if (role === 'password') return isCredentialValue(inner, true, { inSentence: false }) ? `${open}${tag('cli-password')}${close}` : raw;
  const generated = isHighEntropy(inner) || (passwordEmpty && looksRandom(inner, 12) && /\d/.test(inner) && isCredentialValue(inner, false));
  return generated ? `${open}${tag('cli-password')}${close}` : raw;
}

/** `curl -u user:secret`, `--user`, `--proxy-user`; keeps a chosen user name. */
const CURL_USER: ScanRule = {
  kind: 'cli-password',
  hints: ['curl', 'wget'],
  scan: (text) =>
    // A command continued with `\` over several lines is one command.
    text.replace(/^[^\n]*?(?<![\w-])(?:curl|wget)(?![\w-])(?:[^\n]*\\\n)*[^\n]*/gm, (l) =>
      l.replace(CURL_USER_FLAG, (m, prefix: string, ...g: (string | undefined)[]) => {
        // Which alternative matched (user, password groups): quoted apart (0-3), quoted whole (4-7), bare (8, 9), bare user and quoted password (10, 11).
        const pair = [0, 2, 4, 6, 8, 10].find((i) => g[i] !== undefined) as number;
        const user = g[pair] as string;
        const pw = g[pair + 1] as string;
        if (/^\d+$/.test(user) && /^\d+$/.test(pw)) return m; // uid:gid, not credentials
        const q = pair === 0 || pair === 4 ? '"' : pair === 2 || pair === 6 ? "'" : '';
        const newUser = curlPart(user, 'user', pw === '');
        let newPw = pw;
        if (pair === 10) {
          // A bare user and a quoted password: judge what is inside the quotes.
          const replaced = curlPart(pw.slice(1, -1), 'password', false);
          if (replaced !== pw.slice(1, -1)) newPw = `${pw[0]}${replaced}${pw[pw.length - 1]}`;
        } else if (pw !== '' && !pw.startsWith('-')) newPw = curlPart(pw, 'password', false);
        if (newUser === user && newPw === pw) return m;
        return pair <= 2 ? `${prefix}${q}${newUser}${q}:${q}${newPw}${q}` : `${prefix}${q}${newUser}:${newPw}${q}`;
      }),
    ),
};

/** `openssl … -passin pass:SECRET` / `-passout pass:` / `-pass pass:`. */
const OPENSSL_PASS: RegexRule = {
  kind: 'cli-password',
  hints: ['pass:'],
  re: new RegExp(`(-pass(?:in|out)?[ \\t]+["']?pass:)([^\\s"']+)`, 'g'),
  replace: (m, g) => keepOrTag(g[0] ?? '', g[1] ?? '', 'cli-password') ?? m,
};

/** `smbclient -U user%password`, also quoted as a whole (`-U 'user%password'`, as a password with a symbol needs). */
const SMB_USER: RegexRule = {
  kind: 'cli-password',
  hints: ['%'],
  re: /(\s-U[ \t]*["']?[^\s%"']+%)([^\s"']+)/g,
  replace: (m, g) => keepOrTag(g[0] ?? '', g[1] ?? '', 'cli-password') ?? m,
};

/** `kubectl create secret generic x --from-literal=password=S3cret`. */
const KUBECTL_LITERAL: RegexRule = {
  kind: 'kubectl-literal',
  hints: ['--from-literal'],
  re: new RegExp(`(--from-literal[ \\t=]+["']?[\\w.-]+=)${VALUE}`, 'g'),
  replace: (m, g) => {
    const v = g[1] ?? '';
    if (isRedacted(v) || /^\$/.test(v)) return undefined;
    return keepOrTag(g[0] ?? '', v, 'kubectl-literal') ?? m;
  },
};

/**
 * Long options that take a credential, with a space or `=`: `--token VALUE`, `--auth-token VALUE`,
 * `--api-key=…`, `--password VALUE`, `--client-secret …`. Not `--token-file`, `--password-stdin`.
 */
const LONG_FLAG: RegexRule = {
  kind: 'cli-token',
  hints: ['--'],
  re: new RegExp(
    `((?<![\\w-])--(?:[a-z0-9]+-)*(token|password|passwd|pass|secret|api-?key|apikey|access-key|secret-key|private-key|credentials?)(?:[ \\t]+|=))${VALUE}`,
    'gi',
  ),
  replace: (m, g) => (isCursorTokenName((g[0] ?? '').trimEnd().replace(/=$/, '')) ? m : keepOrTag(g[0] ?? '', g[2] ?? '', /^pass/i.test(g[1] ?? '') ? 'cli-password' : 'cli-token', chosenBy(g[1] ?? '')) ?? m),
};

/**
 * Single-dash long options that take a password, as Java, Windows and database tools spell them:
 * `-password VALUE`, `-passwd`, `-pwd`, `-passphrase`, `-Password:VALUE`; and Windows' slash
 * options, whose colon is part of the option (`xfreerdp /p:…`, `cmdkey /pass:…`). (`-p` alone
 * means many things.)
 */
const SINGLE_DASH_PASSWORD: RegexRule = {
  kind: 'cli-password',
  hints: [' -pass', ' -pwd', ' /p:', ' /pass'],
  re: new RegExp(`((?<=\\s)(?:-(?:password|passwd|passphrase|pass|pwd)(?:[ \\t]+|[:=])|/p(?:ass(?:word)?)?:))${VALUE}`, 'gi'),
  replace: (m, g) => keepOrTag(g[0] ?? '', g[1] ?? '', 'cli-password') ?? m,
};

/**
 * Commands that take the password as a plain argument, at a fixed place after the command and its
 * subcommand (`rabbitmqctl add_user USER PASSWORD`, Windows' `net user USER PASSWORD /add`,
 * `wpa_passphrase SSID PASSPHRASE`): one row each, `users` the arguments before the password.
 * Options before the password (`/add`, `-n`) are not arguments; `*` (prompt) is no password.
 * The command must start what is run (a line or list item, a prompt, a backtick, `sudo`, `&&`):
 * in a sentence `net user count rose` is no command.
 */
const PASSWORD_ARGUMENTS: ReadonlyArray<{ command: string; users: number; hint: string }> = [
  { command: 'rabbitmqctl add_user', users: 1, hint: 'add_user' },
  { command: 'rabbitmqctl change_password', users: 1, hint: 'change_password' },
  { command: 'rabbitmqctl authenticate_user', users: 1, hint: 'authenticate_user' },
  { command: 'net user', users: 1, hint: 'net user' },
  { command: 'wpa_passphrase', users: 1, hint: 'wpa_passphrase' },
  { command: 'neo4j-admin set-initial-password', users: 0, hint: 'set-initial-password' },
  { command: 'neo4j-admin dbms set-initial-password', users: 0, hint: 'set-initial-password' },
  { command: 'mysqladmin password', users: 0, hint: 'mysqladmin' },
];
const ARGUMENT = `(?:"[^"\\n]*"|'[^'\\n]*'|[^\\s"'\`/-][^\\s"'\`]*)`;
/** What may come before a command on its line: its start (a list item's marker), a prompt, a backtick, `sudo`, `&&`; asked of a bounded slice in `replace` (a leading lookbehind would be tried at every position). */
const LINE_OPENS_COMMAND = /^[ \t]*(?:[-*+][ \t]|\d+[.)][ \t])?[ \t]*$/;
const MARK_OPENS_COMMAND = /(?:[`$>#;|&(]|\bsudo[ \t])[ \t]*$/;
function startsCommand(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(Math.max(lineStart, offset - 64), offset);
  return (offset - lineStart <= 64 && LINE_OPENS_COMMAND.test(before)) || MARK_OPENS_COMMAND.test(before);
}
/** Options between a command's words, with their values (`mysqladmin -u root password …`). */
const OPTIONS = `(?:[ \\t]+(?:-\\S+(?:[ \\t]+[^\\s/-]\\S*)?|/\\w+))*`;
const passwordArgument = ({ command, users, hint }: (typeof PASSWORD_ARGUMENTS)[number]): RegexRule => ({
  kind: 'cli-password',
  hints: [hint],
  re: new RegExp(
    `((?<![\\w-])${command.replace(/[-]/g, '\\-').replace(/ /g, `${OPTIONS}[ \\t]+`)}(?:[ \\t]+(?:-\\S+|/\\w+))*(?:[ \\t]+${ARGUMENT}){${users}}(?:[ \\t]+(?:-\\S+|/\\w+))*[ \\t]+)(${ARGUMENT})`,
    'gi',
  ),
  replace: (m, g, offset, text) => (g[1] === '*' || !startsCommand(text, offset) ? m : (keepOrTag(g[0] ?? '', g[1] ?? '', 'cli-password') ?? m)),
});
const PASSWORD_ARGUMENT_RULES = PASSWORD_ARGUMENTS.map(passwordArgument);

/**
 * Oracle's tools take `user/password[@database]` as their first argument (`sqlplus scott/tiger@orcl`,
 * `expdp system/manager directory=…`, `rman target sys/…@db`, `sqlplus "sys/… as sysdba"`), and so
 * does SQL*Plus's `connect` at its prompt or before `@`/`as sysdba`. `sqlplus / as sysdba` holds none.
 */
const ORACLE_LOGIN: RegexRule = {
  kind: 'cli-password',
  hints: ['sqlplus', 'expdp', 'impdp', 'sqlldr', 'rman ', 'dgmgrl', 'conn ', 'connect '],
  re: /((?:(?<![\w-])(?:sqlplus|expdp|impdp|sqlldr|rman|dgmgrl)(?:[ \t]+-\w+)*(?:[ \t]+(?:target|auxiliary|catalog))?[ \t]+(?:userid=)?|SQL>[ \t]*conn(?:ect)?[ \t]+|(?<![\w-])conn(?:ect)?[ \t]+(?=["']?[\w$#.]+\/[^\s@/"']+(?:@|[ \t]+as[ \t]+sys)))["']?[\w$#.]+\/)([^\s@/"']+)/gi,
  replace: (m, g) => keepOrTag(g[0] ?? '', g[1] ?? '', 'cli-password') ?? m,
};

/**
 * A secret piped into a login that reads it from stdin, as Docker, Podman, Helm and oras document
 * it (`echo $PASSWORD | docker login -u bot --password-stdin`), and into `sudo -S`, `passwd --stdin`
 * and `chpasswd` (`echo hunter22 | sudo -S apt update`): a literal there is the password.
 */
const ECHO_TO_STDIN: RegexRule = {
  kind: 'cli-password',
  hints: ['-stdin', 'sudo', 'passwd'],
  re: /(\b(?:echo|printf)(?:[ \t]+-[neE]+)*[ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s"'|]+)(?=[ \t]*\|[^\n|]*(?:--?pass(?:word|wd)?-stdin|\bsudo[ \t]+(?:-[A-Za-z]*S\b|--stdin)|\bpasswd[ \t]+--stdin|\bchpasswd\b))/g,
  replace: (m, g) => keepOrTag(g[0] ?? '', g[1] ?? '', 'cli-password') ?? m,
};

/**
 * ECHO_INTO_PASSWORD_FILE: a literal written into a file whose name says it holds a password or a token, as Ansible's
 * vault password file, Docker's and Compose's secret files and `--password-file` options are made (`echo 'hunter22' >
 * ~/.vault_pass.txt`, `printf '%s' … > secrets/db_password`): the literal is that password. The file's own name is
 * read, not its folder's, and `passwd` is not the word there (`/etc/passwd` holds users, `>> /etc/passwd` adds one).
 */
const PASSWORD_FILE_NAME = /(?:pass(?!wd)|pwd|secret|token|credential|api[_-]?key)[^/\s]*$/i;
const ECHO_INTO_PASSWORD_FILE: RegexRule = {
  kind: 'cli-password',
  hints: ['echo', 'printf'],
  re: /(\b(?:echo(?:[ \t]+-[neE]+)*|printf(?:[ \t]+(?:'%s\\?n?'|"%s\\?n?"))?)[ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s"'|>;&]+)(?=[ \t]*>>?[ \t]*["']?([^\s"'`;&|]+))/g,
  replace: (m, g) => (PASSWORD_FILE_NAME.test((g[2] ?? '').split('/').pop() ?? '') ? (keepOrTag(g[0] ?? '', g[1] ?? '', 'cli-password') ?? m) : m),
};

/**
 * PRINTED_PASSWORD: a pasted terminal session where a command that prints one password ran at a prompt (`$ `, `% `,
 * `❯ `, `> `), and the line after it is what it printed: that line is the password. The commands, one row each, print
 * the password alone: 1Password's `op read op://…/<field>` for a credential field, `op item get … --fields password`,
 * Bitwarden's `bw get password …`, `pass show …` (its first line), `gopass show -o`, macOS's
 * `security find-…-password … -w`. Nothing may be piped or redirected after the command (then nothing is printed), and
 * the printed line is one word: a sentence after a command is the note going on.
 */
const PRINTS_ONE_PASSWORD: readonly string[] = [
  String.raw`op[ \t]+read[ \t]+["']?op://[^\s"'|>]*?/(?:password|passphrase|credential|token|secret|pin|api[_-]?key)["']?(?:[ \t]+--?[\w-]+)*`,
  String.raw`op[ \t]+item[ \t]+get[ \t]+[^\n|>]*?--fields[ \t=]+["']?(?:label=)?(?:password|credential|token)["']?(?:[ \t]+--?[\w-]+)*`,
  String.raw`bw[ \t]+get[ \t]+password[ \t]+[^\s|>]+`,
  String.raw`pass[ \t]+show[ \t]+[^\s|>-][^\s|>]*`,
  String.raw`gopass[ \t]+show[ \t]+(?:-o|--password)[ \t]+[^\s|>]+`,
  String.raw`security[ \t]+find-(?:generic|internet)-password[ \t]+[^\n|>]*?-w(?:[ \t]+[^\s|>-][^\s|>]*)?`,
];
const PRINTED_PASSWORD: RegexRule = {
  kind: 'cli-password',
  hints: ['op read', 'op item get', 'bw get password', 'pass show', 'gopass', 'find-generic-password', 'find-internet-password'],
  re: new RegExp(String.raw`^([ \t]*(?:\$|%|❯|>)[ \t]+(?:${PRINTS_ONE_PASSWORD.join('|')})[ \t]*\r?\n[ \t]*)([^\s\`$%>][^\s]*)(?=[ \t]*(?:\r?\n|$))`, 'gm'),
  replace: (m, g) => keepOrTag(g[0] ?? '', g[1] ?? '', 'cli-password') ?? m,
};

/**
 * Apache's `htpasswd -b` takes the password on the command line, last: `htpasswd -b[c] FILE USER
 * PASSWORD`, or with `-n` (print, no file) `htpasswd -nb USER PASSWORD`.
 */
const HTPASSWD: RegexRule = {
  kind: 'cli-password',
  hints: ['htpasswd'],
  re: /(\bhtpasswd((?:[ \t]+-[A-Za-z0-9]+)+)[ \t]+((?:[^\s-]\S*[ \t]+){1,2}))("[^"\n]*"|'[^'\n]*'|[^\s"'`]+)/g,
  replace: (m, g) => {
    const [lead = '', flags = '', positional = '', value = ''] = g;
    if (!/-[A-Za-z0-9]*b/.test(flags)) return m;
    const expected = /-[A-Za-z0-9]*n/.test(flags) ? 1 : 2;
    return positional.trim().split(/[ \t]+/).length === expected ? (keepOrTag(lead, value, 'cli-password') ?? m) : m;
  },
};

/**
 * PowerShell's `ConvertTo-SecureString "…" -AsPlainText -Force`, as Microsoft documents a password
 * handed to `New-LocalUser`, `Get-Credential`'s `PSCredential` or `Connect-…`: the plain text given
 * to it is the password (`-String` named or not, `-AsPlainText` anywhere on the line).
 */
const SECURE_STRING_VALUE = new RegExp(`(\\bConvertTo-SecureString[ \\t]+(?:-String[ \\t]+)?)${VALUE}`, 'gi');
const SECURE_STRING: ScanRule = {
  kind: 'cli-password',
  hints: ['convertto-securestring'],
  scan: (text) =>
    text.replace(/^[^\n]*-AsPlainText\b[^\n]*$/gim, (line) =>
      line.replace(SECURE_STRING_VALUE, (m, prefix: string, value: string) => keepOrTag(prefix, value, 'cli-password') ?? m),
    ),
};

/** `.netrc`: `machine host login user password SECRET` (one line or several). */
const NETRC: ScanRule = {
  kind: 'netrc-password',
  hints: ['machine'],
  scan: (text) => {
    if (!/(?:^|\s)machine[ \t]+\S+[ \t\n]+(?:login|password)\s/.test(text)) return text;
    return text.replace(/((?:^|\s)(?:password|passwd)[ \t]+)(\S+)/g, (m, prefix: string, v: string) => keepOrTag(prefix, v, 'netrc-password') ?? m);
  },
};

export const COMMAND_LINE_RULES: readonly (RegexRule | ScanRule)[] = [
  ...PROGRAMS.map(programRule),
  CURL_USER,
  OPENSSL_PASS,
  SMB_USER,
  KUBECTL_LITERAL,
  LONG_FLAG,
  SINGLE_DASH_PASSWORD,
  ...PASSWORD_ARGUMENT_RULES,
  ORACLE_LOGIN,
  ECHO_TO_STDIN,
  ECHO_INTO_PASSWORD_FILE,
  PRINTED_PASSWORD,
  HTPASSWD,
  SECURE_STRING,
  NETRC,
];
