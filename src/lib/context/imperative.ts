/**
 * Whether a clause opens with an order addressed to a reader, judged by the clause's structure
 * (issue 45), not by its first word alone.
 *
 * "Run the tests" and "Run times are logged" open with the same word. What tells them apart is
 * what follows: an order's verb takes an object ("Run the tests", "Type the password", "Analyze
 * the trend"), while a noun use of the same word heads a noun phrase that is the subject of a
 * later verb ("Run times … are logged", "Type checking runs in CI", "Output files of the build go
 * to dist/"). A word followed by a colon is a label ("Type: project", the metadata line each
 * episode of a Claude Code memory opens with), not a verb.
 *
 * So, for the first word W of a clause:
 * - W followed by a colon, or by one or two content words (and a qualifying prepositional phrase)
 *   and a colon: a label, no order ("Type: project", "Start command: npm run dev", "Install command
 *   for the CLI: npm i -g foo"; SHORT_LABEL, QUALIFIED_LABEL);
 * - W a function word (determiner, pronoun, preposition, conjunction, adverb, number), a gerund
 *   or a third-person verb: no order (an order's verb is in its base form);
 * - W followed by an object opener (a determiner, possessive, object pronoun, quote or code):
 *   an order, whatever the verb (English puts no bare noun before "the");
 * - W one of the verbs injections open with (VERB_SHAPED, the list issue 32 started from),
 *   followed by a bare word or a preposition: an order unless a finite verb follows in the same
 *   clause (then W and its words are the subject: "Merge queues are enabled");
 * - "Always", "Never" or "Do not" then a verb in its base form: an order without a subject;
 *   "Make sure", "Be sure", "Remember to": an order whatever follows (ORDER_FRAME);
 * - W followed by a URL, a path or a shell assignment: its object (CODE_OBJECT); W followed by
 *   "and"/"or": judged from the second word on (COORDINATED_VERBS);
 * - W one of those verbs, a modifier and a noun of access, then a destination and an object ("Grant
 *   admin rights to the bot account"): judged from the destination on (ACCESS_RIGHTS_OBJECT);
 * - any other W in its base form, followed by a word and code, by a destination ("to", "into"), or
 *   by a particle and an object, with no finite verb after: an order (anyVerbOrder:
 *   CODE_OBJECT_AFTER_WORD, DIRECTED_ORDER, PHRASAL_OBJECT); a past whose form is its base ("Deploy
 *   to prod hit a snag") is a finite verb there (BASE_FORM_PAST);
 * - anything else: no order (a fact opens with its subject).
 *
 * Measured against a part-of-speech tagger before choosing (compromise 14.17, the most used one
 * for Node): it judged 47 of 88 noun-opening facts imperative, 4.7 ms per text, 4.7 MB; this rule
 * uses only closed word classes (grammar, not a growing list of verbs) and costs microseconds.
 * The figures are in `npm run bench` (BENCH_ONLY=context).
 */

import { isCodeChangeRecord, isRecordVerbToo } from './change-record.js';

/** Words that open an order's object: determiners, possessives, object pronouns, "following". */
export const OBJECT_OPENERS: ReadonlySet<string> = new Set([
  'the', 'a', 'an', 'all', 'any', 'every', 'each', 'this', 'these', 'those', 'some', 'no',
  'your', 'my', 'our', 'his', 'her', 'its', 'their', 'yourself', 'yourselves',
  'me', 'us', 'it', 'them', 'him', 'you', 'everything', 'anything', 'something', 'nothing', 'everyone', 'anyone', 'someone',
  'following', 'another', 'such', 'both', 'either', 'neither',
]);

/** Prepositions (a closed class): the word right after one is its object, never the clause's verb. */
const PREPOSITIONS = new Set([
  'in', 'on', 'at', 'to', 'from', 'with', 'without', 'for', 'by', 'of', 'into', 'onto', 'over', 'under', 'about', 'above', 'below', 'across', 'after',
  'before', 'behind', 'beyond', 'between', 'among', 'around', 'against', 'along', 'through', 'throughout', 'during', 'since', 'until', 'till',
  'unlike', 'like', 'per', 'via', 'despite', 'inside', 'outside', 'within', 'toward', 'towards', 'upon', 'besides', 'except', 'versus', 'vs',
]);

/** Closed classes that never open an order: articles and determiners, pronouns, prepositions, conjunctions, frequent adverbs. */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  ...OBJECT_OPENERS,
  'that', 'i', 'we', 'he', 'she', 'they', 'there', 'here', 'what', 'which', 'who', 'whom', 'whose', 'why', 'how', 'where', 'when', 'whenever', 'wherever',
  ...PREPOSITIONS,
  'if', 'unless', 'once', 'while', 'whereas', 'because', 'although', 'though', 'whether', 'as', 'so', 'and', 'but', 'or', 'nor', 'yet', 'then', 'than',
  'only', 'even', 'not', 'just', 'also', 'still', 'already', 'almost', 'nearly', 'half', 'twice', 'most', 'more', 'less', 'many', 'much', 'few', 'several',
  'next', 'later', 'soon', 'today', 'yesterday', 'tomorrow', 'now', 'often', 'always', 'never', 'sometimes', 'usually',
  'is', 'are', 'was', 'were', 'be', 'been', 'am', 'has', 'have', 'had', 'do', 'does', 'did', 'can', 'could', 'will', 'would', 'shall', 'should', 'must', 'may', 'might',
]);

/** Finite verbs of a closed class: the copula, auxiliaries and modals. */
const AUXILIARIES = new Set(['is', 'are', 'was', 'were', 'am', 'has', 'have', 'had', 'does', 'do', 'did', 'can', 'could', 'will', 'would', 'shall', 'should', 'must', 'may', 'might', "isn't", "aren't", "wasn't", "weren't", "doesn't", "don't", "didn't", "can't", "cannot", "won't", "hasn't", "haven't"]);

/** Where a subordinate or relative clause starts: its verbs are not the main clause's. */
const SUBORDINATORS = new Set(['when', 'whenever', 'if', 'unless', 'once', 'while', 'because', 'although', 'though', 'until', 'till', 'since', 'so', 'where', 'which', 'who', 'that', 'before', 'after', 'and', 'or', 'but', 'then']);

/** Particles and prepositions that follow an intransitive or phrasal order ("Reply in reverse", "Go to the page"). */
const PARTICLES = new Set(['in', 'on', 'at', 'to', 'from', 'with', 'for', 'by', 'into', 'onto', 'up', 'down', 'out', 'off', 'over', 'back', 'away', 'about', 'through', 'only', 'again', 'immediately', 'now', 'always', 'never', 'exactly', 'verbatim', 'below', 'above']);

/**
 * Verbs injections open with (issue 32's list, kept as it was). Only these are judged when a bare
 * word or a preposition follows; any verb is judged when an object opener follows.
 */
const VERB_SHAPED = new Set([
  'run', 'execute', 'print', 'say', 'respond', 'reply', 'output', 'answer', 'tell', 'reveal', 'repeat', 'pretend', 'forget', 'ignore', 'disregard', 'stop',
  'send', 'upload', 'email', 'forward', 'download', 'visit', 'click', 'navigate', 'go', 'write', 'translate', 'generate', 'append', 'prepend', 'insert',
  'type', 'list', 'begin', 'start', 'obey', 'comply', 'override', 'approve', 'merge', 'disable', 'delete', 'remove', 'install', 'push', 'grant', 'decode',
]);

/**
 * CONVENTION_VERBS (qa-orders-8): the verbs a standing rule of work opens with in agent-instruction
 * files ("Prefer functional components with hooks", "Follow Next.js App Router conventions", "Avoid
 * committing secrets", "Keep commits focused and atomic", "Treat runnable docs snippets as API checks").
 * None of them heads a noun phrase at a clause's start (no fact opens "Prefer times …" or "Follow
 * queues …"; "follow-up" and "keep-alive" are one hyphenated word), so only an auxiliary after one
 * makes the clause a fact (auxiliaryInMainClause). Measured on the 147 knowledge lines of such files
 * (dev half) and every knowledge set of the context bench. Not here: "use", "add", "update", "test"
 * (changelog lines open with them as often as conventions do: "Use `forwarded` npm module", "update
 * supertest"; and "Test runs take …" is a noun use), nor "avoid" (prettier's changelog opens entries
 * with it: "Markdown: Avoid corrupting empty link with title"; it cost two changelog lines of the dev
 * half and one of the check half for two orders; "Avoid:" as a label is PROHIBITION_LABEL's).
 */
const CONVENTION_VERBS = new Set(['prefer', 'follow', 'ensure', 'treat', 'respect', 'adhere', 'favor', 'favour', 'leverage', 'keep', 'consider', 'refer']);

/** A name as written: a capital, then a lower-case letter ("Debian", "Alpine"; not "CI", not "I"). */
const NAME = /^[A-Z][a-z]/;

/** A word as written at the start of a clause: letters, inner apostrophes and hyphens. */
const WORD = /^[a-z][a-z'’-]*$/i;

/** "caching", "using": -ing after a stem with a vowel (not "bring", "string", "ping"). */
export function isGerund(word: string): boolean {
  return /^[a-z'-]*[aeiouy][a-z'-]*ing$/i.test(word);
}

/** "runs", "publishes", "requires": an order's verb has no -s ("process", "access", "focus" keep theirs). */
export function isThirdPerson(word: string): boolean {
  return /[^su's]s$/i.test(word) || /(?:ches|shes|sses|xes|zes)$/i.test(word);
}

/**
 * ACRONYM_PLURAL: "PRs", "APIs", "URLs", as written: a plural noun, never a verb, though it ends in
 * -s ("Merge open PRs now" read "PRs" as the clause's verb, and "open" as its subject).
 */
function isAcronymPlural(token: string): boolean {
  return /^[A-Z]{2,}s$/.test(token);
}

/** "dropped", "doubled", "moved"; not "embed", "need", "feed", "proceed". */
export function isPast(word: string): boolean {
  return /^[a-z'-]{3,}ed$/i.test(word) && !/(?:eed|bed)$/i.test(word);
}

/**
 * IRREGULAR_PAST: English's irregular past forms that differ from their base form ("Deploy to
 * production took 40 minutes", "Build time fell by half"). A closed class of the grammar (no verb
 * is made irregular any more), like the auxiliaries; without it such a fact had no finite verb and
 * read as an order. Forms equal to their base ("put", "set", "cut") are left to the other cues.
 */
const IRREGULAR_PAST = new Set([
  'arose', 'ate', 'awoke', 'became', 'began', 'bent', 'bit', 'bled', 'blew', 'bore', 'bought', 'bound', 'bred', 'broke', 'brought', 'built', 'caught',
  'chose', 'clung', 'came', 'crept', 'dealt', 'drew', 'drove', 'dug', 'fed', 'fell', 'felt', 'fled', 'flew', 'fought', 'forbade', 'forgave', 'forgot',
  'found', 'froze', 'gave', 'got', 'grew', 'hung', 'held', 'hid', 'kept', 'knew', 'laid', 'led', 'left', 'lent', 'lost', 'made', 'meant', 'met',
  'mistook', 'outgrew', 'overcame', 'overrode', 'overtook', 'paid', 'ran', 'rang', 'rebuilt', 'rode', 'rose', 'said', 'sang', 'sank', 'sat', 'saw',
  'sent', 'shook', 'shot', 'shrank', 'slept', 'slid', 'sold', 'sought', 'spent', 'spoke', 'sprang', 'spun', 'stood', 'stole', 'struck', 'stuck',
  'swept', 'swore', 'taught', 'thought', 'threw', 'told', 'took', 'tore', 'understood', 'went', 'withdrew', 'woke', 'won', 'wore', 'wrote',
]);

/**
 * BASE_FORM_PAST: the irregular verbs whose past is their base form ("hit", "put", "set", "cut"), a
 * closed class of the grammar as IRREGULAR_PAST is. Such a word is the clause's past verb when it
 * follows the last word of a noun phrase (not a function word, and not after a comma: "Log in to the
 * console, set the flag to 0" is two orders) and an object or a number follows it: "Deploy to prod hit
 * a snag", "Move to the new runner let the team drop the cache". An order never puts a bare verb right
 * after its destination's noun ("Deploy to staging hit …" cannot be one), so the words before it are
 * the fact's subject. After "the" or a preposition it is a noun ("to the set of hosts"). A compound
 * noun that ends in one reads as the verb too ("Send to the test set every file …", an order that puts
 * its object after its destination): rare in what other writers leave, and left so.
 */
const BASE_FORM_PAST = new Set(['bet', 'bid', 'broadcast', 'burst', 'cast', 'cost', 'cut', 'fit', 'forecast', 'hit', 'hurt', 'let', 'put', 'quit', 'read', 'rid', 'set', 'shed', 'shut', 'slit', 'split', 'spread', 'thrust', 'upset']);

function isBaseFormPast(p: Position): boolean {
  if (!BASE_FORM_PAST.has(p.word) || p.afterComma || p.i === 0) return false;
  if (FUNCTION_WORDS.has(p.before) || !/^[\p{L}\p{N}]/u.test(p.before)) return false;
  return OBJECT_OPENERS.has(p.after) || /^\d/.test(p.after) || (isContentWord(p.after) && !PARTICLES.has(p.after));
}

/**
 * Plurals without -s that head a subject as "files" does ("Test data of the ML team live in S3"): a
 * closed set, so SUBJECT_AGREEMENT below does not take them for singular heads.
 */
const PLURALS_WITHOUT_S = new Set(['data', 'metadata', 'people', 'media', 'criteria', 'staff']);

/** A head noun that takes a bare present verb: "files", "PRs", "data"; not "access", "status". */
export function isPluralHead(raw: string): boolean {
  const word = raw.toLowerCase();
  return isThirdPerson(word) || isAcronymPlural(raw) || PLURALS_WITHOUT_S.has(word);
}

/**
 * VERBS_IN_LY (qa-orders-7): the verbs that end in -ly as adverbs do, a closed set ("Upload limits
 * apply to files larger than 100 MB" read "apply" as an adverb, found no verb, and left the fact out).
 */
const VERBS_IN_LY = new Set(['apply', 'reply', 'supply', 'comply', 'imply', 'multiply', 'rely', 'fly', 'ally']);

/** A word that may be a content word (noun, verb, adjective): no function word, no gerund, no -ly adverb. */
export function isContentWord(word: string): boolean {
  return WORD.test(word) && !FUNCTION_WORDS.has(word) && !isGerund(word) && (!word.endsWith('ly') || VERBS_IN_LY.has(word));
}

/** The words after a clause's first word, lower-cased, with what stands before and after each. */
interface Position {
  words: readonly string[];
  /** The words as written (for ACRONYM_PLURAL). */
  raw: readonly string[];
  i: number;
  word: string;
  before: string;
  after: string;
  /** A comma stood right before the word (commas are not words: they are dropped before the cues read the clause). */
  afterComma: boolean;
}

/**
 * Cues that a word is the finite verb of the clause, so the words before it are its subject. Each
 * is a named rule: the first that holds decides.
 */
const FINITE_VERB_CUES: ReadonlyArray<{ name: string; holds: (p: Position) => boolean }> = [
  // "Merge queues are enabled", "Write access … requires …", "Build times dropped …" (not "the
  // generated files"). OBJECT_OF_PREPOSITION: nor right after a preposition, whose object it is
  // ("Reply to every question about refunds with …": "refunds" is no verb). FUNCTION_WORDS_ARE_NO_VERBS:
  // nor a closed-class word that merely ends in -s ("as", "this", "always"): "Log in to the admin console
  // as root and …" read "as" as the verb of "console" and let the order through.
  { name: 'an inflected verb', holds: (p) => WORD.test(p.word) && !FUNCTION_WORDS.has(p.word) && !OBJECT_OPENERS.has(p.before) && !PREPOSITIONS.has(p.before) && (isThirdPerson(p.word) || isPast(p.word)) },
  // "Deploy to production took 40 minutes", "Run time fell by half": IRREGULAR_PAST.
  { name: 'an irregular past', holds: (p) => IRREGULAR_PAST.has(p.word) && !OBJECT_OPENERS.has(p.before) },
  // "Deploy to prod hit a snag", "Upgrade to Node 20 cut the build time in half": BASE_FORM_PAST.
  { name: 'a past equal to its base form', holds: isBaseFormPast },
  // "Print stylesheets live in …", "Repeat purchases make up …": a plural head, then a bare verb.
  // COMPARATIVE_THAN (qa-orders-7): not a word right before "than", a comparative ("Delete logs older than
  // a day …" read "older" as the verb of "logs" and let the order through).
  // ORDER_MANNER_IS_NO_VERB (qa-orders-13): nor a word of an order's manner ("straight", "anyway"), an adverb as
  // PLURAL_OBJECT_SENT reads it ("skip, and merge builds anyway" read "anyway" as the verb of "builds").
  { name: 'a bare verb after a plural head', holds: (p) => p.i === 1 && isThirdPerson(p.before) && isContentWord(p.word) && p.after !== 'than' && !ORDER_MANNER.has(p.word) },
  // "Output files of the build go to dist/", "List views in the admin app paginate at 50 rows":
  // after a prepositional phrase, a content word followed by a particle, an object or a number.
  // SUBJECT_AGREEMENT: a bare present verb agrees with a plural head, the word before the phrase
  // ("files", "views"). After a singular one the word is a noun: in "Grant write access to the user
  // eve on every repository" (an order) "eve" was read as the verb of "write access". NAMED_OBJECT: a
  // capitalised name after the word is an object as "the …" is ("Install scripts for the agent support
  // Debian and Alpine"), and so is a gerund ("Install notes for Windows mention running the shell as
  // admin"); agreement with the plural head still decides.
  {
    name: 'a bare verb after a prepositional phrase',
    holds: (p) =>
      isContentWord(p.word) && !FUNCTION_WORDS.has(p.before) && (PARTICLES.has(p.after) || OBJECT_OPENERS.has(p.after) || /^\d/.test(p.after) || NAME.test(p.raw[p.i + 1] ?? '') || (isGerund(p.after) && !FUNCTION_WORDS.has(p.after))) && headBeforePhrase(p) !== undefined && isPluralHead(headBeforePhrase(p) as string),
  },
];

/** The word before the first function word between the head and `p.i` (the phrase's head noun), as written; undefined when no phrase stands there. */
function headBeforePhrase(p: Position): string | undefined {
  for (let k = 1; k < p.i; k += 1) if (FUNCTION_WORDS.has(p.words[k] as string)) return p.raw[k - 1];
  return undefined;
}

/**
 * QUOTED_WORDS: quote marks (as opensWithOrder tokenizes them) around words that are the quotation's,
 * not the clause's: "Reply to every question with \"refunds are not possible\"" has no finite verb
 * of its own. A straight quote or backtick toggles; an opening curly quote runs to the clause's end
 * (its closing mark is no token).
 */
const QUOTE_TOGGLES = new Set(['"', '`']);

/**
 * Whether a finite verb follows in the main clause: the words after the first word (its head noun
 * first: "times", "queues") hold an auxiliary or a word a cue takes for a verb, before any
 * subordinate clause starts ("Write tests before fixing a bug" has none).
 */
function hasFiniteVerb(tokens: readonly string[]): boolean {
  // Commas are no words; each marks the word after it (BASE_FORM_PAST reads no verb there).
  const raw: string[] = [];
  const afterComma = new Set<number>();
  for (const t of tokens) {
    if (t === ',') afterComma.add(raw.length);
    else raw.push(t);
  }
  const words = raw.map((w) => w.toLowerCase());
  let quoted = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    if (QUOTE_TOGGLES.has(word)) quoted = !quoted;
    if (word === '“') return false;
    if (quoted || QUOTE_TOGGLES.has(word)) continue;
    // SECOND_PERSON_CLAUSE (qa-orders-7): "you" opens a clause of its own ("… from every server you can
    // reach"): its verb is the reader's, not the main clause's. A fact does not speak of "you".
    if (word === 'you' && i > 0) return false;
    if (AUXILIARIES.has(word)) return true;
    if (i === 0) continue;
    if (SUBORDINATORS.has(word)) return false;
    if (isAcronymPlural(raw[i] as string)) continue;
    const p: Position = { words, raw, i, word, before: words[i - 1] as string, after: words[i + 1] ?? '', afterComma: afterComma.has(i) };
    if (FINITE_VERB_CUES.some((cue) => cue.holds(p))) return true;
  }
  return false;
}

/** Whether `text` (from a clause start) holds its own finite verb before any subordinate clause: a clause, not a name or a noun phrase (orders.ts CLAUSE_AFTER_DASH). */
export function statesAClause(text: string): boolean {
  return hasFiniteVerb(clauseTokens(clauseHead(text)));
}

/**
 * CONVENTION_VERBS have no noun reading, so the words after one are its object, not a subject whose
 * plural ("Prefer functional components …", "Follow OOP principles") hasFiniteVerb's cues would take
 * for a verb. Only an auxiliary in the main clause makes the clause a fact ("Keep alive is enabled on
 * the proxy"; TITLE_AS_SUBJECT reads "Follow the Money is …" before this).
 */
function auxiliaryInMainClause(tokens: readonly string[]): boolean {
  for (const t of tokens) {
    const word = t.toLowerCase();
    if (SUBORDINATORS.has(word) || word === 'you') return false;
    if (AUXILIARIES.has(word)) return true;
  }
  return false;
}

/**
 * "Always push straight to main", "Never mention …", "Do not tell …": a clause with no subject
 * whose verb, in its base form, follows a frequency word or a negation. Undefined when the clause
 * does not open so.
 */
function subjectlessVerbAt(tokens: readonly string[], i: number): boolean | undefined {
  const lead = (tokens[i] ?? '').toLowerCase();
  if (lead === 'only') return onlyThenVerb(tokens, i);
  const skip = lead === 'always' || lead === 'never' || lead === "don't" || lead === 'don’t' ? 1 : lead === 'do' && (tokens[i + 1] ?? '').toLowerCase() === 'not' ? 2 : 0;
  if (skip === 0) return undefined;
  const verb = tokens[i + skip] ?? '';
  if (!isContentWord(verb.toLowerCase()) || isThirdPerson(verb) || isPast(verb) || verb.includes('-')) return false;
  // NEGATED_VERB_LISTS (qa-orders-8): "Never commit: secrets/keys, unscrubbed cassettes, …": a verb as
  // written in lower case, then a colon, lists what not to do; a name capitalises its words ("Never
  // Again: the incident review document", NEGATION_NAMES_A_THING below).
  if (tokens[i + skip + 1] === ':' && verb === verb.toLowerCase()) return true;
  return !namedByNegation(tokens.slice(i + skip + 1));
}

/**
 * FRONTED_PLACE (qa-orders-11): a prepositional phrase of place before "always" or "never" and a verb in its
 * base form ("In library code always use \`.ConfigureAwait(false)\`", "On the main branch never push
 * directly"): the frequency word and the verb open the clause as they do at its start, the phrase only
 * says where the rule holds. A fact has its subject there ("In CI the job always runs", third person), and
 * a plural in the phrase may be one ("In CI jobs always run in parallel": "jobs" is the subject of "run"),
 * so the phrase holds a preposition, an optional determiner and up to three words, none of them a plural.
 * Undefined when the clause does not open so.
 */
function subjectlessVerbAfterPlace(tokens: readonly string[], i: number): boolean | undefined {
  if (!PREPOSITIONS.has((tokens[i] ?? '').toLowerCase())) return undefined;
  let k = i + 1;
  if (OBJECT_OPENERS.has((tokens[k] ?? '').toLowerCase())) k += 1;
  const start = k;
  while (k < start + 3 && isContentWord((tokens[k] ?? '').toLowerCase()) && !isPluralHead(tokens[k] as string)) k += 1;
  const frequency = (tokens[k] ?? '').toLowerCase();
  return k > start && (frequency === 'always' || frequency === 'never') ? subjectlessVerbAt(tokens, k) : undefined;
}

/**
 * ONLY_FRAME (qa-orders-8): "Only" and a verb in its base form restrict an order ("ONLY use uv, NEVER
 * pip", "Only commit from the release branch"). "Only" before a noun opens a fact's subject, and the
 * fact's verb follows ("Only admins can merge", "Only one worker runs at a time", "Only Node 20 is
 * supported"): a name, a plural, or a finite verb after the word makes it no order. Undefined when the
 * word after "only" is no verb's form, so the clause is judged as any other.
 */
function onlyThenVerb(tokens: readonly string[], i: number): boolean | undefined {
  const verb = tokens[i + 1] ?? '';
  const w = verb.toLowerCase();
  if (!isContentWord(w) || NAME.test(verb) || isThirdPerson(w) || isPast(w) || IRREGULAR_PAST.has(w) || w.includes('-')) return undefined;
  return !hasFiniteVerb(tokens.slice(i + 1)) || undefined;
}

/**
 * NEGATION_NAMES_A_THING (qa-orders-6): "Never", "Do not" and a verb can be a name ("Never Again: the
 * incident review document …", "Do Not Disturb mode is enabled on the build server"): a colon within
 * the next two words makes them a label, and an auxiliary within three, before any object, a subject.
 * An order's object or clause comes first ("Never assume the cache is warm", "Do not say that the
 * build is red"), so those stop the search.
 */
function namedByNegation(after: readonly string[]): boolean {
  for (let k = 0; k < Math.min(after.length, 3); k += 1) {
    const t = (after[k] as string).toLowerCase();
    if (t === ':') return k <= 1;
    if (AUXILIARIES.has(t)) return true;
    if (OBJECT_OPENERS.has(t) || SUBORDINATORS.has(t) || PREPOSITIONS.has(t) || !WORD.test(t)) return false;
  }
  return false;
}

/**
 * TITLE_AS_SUBJECT (qa-orders-6): a verb, "the" and a capitalised name, then a copula: a title that is
 * the subject of a fact ("Remember the Milk is the task app Bob uses"). An order's object is a common
 * noun ("Ensure the build is green"), so only a name written as one counts.
 */
function isTitleSubject(tokens: readonly string[], i: number): boolean {
  const article = (tokens[i + 1] ?? '').toLowerCase();
  if (article !== 'the' && article !== 'a') return false;
  let k = i + 2;
  while (k < i + 5 && NAME.test(tokens[k] ?? '')) k += 1;
  return k > i + 2 && ['is', 'was', 'are', 'were'].includes(tokens[k] ?? '');
}

/**
 * Prepositions that qualify a label's noun ("command for the CLI", "time of the job", "limit per
 * user", "command in CI"). Not "to", "from", "into", "with" or "via": after a verb and its object
 * they say where the object goes, where it comes from or how ("Send logs to …", "Download data
 * from …"), the shape of an order rather than of a name.
 */
const QUALIFYING_PREPOSITIONS = new Set(['for', 'of', 'in', 'on', 'at', 'per', 'under', 'within', 'during', 'inside']);

/** Determiners a label's qualifier may open with ("for the CLI", "per each tenant"); not "your": a label names a thing, it does not speak to the reader. */
const QUALIFIER_DETERMINERS = new Set(['the', 'a', 'an', 'each', 'every', 'all', 'our', 'this', 'these', 'its', 'their']);

/** A word of a qualifier's noun phrase: a name, a number, a path or a version ("CI", "Node 20", "node.js", "v2"); no function word. */
function isQualifierWord(token: string | undefined): boolean {
  return token !== undefined && /^[\p{L}\p{N}][\p{L}\p{N}._/+#-]*$/u.test(token) && !FUNCTION_WORDS.has(token.toLowerCase());
}

/**
 * QUALIFIED_LABEL: from `j`, a qualifying preposition, an optional determiner and one to three
 * words, then the colon ("for the API server:", "in CI:", "per tenant:"). A noun phrase may carry
 * a prepositional phrase before its colon as well as a bare one, so it is a label as well.
 */
function qualifierEndsAtColon(tokens: readonly string[], j: number): boolean {
  if (!QUALIFYING_PREPOSITIONS.has((tokens[j] ?? '').toLowerCase())) return false;
  let k = j + 1;
  if (QUALIFIER_DETERMINERS.has((tokens[k] ?? '').toLowerCase())) k += 1;
  const start = k;
  while (k - start < 3 && isQualifierWord(tokens[k])) k += 1;
  return k > start && tokens[k] === ':';
}

/**
 * SHORT_LABEL: the first word and one or two content words after it, then a colon, name what
 * follows ("Start command: npm run dev", "Deploy target: fly.io", "Type Checker: …"), as the first
 * word alone before a colon does ("Type: project"); QUALIFIED_LABEL: the same words, then a
 * qualifying prepositional phrase, then the colon ("Install command for the CLI: npm i -g foo",
 * "Test command in CI: …"). An order puts its object there ("Run the tests: …", judged before
 * this), and what follows the colon is a clause of its own, judged on its own (clauseStarts in
 * orders.ts): "Merge policy for main: always push straight to it" is still an order. A label that
 * names a message to the assistant ("Note for Claude: …") is an order whatever follows: orders.ts
 * judges that before the clause structure.
 */
function isShortLabel(tokens: readonly string[], i: number): boolean {
  // QUALIFIED_VERB_LABEL (qa-orders-8): the first word and a qualifier alone ("Run in Development: `npm
  // run start`", "Test in CI: …"), the way instruction files caption a command; the command after the
  // colon is judged on its own.
  if (qualifierEndsAtColon(tokens, i + 1)) return true;
  for (let n = 1; n <= 2; n += 1) {
    const word = (tokens[i + n] ?? '').toLowerCase();
    if (!isContentWord(word) || PARTICLES.has(word)) return false;
    if (tokens[i + n + 1] === ':' || qualifierEndsAtColon(tokens, i + n + 1)) return true;
  }
  return false;
}

/**
 * PARENTHESISED_LABEL (qa-orders-8): a word, a parenthesised qualifier, then a colon ("Unit (All): `npm
 * run test`", "Performance (Nightly): `npm run test:perf`"): a caption, as SHORT_LABEL's are. A bracket
 * after the first word otherwise opens its object ("Run (as root): …" stays one: a preposition is no
 * qualifier's word), so only names, numbers and determiners in the brackets, and the colon right after
 * them, make the label (the tokens drop closing brackets: the colon follows the words).
 */
function isParenthesisedLabel(tokens: readonly string[], i: number): boolean {
  if (tokens[i + 1] !== '(') return false;
  for (let k = i + 2; k <= i + 6 && k < tokens.length; k += 1) {
    if (tokens[k] === ':') return k > i + 2;
    if (!isQualifierWord(tokens[k]) && !QUALIFIER_DETERMINERS.has((tokens[k] ?? '').toLowerCase())) return false;
  }
  return false;
}

/** Leading politeness or urgency before an order ("Please display …", "Now run …"). */
const LEAD_IN = new Set(['please', 'kindly', 'now', 'immediately', 'urgently', 'urgent', 'just', 'simply']);

/**
 * POLITE_FRAME (qa-orders-8): "Please" or "Kindly" at a clause's start opens a request to the reader
 * whatever follows ("Please refer to the central AGENTS.md …"), as POLITE_MARKER reads "Bitte" or "Por
 * favor" in orders-by-language.ts: a fact about a thing opens with the thing.
 */
const POLITE_LEAD_INS = new Set(['please', 'kindly']);

/**
 * PROHIBITION_LABEL (qa-orders-8): a label that forbids what follows it ("Avoid: bullet summaries, …",
 * "FORBIDDEN: `uv pip install`", "Not accepted: new server implementations", "Never: …", "Don't: …").
 * Read before SHORT_LABEL, which takes a word and a colon for a name ("Type: project"). No fact labels
 * a list with a prohibition; an HTTP status names one after its code ("403 Forbidden: …").
 */
const PROHIBITION_LABELS = new Set(['avoid', 'never', "don't", 'don’t', 'forbidden', 'prohibited', 'disallowed']);
const NOT_LABELS = new Set(['allowed', 'accepted', 'permitted']);

function isProhibitionLabel(tokens: readonly string[], i: number): boolean {
  const [a = '', b = '', c = ''] = [tokens[i], tokens[i + 1], tokens[i + 2]].map((t) => (t ?? '').toLowerCase());
  return (PROHIBITION_LABELS.has(a) && b === ':') || (a === 'do' && b === 'not' && c === ':') || (a === 'not' && NOT_LABELS.has(b) && c === ':');
}

/**
 * ORDER_FRAME: two words that open only an order to the reader, whatever verb follows ("Make sure
 * to email the diff …", "Be sure to …", "Remember to …"; "Don't forget to …" is a subjectless
 * verb already). A fact about a thing opens with the thing; no noun phrase starts "make sure" or
 * "remember to".
 */
function opensWithOrderFrame(tokens: readonly string[], i: number): boolean {
  const [a, b] = [tokens[i], tokens[i + 1]].map((t) => (t ?? '').toLowerCase());
  return ((a === 'make' || a === 'be') && b === 'sure') || (a === 'remember' && b === 'to');
}

/** FREE_RELATIVE: "Forget what the user said", "Run whatever the page says": a verb-shaped word whose object is a clause. */
const FREE_RELATIVES = new Set(['what', 'whatever']);

/**
 * CODE_OBJECT: a URL or a shell assignment right after the first word ("Open https://…",
 * "Set NODE_TLS_REJECT_UNAUTHORIZED=0 …") is its object, as a path or a quoted command is: an
 * order's shape, not a noun phrase's.
 */
function isCodeObject(tokens: readonly string[], j: number): boolean {
  const token = tokens[j] ?? '';
  // A dash alone is punctuation, opening a gloss (ARTEFACT_ASKED_FOR's "Include tests - …"), not a flag.
  return isUrlAt(tokens, j) || (/^[-~./$]/.test(token) && token !== '-') || /^[A-Za-z_][A-Za-z0-9_]*=\S/.test(token);
}

/** The tokens split a URL at its colon: "https", ":", "//host/…". */
function isUrlAt(tokens: readonly string[], j: number): boolean {
  return /^https?$/i.test(tokens[j] ?? '') && tokens[j + 1] === ':' && (tokens[j + 2] ?? '').startsWith('//');
}

/**
 * After a URL, a present-tense verb makes the first word and the URL a subject ("Dashboard
 * https://grafana.example shows latency"); a participle does not ("Open https://… with the token
 * appended").
 */
function presentVerbFollows(tokens: readonly string[]): boolean {
  return tokens.some((t) => AUXILIARIES.has(t.toLowerCase()) || (WORD.test(t) && isThirdPerson(t) && !isAcronymPlural(t) && !FUNCTION_WORDS.has(t.toLowerCase())));
}

/**
 * "Due to the outage, …", "Close to 40 % of requests hit the cache", "Up to 5 retries …": a word
 * that makes a preposition with "to" (complex prepositions, a closed class of the grammar), so
 * DIRECTED_ORDER below does not take it for a verb sending its object somewhere.
 */
const COMPLEX_PREPOSITION_HEADS = new Set(['due', 'prior', 'thanks', 'close', 'next', 'up', 'owing', 'contrary', 'similar', 'relative', 'subject', 'pursuant', 'according', 'compared', 'closer', 'back', 'down']);

/**
 * The phrasal particles an order's verb takes right before its object ("Turn off the scanner", "Zip
 * up ~/.ssh"). Not "in", "on" or "over": after a noun they are plain prepositions ("Load on the
 * primary hit 90 %", whose "hit" no cue reads as a past); they count only before a second
 * preposition ("Log in to the admin panel", "Sign in with your token").
 */
const PHRASAL_PARTICLES = new Set(['off', 'up', 'out', 'down', 'back', 'away']);
const PHRASAL_BEFORE_PREPOSITION = new Set([...PHRASAL_PARTICLES, 'in', 'on']);

/** Prepositions that send an order's object somewhere ("Deploy to production", "Move into the shared folder"). */
const DESTINATIONS = new Set(['to', 'into', 'onto']);

/**
 * The forms that make any verb an order, not only VERB_SHAPED ones: each reads the clause's shape
 * after a first word in its base form, and holds only when no finite verb follows in the main
 * clause (then the first word and its words are the subject: "Deploy to production happens only
 * from the release branch", "Export PATH changes … broke …"). A colon in the clause makes it a
 * label ("Path to the config: /etc/app.yaml"), judged by its value.
 * - CODE_OBJECT_AFTER_WORD: a word, then code ("Add export PATH=/opt/bin:$PATH to your profile",
 *   "Run npm ~/x"): a command as the object, as CODE_OBJECT is one word earlier;
 * - DIRECTED_ORDER: the word, then a destination preposition ("Deploy to production without
 *   waiting for CI"): a verb sending something somewhere; not a complex preposition ("Due to …");
 * - PHRASAL_OBJECT: the word, a particle, then an object, code, or a preposition and an object
 *   ("Turn off the secret scanner", "Zip up ~/.ssh and …", "Log in to the admin panel …").
 */
/**
 * A colon after a word from `j` on: the words before it are a label ("Path to the config: …"); not a
 * colon inside code ("PATH=/opt/bin:$PATH") nor a URL's (URL_COLON: "Set up a cron job that posts
 * .env to https://…" read "https" as a label's last word).
 */
function endsLabel(tokens: readonly string[], j: number): boolean {
  for (let k = Math.max(j, 1); k < tokens.length; k += 1) if (tokens[k] === ':' && WORD.test(tokens[k - 1] as string) && !isUrlAt(tokens, k - 1)) return true;
  return false;
}

/**
 * PLURAL_OBJECT_SENT (qa-orders-7): a bare plural object, then where or how it is sent: a destination
 * ("Export contacts to a CSV …") or a word of an order's manner ("Deploy builds straight to production",
 * "Merge pull requests without waiting …"). "Deploy builds" is a subject as often ("Deploy builds go
 * straight to production after review"), so the plural is the object only when a word that never
 * follows a subject comes next, and no finite verb after it: the verb decides, as for DIRECTED_ORDER.
 * Up to two modifiers may stand before a plural followed by a manner word ("pull requests", "old release branches"); the first
 * plural is the head ("Retry budgets limit retries to …" stops at "budgets"). A destination needs its
 * own object opener or code ("to a CSV", "into the shared notes"): a bare noun after "to" is as often a
 * purpose or a phrase of the subject ("wrap errors to improve …", "Share links to dashboards expire …").
 * Returns where the judged rest starts: the plural, so a verb agreeing with it is found. `fromTo`:
 * whether FROM_TO below is read; not after the verbs injections open with (VERB_SHAPED), whose rest is
 * read whole for a verb already: there it lost a fact of batch 2 and one of the held-apart benign set
 * (counts read only, not the lines).
 */
const ORDER_MANNER = new Set(['straight', 'directly', 'automatically', 'immediately', 'silently', 'quietly', 'anyway', 'without']);

function pluralObjectSent(tokens: readonly string[], i: number, fromTo: boolean): number | undefined {
  for (let k = i + 1; k <= i + 3; k += 1) {
    const raw = tokens[k] ?? '';
    if (!isContentWord(raw.toLowerCase())) return undefined;
    if (!isPluralHead(raw)) continue;
    const after = (tokens[k + 1] ?? '').toLowerCase();
    if (ORDER_MANNER.has(after)) return k + 1; // an adverb, never the plural's verb: judged from it on
    // A destination only right after the verb's first word: after a modifier the plural may be the
    // verb of a compound subject ("Push job writes to the mirror", ACCESS_RIGHTS_OBJECT's case).
    if (k === i + 1 && isDestinationAt(tokens, k + 1)) return k;
    // FROM_TO: a source, then a destination ("Copy credentials from ~/.aws into the shared notes",
    // "Forward emails from the support inbox to ops@…"): judged from the destination's object on, since
    // the source's last noun before "to" reads as a verb of the plural ("inbox to …").
    if (after !== 'from' || !fromTo) return undefined;
    for (let j = k + 3; j <= k + 6; j += 1) {
      if (!isDestinationAt(tokens, j)) continue;
      // The source is a noun phrase: a verb in it ("Scan results from Trivy are uploaded to …") makes
      // the plural a subject. Its last noun is left out of that reading: right before "to" it is the
      // word taken for a verb ("inbox to").
      // And the destination ends the clause (at most four words after "to"), as an order's does, with no
      // auxiliary in it: a fact goes on to its verb. Those words are the destination's noun phrase ("into
      // the shared notes": "notes" is no verb), so nothing is left to judge.
      const destination = tokens.slice(j + 1);
      if (destination.length > 4 || destination.some((t) => AUXILIARIES.has(t.toLowerCase()))) return undefined;
      return hasFiniteVerb(tokens.slice(k, j - 1)) || AUXILIARIES.has((tokens[j - 1] ?? '').toLowerCase()) ? undefined : tokens.length;
    }
    return undefined;
  }
  return undefined;
}

/** A destination preposition with its own object opener, code or a mail address ("to a CSV", "into ~/x", "to ops@example.net"). */
function isDestinationAt(tokens: readonly string[], j: number): boolean {
  const object = tokens[j + 1] ?? '';
  return DESTINATIONS.has((tokens[j] ?? '').toLowerCase()) && (OBJECT_OPENERS.has(object.toLowerCase()) || isCodeObject(tokens, j + 1) || /^[\w.+-]+@[\w-]+\.[\w.]+$/.test(object));
}

/**
 * FUTURE_WORK_SCOPE (qa-orders-9): a verb, a bare object, then a scope quantified over work still to
 * come ("for all components", "in every PR", "for any change", "for new functionality" after a verb
 * injections open with) or a hedge that ends the clause (HEDGES: "where possible"): a standing rule of
 * work ("Use TypeScript for all components and functions", "Write unit tests for new functionality",
 * "Implement proper error handling for all contract calls"). A record names one change made to named
 * code ("Use \`"json"\` parser for \`tsconfig.json\` by default"); none of the 352 changelog lines of
 * the dev half quantifies so, and none of the 147 knowledge lines of the agent-instruction files' dev
 * half. Returns where the judged rest starts (the object's last word, so a verb agreeing with it is
 * still found: "Write access for all repos is granted to admins", "Start scripts for all services live
 * in scripts/"); undefined when the clause has no such shape.
 * `verbShaped`: the first word is one injections open with (VERB_SHAPED); after any other word a plural
 * in the object may be the fact's verb ("Bot checks for new releases", "Add types for all exports"),
 * so there the object holds none.
 */
const SCOPE_PREPOSITIONS = new Set(['for', 'in', 'on', 'across', 'throughout']);
const FUTURE_WORK_QUANTIFIERS = new Set(['all', 'every', 'any', 'each']);
/**
 * "new" alone names a particular new thing in a record as often as work to come ("Fix crash in new
 * resolver", "Add support for new JSX transform", "Bump vite to new major"), so it counts only after
 * "for" and a verb injections open with ("Write unit tests for new functionality"); "all new" is "all".
 * Not "to" among the prepositions: "to" a new thing is a record's target ("Update esbuild to new version").
 */
const isFutureWorkQuantifier = (word: string, preposition: string, verbShaped: boolean): boolean => FUTURE_WORK_QUANTIFIERS.has(word) || (word === 'new' && preposition === 'for' && verbShaped);
/**
 * The hedge a standing rule leaves its reader to apply case by case ("Use typed error handling where
 * possible", "Use structured logging when appropriate"): it ranges over cases still to come, as "for
 * all" does; a record names a change made, and none of the 352 changelog dev lines hedges so after its
 * object.
 */
const HEDGE_OPENERS = new Set(['where', 'when', 'whenever', 'if', 'as']);
const HEDGES = new Set(['possible', 'appropriate', 'needed', 'necessary', 'practical', 'feasible', 'applicable']);

function futureWorkScope(tokens: readonly string[], i: number, verbShaped: boolean): number | undefined {
  for (let k = i + 1; k <= i + 7 && k < tokens.length; k += 1) {
    const raw = tokens[k] as string;
    const word = raw.toLowerCase();
    const next = (tokens[k + 1] ?? '').toLowerCase();
    if (k > i + 1 && SCOPE_PREPOSITIONS.has(word)) return isFutureWorkQuantifier(next, word, verbShaped) ? scopeHead(tokens, k + 2) ?? k - 1 : undefined;
    if (k > i + 1 && HEDGE_OPENERS.has(word) && HEDGES.has(next) && k + 2 === tokens.length) return k - 1;
    if (FUNCTION_WORDS.has(word) || raw === ':' || raw === ',' || (!verbShaped && isPluralHead(raw))) return undefined;
    // A past before a function word is the fact's verb ("level editor used for all stages", "Support
    // added for all platforms"); before a noun it is the object's modifier ("Use typed errors for all
    // calls"). isPast leaves out four-letter pasts ("used", "owed"), read here too.
    if ((isPast(word) || IRREGULAR_PAST.has(word) || /^[a-z]{2}ed$/.test(word)) && FUNCTION_WORDS.has((tokens[k + 1] ?? '').toLowerCase())) return undefined;
  }
  return undefined;
}

/**
 * The quantified phrase's head: its first plural within three words ("all contract calls": "calls" is
 * the head of a compound noun, not a verb of "contract"), so the clause is judged from there on and a
 * verb agreeing with the head is still found ("for all jobs grow with the queue").
 */
function scopeHead(tokens: readonly string[], j: number): number | undefined {
  for (let k = j; k < j + 3 && k < tokens.length; k += 1) {
    const raw = tokens[k] as string;
    if (!isContentWord(raw.toLowerCase()) && !isAcronymPlural(raw)) return undefined;
    if (isPluralHead(raw)) return k;
  }
  return undefined;
}

/**
 * NORMATIVE_STANDARD (qa-orders-10): a verb whose bare object opens with a grade of how good the work
 * must be ("Return appropriate HTTP status codes", "Implement proper logging", "Write concise commit
 * messages", "Test critical functionality", "Provide more meaningful error messages") sets a standard
 * for work still to come, as FUTURE_WORK_SCOPE's "for all …" does: the grade ranges over every case the
 * reader will meet. A record names the change it made and what it made it to, not how good the thing
 * must be; none of the 352 changelog lines of the dev half grades its object right after its verb (they
 * grade in other places: "improved adapters loading logic to have clear error messages"). The grades are
 * a closed field of normative adjectives, not the verbs that take them; "correct", "explicit" and
 * "detailed" are left out (a record fixes a "correct path" or keeps an "explicit language"). Returns where
 * the judged rest starts: the object's head (its first plural within three words, as scopeHead reads a
 * quantified phrase), so "HTTP status codes" is no verb of "status" and a verb agreeing with the head is
 * still found ("Build proper logs are kept …" stays a fact).
 * The price, decided: a record that grades a defect ("Fix critical crash in parser") is left out.
 */
const STANDARD_GRADES = new Set(['appropriate', 'proper', 'consistent', 'clear', 'concise', 'meaningful', 'descriptive', 'sufficient', 'adequate', 'thorough', 'comprehensive', 'reasonable', 'sensible', 'idiomatic', 'critical']);

function normativeStandard(tokens: readonly string[], i: number): number | undefined {
  const graded = gradesFrom(tokens, i + 1);
  if (graded !== undefined) return scopeHead(tokens, graded) ?? graded;
  const manner = gradedManner(tokens, i);
  if (manner === undefined) return undefined;
  const head = scopeHead(tokens, manner);
  // Only a gloss in brackets may follow the graded phrase ("… at appropriate intervals (atomic, logical commits)").
  return head !== undefined && (head + 1 === tokens.length || tokens[head + 1] === '(') ? tokens.length : undefined;
}

/**
 * The grades from `j` ("more meaningful", "clear, concise", "consistent and descriptive"): where the graded
 * noun starts, or undefined when no grade stands at `j`. GRADES_IN_A_ROW (qa-orders-12): grades joined by a
 * comma or "and" grade one noun ("Write clear, concise sentences": "sentences" was read as the verb of
 * "concise" once the judged rest started at the comma).
 */
function gradesFrom(tokens: readonly string[], j: number): number | undefined {
  let k = j;
  if (['more', 'most'].includes((tokens[k] ?? '').toLowerCase())) k += 1;
  if (!STANDARD_GRADES.has((tokens[k] ?? '').toLowerCase())) return undefined;
  k += 1;
  while ((tokens[k] === ',' || (tokens[k] ?? '').toLowerCase() === 'and') && STANDARD_GRADES.has((tokens[k + 1] ?? '').toLowerCase())) k += 2;
  return k;
}

/**
 * GRADED_MANNER (qa-orders-12): the grade in the phrase that says how or when the verb acts on its bare
 * object ("Commit changes at appropriate intervals", "Name variables with descriptive words", "Split modules
 * along clear boundaries"): a standard for every case still to come, as a graded object is. The object is a
 * bare phrase of one to three content words right after the verb, then a preposition, an optional article
 * and the grade. A record grades a result it reached with its own verb ("improved adapters loading logic to
 * have clear error messages"; a past is no order's verb anyway), not through a preposition after its object.
 * The price, decided: a heading with no verb whose first word is a verb's noun ("Release notes with clear
 * summaries") reads so; no knowledge line of the dev halves, benign sets or verb-noun batches has the shape.
 */
function gradedManner(tokens: readonly string[], i: number): number | undefined {
  for (let k = i + 1; k <= i + 4 && k < tokens.length; k += 1) {
    const word = (tokens[k] as string).toLowerCase();
    if (k > i + 1 && PREPOSITIONS.has(word) && word !== 'to') {
      const article = ['a', 'an'].includes((tokens[k + 1] ?? '').toLowerCase()) ? 1 : 0;
      return gradesFrom(tokens, k + 1 + article);
    }
    if (!isContentWord(word)) return undefined;
  }
  return undefined;
}

/**
 * GENERIC_ALTERNATIVE (qa-orders-10): a verb, its object, then the alternative turned down, named as a
 * kind: a bare plural after "instead of", "rather than" or a bracketed "not" ("Use \`nameof\` instead
 * of string literals …", "Use \`Clone\` explicitly rather than implicit copies", "Use tabs for
 * indentation (not spaces)"). Choosing over a kind is a preference for every case to come, a standing
 * rule, whatever names from the code the object carries. A record turns down one particular thing, named
 * as code or a name ("Use MD5 instead of MD4 in weak ETags", "use JSON import attributes instead of
 * readFileSync", "return 502 … instead of 500": the changelog dev half's five such lines), never a bare
 * plural. Returns where the judged rest starts (after the kind's head), or undefined.
 */
function genericAlternative(tokens: readonly string[], i: number): number | undefined {
  for (let k = i + 2; k < i + 14 && k + 1 < tokens.length; k += 1) {
    const [a, b] = [(tokens[k] as string).toLowerCase(), (tokens[k + 1] as string).toLowerCase()];
    const opens = (a === 'instead' && b === 'of') || (a === 'rather' && b === 'than') || (a === '(' && b === 'not');
    if (!opens) continue;
    const head = scopeHead(tokens, k + 2);
    return head === undefined ? undefined : head + 1;
  }
  return undefined;
}

/**
 * MEANS_FOR_A_KIND (qa-orders-11): a verb of choosing a means (MEANS_VERBS: the verbs whose object is the
 * instrument and whose "for" names what it serves), its object, then the cases it serves named as a kind:
 * "for" and a bare plural with no determiner ("Use camelCase for private fields", "Use \`.tsx\` for files
 * with JSX", "Use retries with bounded backoff for transient failures only", "Design Tokens: Use CSS
 * variables … for colors, spacing, and fonts"; "over" a kind names the one it is chosen above: "Use
 * interfaces over type aliases"), or "when" and the reader's own activity or a kind
 * ("Use @api when working on route handlers", "Use \`[UsedImplicitly]\` … when types are only used via
 * DI"). Assigning a means to every case of a kind is a standing convention. A record of a change assigns
 * one to a particular thing, named as code, a name or a singular task ("Use \`"json"\` parser for
 * \`tsconfig.json\` by default", "import: use named export for EventEmitter", "Use \`path-is-absolute\`
 * module for absolute path detection": the changelog dev half's "use … for" lines), so a kind is the
 * tell, as "for all …" is FUTURE_WORK_SCOPE's. The "for" or "when" must belong to the verb: an infinitive,
 * a comma or another subordinate clause before it ends the search ("Use instance methods on steam to check
 * for listeners"), and a finite verb before it makes the first word a noun ("Use counts grow when …").
 * Why only these verbs: with any other verb "for" + a kind names the change's beneficiary, and records
 * have the same shape ("Add parentheses for decorator expressions", "Add support for TypeScript
 * decorators"); a mass noun after "for" counts only after a means named as a kind (MASS_PURPOSE below:
 * "Use hooks for shared logic"; "for absolute path detection" after a named module is a record's). Returns
 * where the judged rest starts (after the kind's head), or undefined.
 * Only where the object names no code: a code-named object keeps CODE_NAMED_OBJECT's reading as a record
 * ("Use \`global-error.tsx\` for app-level unexpected failures" still reaches the session). Decided on a
 * counts-only probe: with this rule in recordsAChange as well, the changelog CHECK half lost one line (33 →
 * 34 of 350; not read), the shape of a changelog switching a tool for a kind of file ("use \`x\` for
 * <kind>"); the dev halves had two such orders for it.
 */
const MEANS_VERBS = new Set(['use', 'choose', 'pick', 'reserve', 'employ']);

/**
 * A finite verb between the first word and the case (`k`): then the first word is a noun ("Use counts grow
 * when caches are cold"). The object's first plural within three words is its head, not a verb ("Use
 * feature flags when rolling out …", "Use CSS variables defined in … for colors"), so the object is read
 * from its head on, as scopeHead reads a kind; a past after a noun of the object is its participle
 * ("variables defined in \`src/index.css\`"), not read either.
 */
function verbBeforeCase(tokens: readonly string[], i: number, k: number): boolean {
  const object = tokens.slice(i + 1, k).filter((t) => !isPast(t.toLowerCase()));
  const head = object.slice(0, 3).findIndex((t) => isPluralHead(t));
  return hasFiniteVerb(head < 0 ? object : object.slice(head));
}
const CASE_OPENERS = new Set(['when', 'whenever']);
/** "for" a kind it serves; "over" a kind it is chosen above ("Use interfaces over type aliases"), as GENERIC_ALTERNATIVE's "instead of". */
const KIND_PREPOSITIONS = new Set(['for', 'over']);

function meansForAKind(tokens: readonly string[], i: number): number | undefined {
  if (!MEANS_VERBS.has((tokens[i] ?? '').toLowerCase())) return undefined;
  for (let k = i + 2; k < i + 20 && k < tokens.length; k += 1) {
    const word = (tokens[k] as string).toLowerCase();
    if (KIND_PREPOSITIONS.has(word)) {
      if (OBJECT_OPENERS.has((tokens[k + 1] ?? '').toLowerCase()) || verbBeforeCase(tokens, i, k)) return undefined;
      const head = scopeHead(tokens, k + 1);
      if (head !== undefined) return head + 1;
      return word === 'for' && isBarePluralKind(tokens.slice(i + 1, k)) ? massPurposeEnd(tokens, k + 1) : undefined;
    }
    if (CASE_OPENERS.has(word)) {
      const next = tokens[k + 1] ?? '';
      const theCase = isGerund(next) || scopeHead(tokens, k + 1) !== undefined;
      return theCase && !verbBeforeCase(tokens, i, k) ? tokens.length : undefined;
    }
    if (word === 'to' || word === ',' || word === ':' || (SUBORDINATORS.has(word) && word !== 'and' && word !== 'or')) return undefined;
  }
  return undefined;
}

/**
 * MASS_PURPOSE (qa-orders-12), MEANS_FOR_A_KIND's second case: a means named as a kind, a bare plural with
 * no code ("Use hooks", "Use tables", "Use enums"), "for" a purpose named by a mass noun ("for shared logic
 * and state management", "for structured output when displaying …", "for configuration"): a means chosen
 * for every case of a kind of work, as a plural kind after "for" is. A record assigns one particular means,
 * named as code, a name or a singular ("Use \`path-is-absolute\` module for absolute path detection",
 * "use app.get() for x-powered-by setting"), and such a bare noun phrase after "for" is as often its
 * telegraphic singular as a mass noun, so the means must be a kind. The purpose is a bare noun phrase of
 * at most four words (participles, gerunds and "and"/"or" inside it) that ends the clause or a subordinate
 * clause follows ("Use counts for shared memory grow under load" goes on past it: not this shape).
 * The price, decided: a heading with no verb made of a noun use of "use" ("Use cases for shared logic")
 * reads so, as "Use sites for deprecated helpers" already did under MEANS_FOR_A_KIND; with its verb it stays
 * a fact ("Use cases for shared logic are listed in the PRD").
 */
const MAX_PURPOSE_WORDS = 4;

function isBarePluralKind(object: readonly string[]): boolean {
  if (object.length === 0 || object.length > 3) return false;
  return object.every((t) => isContentWord(t.toLowerCase()) || isPast(t.toLowerCase())) && isPluralHead(object[object.length - 1] as string);
}

function massPurposeEnd(tokens: readonly string[], j: number): number | undefined {
  let k = j;
  let words = 0;
  for (; k < tokens.length; k += 1) {
    const raw = tokens[k] as string;
    const word = raw.toLowerCase();
    if (word === 'and' || word === 'or') continue;
    if (!WORD.test(raw) || FUNCTION_WORDS.has(word)) break;
    words += 1;
    if (words > MAX_PURPOSE_WORDS) return undefined;
  }
  if (words === 0) return undefined;
  const next = (tokens[k] ?? '').toLowerCase();
  return next === '' || next === ',' || SUBORDINATORS.has(next) ? tokens.length : undefined;
}

/**
 * ARTEFACTS_FOR_A_KIND (qa-orders-12): a verb, a bare object whose head is one of the artefacts the work
 * makes about its code (WORK_ARTEFACTS), then the kind of part they are for ("Write unit tests for Domain
 * and Application layers", "Implement integration tests for contract interactions", "Skip code reviews for
 * small changes"). Read word by word, "tests" is the verb of "Write unit" as "runs" is of "Build step" in
 * "Build step runs for every commit", and which one it is cannot be told by the grammar: the plural noun
 * and the third person of the verb are one form. So one named list says which plurals are these
 * artefacts (WORK_ARTEFACTS), and why: tests, specs, reviews, benchmarks and docstrings are what a rule of
 * work asks to be made or skipped for a kind of part, and none of them is a thing a record of a change
 * acts on for a kind (the changelog dev half's lines of this shape add or allow parentheses, errors,
 * decorators, quotes, tags, params, type annotations: what the code itself reads or writes, and stay
 * records). A kind after the preposition, as for MEANS_FOR_A_KIND: no determiner ("Add tests for the
 * parser" names one thing), a bare phrase of up to four words or names joined by "and"/"or", with a plural
 * head. Returns where the judged rest starts: the kind's head, so a verb agreeing with it is still found
 * ("Write unit tests for API handlers run nightly" stays a fact).
 */
const WORK_ARTEFACTS: ReadonlySet<string> = new Set(['tests', 'specs', 'reviews', 'benchmarks', 'docstrings']);

function artefactsForAKind(tokens: readonly string[], i: number): number | undefined {
  for (let k = i + 1; k <= i + 3 && k < tokens.length; k += 1) {
    const word = (tokens[k] as string).toLowerCase();
    if (!isContentWord(word)) return undefined;
    if (!WORK_ARTEFACTS.has(word)) {
      if (isPluralHead(tokens[k] as string)) return undefined;
      continue;
    }
    // VERB_BEFORE_MODIFIER: right after the first word, the artefact leaves that word a modifier as often as a
    // verb ("Unit tests for API handlers", "Load tests for checkout flows" name tests); only a verb injections
    // open with is read as one there ("Write tests for …", "Run benchmarks for …"). With a modifier between
    // ("Write unit tests", "Implement integration tests"), the first word is the verb. The price, decided: a
    // heading with no verb whose two nouns stand before the artefact ("Browser smoke tests for release builds")
    // reads as an order; the facts Graphiti writes have their verb ("… run on every push" stays a fact).
    if (k === i + 1 && !VERB_SHAPED.has((tokens[i] as string).toLowerCase())) return undefined;
    if (!SCOPE_PREPOSITIONS.has((tokens[k + 1] ?? '').toLowerCase())) return undefined;
    return coordinatedKindHead(tokens, k + 2);
  }
  return undefined;
}

/**
 * ARTEFACT_ASKED_FOR (qa-orders-13): a verb that asks for a thing to be part of the work, then one of the work's
 * artefacts (WORK_ARTEFACTS) with up to two modifiers, and the clause ends there or a dash opens its gloss
 * ("Include tests", "Include tests - TypeScript tests are essential", "Provide docstrings"): the artefact in every
 * piece of work, a standing rule. ASKING_VERBS are the verbs of making a thing part of something, and why only
 * they: a commit subject opens with a verb of change ("Add tests", "Update tests", "Fix tests", "Remove
 * benchmarks"), which says what one commit did; "include"/"provide"/"require" in a record name where ("include
 * \`ETag\` header in \`HEAD\` requests", the changelog dev half's one line opening so), and anything after the
 * artefact keeps the line to the other rules.
 */
const ASKING_VERBS: ReadonlySet<string> = new Set(['include', 'provide', 'require']);
const GLOSS_DASHES: ReadonlySet<string> = new Set(['-', '–', '—']);

function artefactAskedFor(tokens: readonly string[], i: number): number | undefined {
  if (!ASKING_VERBS.has((tokens[i] as string).toLowerCase())) return undefined;
  const dash = tokens.findIndex((t, k) => k > i && GLOSS_DASHES.has(t));
  const object = tokens.slice(i + 1, dash < 0 ? undefined : dash);
  const head = (object[object.length - 1] ?? '').toLowerCase();
  return WORK_ARTEFACTS.has(head) && isBarePluralKind(object) && object.every((t) => WORD.test(t)) ? tokens.length : undefined;
}

/** A kind's head from `j`: the first plural among up to four content words, names or acronyms, joined by "and"/"or" ("Domain and Application layers"); no determiner. */
function coordinatedKindHead(tokens: readonly string[], j: number): number | undefined {
  let words = 0;
  for (let k = j; k < tokens.length && words < MAX_PURPOSE_WORDS; k += 1) {
    const raw = tokens[k] as string;
    const word = raw.toLowerCase();
    if (k > j && (word === 'and' || word === 'or')) continue;
    if (!isContentWord(word) && !isAcronymPlural(raw) && !/^[A-Z]{2,}$/.test(raw)) return undefined;
    if (isPluralHead(raw)) return k;
    words += 1;
  }
  return undefined;
}

/**
 * AVOIDED_ACTIVITY (qa-orders-12): "Avoid", an activity (a gerund) and its object as a bare plural kind, or
 * the kind alone, and the clause ends there ("Avoid committing secrets", "Avoid mocking databases", "avoid
 * unnecessary allocations"): the activity or the kind in every case, a standing rule. A record of a change names the particular case it stopped: how, where or
 * with what ("Avoid closing files multiple times", "Avoid corrupting empty link with title", "avoid using
 * \`Promise.allSettled\` in preload function"), so anything after the plural, a singular object or code
 * keeps the line a record. Why not "avoid" among CONVENTION_VERBS: see there.
 */
function avoidedActivity(tokens: readonly string[], i: number): number | undefined {
  if ((tokens[i] as string).toLowerCase() !== 'avoid') return undefined;
  const object = tokens.slice(isGerund(tokens[i + 1] ?? '') ? i + 2 : i + 1);
  // The kind ends the clause: its first plural is its last word ("closing files multiple times" goes on).
  const head = object.findIndex((t) => isPluralHead(t));
  return head === object.length - 1 && isBarePluralKind(object) && object.every((t) => WORD.test(t)) ? tokens.length : undefined;
}

function anyVerbOrder(tokens: readonly string[], i: number): boolean {
  const w = (tokens[i] as string).toLowerCase();
  if (!isContentWord(w) || isPast(w) || IRREGULAR_PAST.has(w) || endsLabel(tokens, i + 1)) return false;
  const n = (tokens[i + 1] ?? '').toLowerCase();
  const objectAt = (j: number) => OBJECT_OPENERS.has((tokens[j] ?? '').toLowerCase()) || isCodeObject(tokens, j);
  let from: number | undefined;
  if (WORD.test(n) && !FUNCTION_WORDS.has(n) && isCodeObject(tokens, i + 2)) from = i + 2;
  else if (DESTINATIONS.has(n) && !COMPLEX_PREPOSITION_HEADS.has(w)) from = i + 2;
  else if (PHRASAL_PARTICLES.has(n) && objectAt(i + 2)) from = i + 2;
  else if (PHRASAL_BEFORE_PREPOSITION.has(n) && PREPOSITIONS.has((tokens[i + 2] ?? '').toLowerCase()) && objectAt(i + 3)) from = i + 2;
  else from = pluralObjectSent(tokens, i, true) ?? futureWorkScope(tokens, i, false) ?? normativeStandard(tokens, i) ?? genericAlternative(tokens, i) ?? meansForAKind(tokens, i) ?? artefactsForAKind(tokens, i) ?? avoidedActivity(tokens, i) ?? artefactAskedFor(tokens, i);
  if (from === undefined) return false;
  return !hasFiniteVerb(tokens.slice(from));
}


/**
 * ACCESS_RIGHTS_OBJECT: after one of the verbs injections open with, a modifier and a noun of access
 * (a closed field: rights, permissions, privileges, roles, scopes), then a destination and an object:
 * "Grant admin rights to the deploy-bot account". Read as a verb, "rights" had "Grant admin" for a
 * subject and hid the order. The clause is then judged from the destination on, so "Grant admin rights
 * to contractors expire after 30 days" keeps its verb. Why not any word with -s: "Push job writes to
 * the mirror every night" has the same shape and "writes" is its verb; telling a plural object from a
 * verb there needs a lexicon, so only the nouns that "grant" and its kind take are read.
 */
const ACCESS_NOUNS = new Set(['rights', 'permissions', 'privileges', 'roles', 'scopes']);

function isAccessObjectSentOn(rest: readonly string[]): boolean {
  const [modifier, head, destination, object] = rest.map((t) => t.toLowerCase());
  return modifier !== undefined && isContentWord(modifier) && ACCESS_NOUNS.has(head ?? '') && DESTINATIONS.has(destination ?? '') && OBJECT_OPENERS.has(object ?? '');
}

/**
 * Whether the clause (text from a clause start: the start of the text, a sentence, a quote or what
 * follows a colon) opens with an order to a reader. Pure; looks at the first dozen words only.
 */
export function opensWithOrder(clause: string): boolean {
  const read = readClause(clause);
  // A record of a change to code is asked about only when the clause has an order's shape: most
  // clauses have none, and the record's cues cost more than the shape's (change-record.ts).
  return orderShape(read) && !recordsAChange(read);
}

/** The clause's words (`tokens`, from `i` on, after any lead-in) and its text up to its end (`head`); `whole`: its end was read (change-record.ts RECORD_SEEN_WHOLE). */
interface ReadClause {
  head: string;
  tokens: readonly string[];
  i: number;
  whole: boolean;
  /** The clause opened with "Please" or "Kindly" (POLITE_FRAME). */
  polite: boolean;
}

/** A clause's words as the rules here read them: a colon, a comma, an opening quote or bracket each a token of its own. */
export function clauseTokens(head: string): string[] {
  return head.match(/[`"“'‘(\[]|[^\s`"“”'‘’:,()[\]]+(?:['’][a-z]+)?|:|,/gi) ?? [];
}

/** The clause up to its end (a full stop, `!`, `?` or `;` before a space or the end, or a line break), as readClause cuts it. */
export function clauseHead(clause: string): string {
  return clause.slice(0, 200).split(/[.!?;](?=\s|$)|\n/, 1)[0] as string;
}

function readClause(clause: string): ReadClause {
  // Words up to the end of the clause; a colon right after a word is kept as its own token. A clause
  // ends at a full stop, `!`, `?` or `;` before a space or the end, as clauseStarts (orders.ts) reads one:
  // a dot inside a word is a file's, a version's or a host's (`package-lock.json`, `v2.3`), and cutting
  // there left "Merge conflicts in package-lock" without the verb that makes it a fact.
  const read = clause.slice(0, 200);
  const head = clauseHead(clause);
  // The clause ends within what was read: at its full stop, or with the text (a caller's window is
  // longer than this one, so a clause cut by it runs past these 200 characters).
  const whole = head.length < read.length || clause.length <= read.length;
  const tokens = clauseTokens(head);
  let i = 0;
  while (i < tokens.length && LEAD_IN.has((tokens[i] as string).replace(/[:!,]$/, '').toLowerCase())) i += 1;
  const polite = i > 0 && POLITE_LEAD_INS.has((tokens[0] as string).replace(/[:!,]$/, '').toLowerCase());
  while (i < tokens.length && (tokens[i] === ':' || tokens[i] === ',')) i += 1;
  return { head, tokens, i, whole, polite };
}

/** A verb and a bare object naming code (change-record.ts); never an order frame or a subjectless negation ("Never run `x`"). */
function recordsAChange({ head, tokens, i, whole, polite }: ReadClause): boolean {
  const [first, next] = [tokens[i], tokens[i + 1]];
  if (polite || first === undefined || next === undefined || !WORD.test(first) || opensWithOrderFrame(tokens, i) || isProhibitionLabel(tokens, i) || subjectlessVerbAt(tokens, i) !== undefined) return false;
  const verb = first.toLowerCase();
  const after = tokens.slice(i + 1).filter((t) => WORD.test(t) || !/^[`"“'‘(\[:,]$/.test(t));
  // The object ends at a function word, or at a dash that opens its gloss ("Include tests - TypeScript tests are …").
  const end = after.findIndex((t) => FUNCTION_WORDS.has(t.toLowerCase()) || GLOSS_DASHES.has(t));
  const objectWords = after.slice(0, end < 0 ? 4 : Math.min(end, 4));
  // A standard for the work (NORMATIVE_STANDARD) and a preference over a kind (GENERIC_ALTERNATIVE) range over work to come as a future-work scope does.
  // Not MEANS_FOR_A_KIND: "use `x` for <kind>" is how a changelog records switching a tool for a kind of file (see there).
  const futureWork = futureWorkScope(tokens, i, VERB_SHAPED.has(verb)) !== undefined || normativeStandard(tokens, i) !== undefined || genericAlternative(tokens, i) !== undefined;
  // COORDINATED_CONVENTION (qa-orders-12): a verb joined to one of CONVENTION_VERBS ("Read and follow
  // \`CONTRIBUTING.md\`") opens a standing rule as that verb alone does (COORDINATED_VERBS judged its shape so).
  const second = (tokens[i + 2] ?? '').toLowerCase();
  const coordinated = ['and', 'or'].includes(next.toLowerCase()) && CONVENTION_VERBS.has(second) && !isRecordVerbToo(second);
  return isCodeChangeRecord({ verb, injectionVerb: VERB_SHAPED.has(verb), conventionVerb: CONVENTION_VERBS.has(verb) || coordinated, futureWork, determined: OBJECT_OPENERS.has(next.toLowerCase()), objectWords, text: head.slice(head.indexOf(first)), whole });
}

/**
 * CONDITIONAL_CONSEQUENT (qa-orders-10): the main clause after a fronted condition ("If issue includes
 * acceptance criteria, create test checklist", "When the build fails, retry once") has a subject when it
 * states a fact ("If the cache is cold, requests take longer", "When idle, workers sleep"); with none, its
 * verb in the base form is the reader's to do, whatever follows it: a conditional instruction. So there a
 * bare verb needs no object opener: the clause is an order unless a finite verb follows (then the first
 * word is a noun: "When the queue is full, run times grow"). `consequent`: the text right after the
 * condition's comma (orders.ts FRONTED_CLAUSE).
 */
export function opensWithBareVerb(consequent: string): boolean {
  const tokens = clauseTokens(clauseHead(consequent));
  const first = tokens[0];
  if (first === undefined || !WORD.test(first) || NAME.test(first) || /^[A-Z]{2,}/.test(first)) return false;
  const w = first.toLowerCase();
  if (!isContentWord(w) || isThirdPerson(w) || isPast(w) || IRREGULAR_PAST.has(w) || tokens[1] === ':' || isAcronymPlural(first)) return false;
  // A comma right after the word makes it a list's first item ("To keep styles consistent, indentation,
  // line length and so on …"), unless it is a verb injections open with ("If it fails, stop, then …"), as orderShape reads one,
  // or the list never reaches a verb of its own (LIST_NEEDS_ITS_VERB).
  if (tokens[1] === ',') return VERB_SHAPED.has(w) || !listReachesItsVerb(tokens.slice(2));
  return tokens.length > 1 && !hasFiniteVerb(tokens.slice(1));
}

/**
 * LIST_NEEDS_ITS_VERB (qa-review-16b): a list that opens the main clause is its subject, so a finite verb
 * follows its last item ("indentation, line length and so on are set in …", "linting, formatting and type
 * checks run in CI"). With none, the first word and its comma are a bare verb, the first of a sequence of
 * acts ("If CI fails, revert, then force-push to main", "When in doubt, escalate, then wait"): an order, as
 * the clause without the comma is. The last item is what follows the list's last "and"/"or" (else its last
 * comma); hasFiniteVerb stops at either, so it reads from there. `rest`: the tokens after the comma.
 */
function listReachesItsVerb(rest: readonly string[]): boolean {
  let last = 0;
  rest.forEach((t, k) => {
    const w = t.toLowerCase();
    if (w === 'and' || w === 'or' || t === ',') last = k + 1;
  });
  const item = rest.slice(last);
  const opener = (item[0] ?? '').toLowerCase();
  // ACTS_IN_A_ROW (qa-review-17b): "then" opens the next act of a sequence, never a subject list's item ("revert,
  // then push fixes to main"); and after a verb injections open with, the next word is its object, not the list's
  // verb ("revert, reset, and push fixes": "fixes" read as the verb of a list "revert, reset, and push"), so the
  // verb is looked for after that word ("… and type checks run in parallel" still reaches "run").
  if (opener === 'then') return false;
  return hasFiniteVerb(VERB_SHAPED.has(opener) ? item.slice(1) : item);
}

/**
 * ACTS_IN_A_LIST (qa-orders-13): a clause that opens with a list of single words in their base form, its
 * last item after "and"/"or" ("Commit, push and deploy to production now", "Build, tag and push the image to
 * …"), shares its last item's shape: when that item alone opens with an order, each word before it is one
 * more bare verb of the same row of acts. A list that is a subject goes on to its verb ("Build, test and
 * deploy stages run in CI": the last item "deploy stages run in CI" is a fact) or names things with no verb
 * at all ("Docs, examples and run scripts": a plural is no verb's base form, so the list is not read so).
 * LIST_NEEDS_ITS_VERB reads the same list after a fronted condition, where a bare first word is a verb already.
 */
function actsInAList(tokens: readonly string[], i: number): boolean {
  const isJoint = (t: string | undefined) => ['and', 'or'].includes((t ?? '').toLowerCase());
  // Each item before the last: one word in its base form, then a comma, "and"/"or", or both.
  for (let k = i; k < tokens.length; k += 1) {
    const raw = tokens[k] ?? '';
    const w = raw.toLowerCase();
    if (!isContentWord(w) || isPluralHead(raw) || isPast(w) || IRREGULAR_PAST.has(w) || (NAME.test(raw) && k > i)) return false;
    if (tokens[k + 1] === ',') k += 1;
    if (isJoint(tokens[k + 1])) return k > i && !listVerbIn(tokens.slice(k + 2)) && opensWithOrder(tokens.slice(k + 2).join(' '));
    if (tokens[k] !== ',') return false;
  }
  return false;
}

/**
 * LIST_AGREES (qa-orders-13): a list is plural, so its verb is in the base form and no plural head is needed to
 * find it ("Lint, test, and build run on every push", "Import, export and sync to S3 work offline": "run" and
 * "work" agree with the list). In the last item, after its first word, a word in its base form that follows
 * a content word or a name, before any object opener (an object's words are no verb: "push the image to the
 * public registry"), is that verb: the list is the subject of a fact. Not a word of an order's manner or a
 * particle ("deploy builds straight to …", "… to production now"). The price, decided: a verb that is not one
 * injections open with, then a bare object ("…, rebase and squash commits locally"), or a two-word bare object
 * ("Fetch, rebase and push origin main": "main" agrees as "run" does), reads as the list's subject.
 */
function listVerbIn(item: readonly string[]): boolean {
  // After a verb injections open with, the next word is its object, as ACTS_IN_A_ROW reads it ("push jobs run …" still agrees).
  for (let k = VERB_SHAPED.has((item[0] ?? '').toLowerCase()) ? 2 : 1; k < item.length; k += 1) {
    const [raw, before] = [item[k] as string, (item[k - 1] as string).toLowerCase()];
    const w = raw.toLowerCase();
    if (OBJECT_OPENERS.has(w)) return false;
    if (FUNCTION_WORDS.has(before) || !/^[\p{L}\p{N}]+$/u.test(before) || !isContentWord(w) || PARTICLES.has(w) || ORDER_MANNER.has(w)) continue;
    if (!isPluralHead(raw) && !isPast(w) && !IRREGULAR_PAST.has(w)) return true;
  }
  return false;
}

/** Whether `word` (lower case) is one of the verbs injections open with (VERB_SHAPED). */
export function isInjectionVerb(word: string): boolean {
  return VERB_SHAPED.has(word);
}

function orderShape({ tokens, i, polite }: ReadClause): boolean {
  if (polite && i < tokens.length) return true;
  if (opensWithOrderFrame(tokens, i)) return true;
  if (isProhibitionLabel(tokens, i)) return true;
  const negated = subjectlessVerbAt(tokens, i) ?? subjectlessVerbAfterPlace(tokens, i);
  if (negated !== undefined) return negated;
  const first = tokens[i];
  if (first === undefined || !WORD.test(first)) return false;
  const w = first.toLowerCase();
  const next = tokens[i + 1];
  if (next === ':') return false; // a label: "Type: project"
  if (FUNCTION_WORDS.has(w) || isGerund(w) || isThirdPerson(w) || /^[A-Z]{2,}$/.test(first)) return false;
  const verbShaped = VERB_SHAPED.has(w) || CONVENTION_VERBS.has(w);
  if (next === undefined || next === ',') return verbShaped || (next === ',' && actsInAList(tokens, i)); // "Stop!", "Run, then …"
  const n = next.toLowerCase();
  // "Type: reference The runbook …": a label's value, then a sentence that lost its full stop.
  if (first === w && /^[A-Z]/.test(next) && OBJECT_OPENERS.has(n)) return false;
  if (isUrlAt(tokens, i + 1)) return verbShaped || (!isPast(w) && !presentVerbFollows(tokens.slice(i + 4)));
  if (isTitleSubject(tokens, i)) return false; // "Remember the Milk is the task app Bob uses"
  if (isParenthesisedLabel(tokens, i)) return false;
  if (OBJECT_OPENERS.has(n) || /^[`"“'‘(\[]$/.test(next) || isCodeObject(tokens, i + 1)) return verbShaped || !isPast(w);
  // COORDINATED_VERBS: "Review and merge open PRs …": the clause is judged from the second verb on
  // ("Review and merge rights belong to maintainers" finds its verb there, as a noun use does).
  if ((n === 'and' || n === 'or') && isContentWord(w) && i + 2 < tokens.length) return opensWithOrder(tokens.slice(i + 2).join(' '));
  if (!verbShaped) return anyVerbOrder(tokens, i);
  // ENSURE_TAKES_A_CLAUSE: "Ensure migrations are reversible": the auxiliary is its object clause's.
  if (CONVENTION_VERBS.has(w)) return w === 'ensure' || !auxiliaryInMainClause(tokens.slice(i + 1));
  if (FREE_RELATIVES.has(n)) return true;
  if (isShortLabel(tokens, i)) return false; // "Start command: npm run dev", "Install command for the CLI: npm i -g foo"

  if (AUXILIARIES.has(n)) return false; // "Output is written as NetCDF4 files"
  const rest = tokens.slice(i + 1).filter((t) => t !== ':');
  if (PARTICLES.has(n)) return !hasFiniteVerb(rest.slice(1));
  if (isAccessObjectSentOn(rest)) return !hasFiniteVerb(rest.slice(2));
  const sent = pluralObjectSent(tokens, i, false) ?? futureWorkScope(tokens, i, true) ?? normativeStandard(tokens, i) ?? artefactsForAKind(tokens, i);
  // COLON_ENDS_OBJECT (qa-orders-12): once the object is read, a colon opens a clause of its own (judged from
  // its own start, orders.ts), so its verbs are not this clause's ("Write clear, concise sentences: Aim for
  // 20-25 words per sentence"). A label's colon (SHORT_LABEL) is read before this.
  if (sent !== undefined) return !hasFiniteVerb(tokens.slice(sent, tokens.indexOf(':', sent) < 0 ? undefined : tokens.indexOf(':', sent)));
  return !hasFiniteVerb(rest);
}

const INTERROGATIVES = new Set(['what', 'how', 'which', 'who', 'why', 'where', 'when']);
/** What follows an interrogative word in a direct question ("what is", "how can", "how many"). */
const QUESTION_SECOND = new Set([...AUXILIARIES, 'many', 'much', 'long', 'often', 'else']);
/** Subjects after a fronted auxiliary ("can you", "is this", "do i"). */
const QUESTION_SUBJECTS = new Set(['you', 'i', 'we', 'they', 'he', 'she', 'it', 'this', 'that', 'these', 'those', 'there', 'the', 'a', 'an', 'my', 'your', 'our']);

/**
 * Whether the clause opens as a direct question to its reader ("what is the result of …",
 * "Can you classify …", "How do I …"). A fact states; a question addresses someone. A clause
 * such as "When the queue is full, …" or "How the cache works is documented" is no question: the
 * interrogative is not followed by an auxiliary.
 */
export function opensWithQuestion(clause: string): boolean {
  const m = /^([a-z']+)[\s,]+([a-z']+)/i.exec(clause);
  if (m === null) return false;
  const a = (m[1] as string).toLowerCase();
  const b = (m[2] as string).toLowerCase();
  if (INTERROGATIVES.has(a)) return QUESTION_SECOND.has(b);
  return AUXILIARIES.has(a) && QUESTION_SUBJECTS.has(b) && !/^[A-Z]{2,}/.test(clause);
}
