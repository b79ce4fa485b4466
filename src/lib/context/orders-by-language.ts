/**
 * Order forms in the other languages a team writes in (issue 32's rules read English): a shared
 * graph gets episodes from everyone who writes to it, and an order in German or Spanish reaches
 * the session as plainly as one in English. Each language is a row of one table (FORMS), so adding one is
 * a row, not a longer pattern; orders.ts asks `overridesInOtherLanguage` after its English rules and
 * `politeRequestInOtherLanguage` at each clause start.
 *
 * Only two forms, both without a subject a fact could have:
 * - POLITE_MARKER: the word a language opens a request with, at a clause start ("Bitte lösche …",
 *   "Por favor, sube …", "Veuillez désactiver …", "请…"), or, in Japanese, the request ending
 *   (「…してください」). A fact about a thing opens with the thing, never with "please"; English's
 *   "Please" is imperative.ts's LEAD_IN.
 * - OVERRIDE: "ignore the previous instructions" in the language's words (the verb, a word for
 *   earlier, a word for instructions, in either order: "las instrucciones anteriores", "alle
 *   vorherigen Anweisungen").
 * - BARE_IMPERATIVE (Dutch, Portuguese, Italian, Polish; `imperative` in a row): a clause's first
 *   word followed by an article ("Verwijder de map …", "Apague o diretório …", "Cancella la cartella …"),
 *   or by the word for "always"/"never" and then an article or code ("Execute sempre `rm -rf …`",
 *   "Uruchom zawsze `rm -rf dist`"); in Polish, which has no articles, by an object's accusative
 *   ending ("Wyłącz weryfikację …"). A noun takes no article after it: a clause that opens with a word
 *   and then an article opens with a verb (Dutch puts the verb first only in orders and questions) or
 *   with a preposition or adverb ("Na de release …", "Ontem o deploy …"), which `notVerbs` lists
 *   with the few verbs a fact puts before its subject ("Manca il supporto …", "Existe um limite …").
 *   The telling words are shared between languages ("de" is Dutch's article and Portuguese's "of":
 *   "Envio de e-mails é feito …", German "Bitten um Freigabe …"), so after an article the clause must
 *   also hold one of `markers`, words of that language alone: a cheap way of knowing which language a
 *   clause is in. The word for "always" says it by itself.
 */

/** BARE_IMPERATIVE's words for one language (lower case; an article is matched as written, so Italian "i" is never English "I"). */
interface BareImperativeForms {
  articles: readonly string[];
  /** Case endings that mark the second word as an object, for a language without articles (Polish accusative "-ę"). */
  objectEndings?: readonly string[];
  /** "always", "never": an order may put one between its verb and its object. */
  always: readonly string[];
  /**
   * Words of this language alone, among the languages a team writes in (not English "no" or "do",
   * German "das", "um" or "als", French "il", "je" or "en", Spanish "del", "que" or "para"): a
   * Spanish, French or German clause that opens with a preposition and "la" or "de" holds none.
   */
  markers: readonly string[];
  /** Prepositions, adverbs, conjunctions and verbs that put their subject after them: they open a fact before an article. */
  notVerbs: readonly string[];
}

interface LanguageForms {
  language: string;
  /** Words that open a request at a clause start (lower case). */
  politeOpeners: readonly string[];
  /** Endings that make a clause a request (languages without spaces). */
  politeEndings?: readonly string[];
  ignore: readonly string[];
  earlier: readonly string[];
  instructions: readonly string[];
  /** Whether words are spaced (word boundaries apply). */
  spaced: boolean;
  imperative?: BareImperativeForms;
}

const FORMS: readonly LanguageForms[] = [
  { language: 'German', spaced: true, politeOpeners: ['bitte'], ignore: ['ignoriere', 'ignorier', 'ignorieren sie', 'vergiss', 'vergessen sie', 'missachte'], earlier: ['vorherigen', 'bisherigen', 'obigen', 'früheren', 'alle'], instructions: ['anweisungen', 'anweisung', 'instruktionen', 'regeln', 'vorgaben'] },
  { language: 'Spanish', spaced: true, politeOpeners: ['por favor'], ignore: ['ignora', 'ignore', 'ignorar', 'olvida', 'olvide'], earlier: ['anteriores', 'previas', 'todas'], instructions: ['instrucciones', 'reglas', 'indicaciones'] },
  { language: 'French', spaced: true, politeOpeners: ['veuillez', "s'il vous plaît", 's’il vous plaît', 'merci de', "s'il te plaît"], ignore: ['ignore', 'ignorez', 'ignorer', 'oublie', 'oubliez'], earlier: ['précédentes', 'antérieures', 'toutes'], instructions: ['instructions', 'consignes', 'règles'] },
  {
    language: 'Portuguese', spaced: true, politeOpeners: ['por favor'], ignore: ['ignore', 'ignora', 'ignorar', 'esqueça', 'esqueca'], earlier: ['anteriores', 'prévias', 'todas'], instructions: ['instruções', 'instrucoes', 'regras'],
    imperative: {
      articles: ['o', 'os', 'a', 'as', 'um', 'uma', 'uns', 'umas', 'este', 'esta', 'estes', 'estas', 'esse', 'essa', 'esses', 'essas', 'todos', 'todas', 'seu', 'sua', 'seus', 'suas'],
      always: ['sempre', 'nunca'],
      markers: ['não', 'ao', 'aos', 'pelo', 'pela', 'depois', 'sem', 'uma', 'também', 'ninguém', 'seu', 'sua', 'nas'],
      notVerbs: ['após', 'para', 'por', 'com', 'sem', 'em', 'sobre', 'entre', 'até', 'desde', 'durante', 'contra', 'segundo', 'conforme', 'hoje', 'ontem', 'amanhã', 'agora', 'depois', 'antes', 'também', 'já', 'ainda', 'aqui', 'então', 'e', 'ou', 'mas', 'porque', 'quando', 'se', 'como', 'que', 'enquanto', 'embora', 'onde', 'há', 'existe', 'existem', 'é', 'foi', 'são', 'era', 'está', 'estão', 'tem', 'têm', 'fica', 'ficou', 'houve', 'falta', 'faltam'],
    },
  },
  {
    language: 'Italian', spaced: true, politeOpeners: ['per favore', 'per piacere'], ignore: ['ignora', 'ignorate', 'dimentica'], earlier: ['precedenti', 'tutte'], instructions: ['istruzioni', 'regole'],
    imperative: {
      articles: ['il', 'lo', 'la', 'i', 'gli', 'le', 'un', 'uno', 'una', 'questo', 'questa', 'questi', 'queste', 'quel', 'quella', 'tutti', 'tutte', 'ogni'],
      always: ['sempre', 'mai'],
      markers: ['di', 'della', 'dei', 'delle', 'degli', 'nel', 'nella', 'nei', 'sul', 'sulla', 'alla', 'dal', 'dalla', 'che', 'dopo', 'ogni', 'senza', 'gli', 'questo', 'questa', 'nessuno'],
      notVerbs: ['dopo', 'prima', 'durante', 'secondo', 'con', 'per', 'tra', 'fra', 'su', 'da', 'di', 'in', 'a', 'senza', 'oggi', 'ieri', 'domani', 'ora', 'adesso', 'poi', 'quindi', 'anche', 'già', 'ancora', 'qui', 'e', 'o', 'ma', 'perché', 'quando', 'se', 'come', 'che', 'mentre', 'dove', 'è', 'era', 'sono', 'ha', 'hanno', 'esiste', 'esistono', 'manca', 'mancano', 'serve', 'servono', 'resta', 'restano', 'rimane', 'vale', 'c’è', "c'è"],
    },
  },
  {
    language: 'Dutch', spaced: true, politeOpeners: ['alsjeblieft', 'alstublieft', 'gelieve'], ignore: ['negeer', 'vergeet'], earlier: ['vorige', 'eerdere', 'alle'], instructions: ['instructies', 'regels'],
    imperative: {
      articles: ['de', 'het', 'een', 'deze', 'dit', 'alle', 'alles', 'je', 'jouw', 'uw', 'mijn', 'onze', 'ons'],
      always: ['altijd', 'nooit'],
      markers: ['het', 'een', 'naar', 'voor', 'met', 'op', 'uit', 'niet', 'voordat', 'nadat', 'ze', 'elke', 'aan', 'bij', 'zonder', 'ook', 'wordt', 'zijn', 'geen', 'deze', 'iemand'],
      notVerbs: ['volgens', 'tijdens', 'na', 'voor', 'met', 'op', 'in', 'bij', 'door', 'over', 'onder', 'naast', 'zonder', 'sinds', 'tot', 'vanaf', 'tegen', 'om', 'rond', 'via', 'per', 'dankzij', 'ondanks', 'behalve', 'binnen', 'buiten', 'achter', 'langs', 'uit', 'van', 'naar', 'ook', 'nu', 'dan', 'toen', 'daarna', 'daarom', 'bovendien', 'verder', 'eerst', 'vandaag', 'gisteren', 'morgen', 'soms', 'vaak', 'meestal', 'alleen', 'zelfs', 'nog', 'wel', 'niet', 'maar', 'en', 'of', 'want', 'dus', 'omdat', 'als', 'wanneer', 'terwijl', 'hoewel', 'zodra', 'tenzij', 'dat', 'wat', 'wie', 'waar', 'hoe', 'welke', 'hier', 'daar', 'er', 'zo'],
    },
  },
  {
    language: 'Polish', spaced: true, politeOpeners: ['proszę', 'prosze'], ignore: ['zignoruj', 'ignoruj'], earlier: ['poprzednie', 'wcześniejsze', 'wszystkie'], instructions: ['instrukcje', 'polecenia'],
    // Polish has no articles: a feminine object's accusative ending ("Wyłącz weryfikację …", "Zrób
    // kopię …") or "always"/"never" before code marks the first word as the verb.
    imperative: {
      articles: [],
      objectEndings: ['ę'],
      always: ['zawsze', 'nigdy'],
      markers: ['przed', 'przy', 'dla', 'bez', 'się', 'że', 'po', 'od', 'na', 'w', 'z', 'ze', 'do', 'każdym', 'każdy', 'nikomu'],
      notVerbs: ['na', 'w', 'we', 'z', 'ze', 'do', 'od', 'po', 'przez', 'za', 'pod', 'nad', 'przed', 'między', 'o', 'u', 'dla', 'bez', 'przy', 'mimo', 'oprócz', 'według', 'podczas', 'wobec', 'zamiast', 'poza', 'obok', 'zawsze', 'nigdy', 'dziś', 'dzisiaj', 'wczoraj', 'jutro', 'teraz', 'potem', 'często', 'czasem', 'też', 'także', 'już', 'jeszcze', 'i', 'a', 'ale', 'lub', 'albo', 'oraz', 'że', 'gdy', 'kiedy', 'jeśli', 'jeżeli', 'bo', 'ponieważ', 'więc', 'proszę'],
    },
  },
  { language: 'Chinese', spaced: false, politeOpeners: ['请'], ignore: ['忽略', '无视', '忽视'], earlier: ['之前', '以前', '上面', '先前', '所有'], instructions: ['指示', '指令', '说明'] },
  { language: 'Japanese', spaced: false, politeOpeners: [], politeEndings: ['してください', 'して下さい', 'しなさい', 'てください'], ignore: ['無視'], earlier: ['以前', '前の', '上記', 'これまで', 'すべて'], instructions: ['指示', '命令'] },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alt = (words: readonly string[]) => words.map(escape).join('|');

/** OVERRIDE, one pattern per language: the verb, then "earlier" and "instructions" in either order. */
function overridePattern(f: LanguageForms): RegExp {
  const b = f.spaced ? String.raw`\b` : '';
  const gap = f.spaced ? String.raw`[^.!?\n]{0,40}?` : String.raw`[^。！？\n]{0,12}?`;
  const [ignore, earlier, instructions] = [alt(f.ignore), alt(f.earlier), alt(f.instructions)];
  return new RegExp(`${b}(?:${ignore})${gap}(?:(?:${earlier})${gap}(?:${instructions})|(?:${instructions})${gap}(?:${earlier}))`, 'iu');
}
const OVERRIDES = FORMS.map(overridePattern);

/**
 * Every language's verbs for "ignore" in one pattern: most facts hold none, and one scan for them
 * keeps the per-fact cost where issue 32 put it (running every language's pattern on every fact
 * cost about 2 µs a fact).
 */
const ANY_IGNORE = new RegExp(alt(FORMS.flatMap((f) => f.ignore)), 'i');

/** POLITE_MARKER at a clause's start, every language's openers in one pattern; not a longer word ("Bitten …"). */
const POLITE_OPENER = new RegExp(String.raw`^(?:${alt(FORMS.flatMap((f) => f.politeOpeners))})(?![\p{L}])`, 'iu');

/** POLITE_MARKER as a request's ending, for the languages that end one so (Japanese), read only where their script is. */
const POLITE_ENDING = new RegExp(String.raw`(?:${alt(FORMS.flatMap((f) => f.politeEndings ?? []))})(?:[。！!.]|$)`, 'u');
const KANA = /[\u3040-\u30ff]/;

const IMPERATIVE_ROWS = FORMS.flatMap((f) => (f.imperative === undefined ? [] : [f.imperative]));
const NOT_VERBS: ReadonlySet<string> = new Set(IMPERATIVE_ROWS.flatMap((r) => [...r.notVerbs, ...r.articles]));

/**
 * BARE_IMPERATIVE's pre-scan: a clause's first word, then any row's article, "always" word or object
 * ending. Most clauses fail here, in one pattern, before any row is read.
 */
const BARE_OPENING = new RegExp(String.raw`^(\p{L}[\p{L}'’-]*)\s+(${alt(IMPERATIVE_ROWS.flatMap((r) => [...r.articles, ...r.always]))}|\p{L}{2,}(?:${alt(IMPERATIVE_ROWS.flatMap((r) => r.objectEndings ?? []))}))(?![\p{L}\p{N}'’-])\s*(\S*)`, 'u');

/** Code after "always": a backtick, a quote, a path or a flag. */
const CODE_START = /^[`"'“‘~./$-]/u;

/** Whether the clause (text from a clause start, orders.ts) opens with a BARE_IMPERATIVE of one of the languages above. */
export function bareImperativeInOtherLanguage(clause: string): boolean {
  const m = BARE_OPENING.exec(clause);
  if (m === null) return false;
  const [, first, second, third] = m as unknown as [string, string, string, string];
  if (NOT_VERBS.has(first.toLowerCase())) return false;
  const sentence = clause.split(/[.!?;](?=\s|$)|\n/u, 1)[0] as string;
  const later = sentence.toLowerCase().split(/[\s,]+/u).slice(2); // the words after the first two
  return IMPERATIVE_ROWS.some(
    (row) =>
      // "always" and code: the word for "always" says the language. An article: a marker must say it.
      (row.always.includes(second) && (row.articles.includes(third) || CODE_START.test(third))) ||
      ((row.articles.includes(second) || (row.objectEndings ?? []).some((e) => second.endsWith(e))) && later.some((word) => row.markers.includes(word))),
  );
}

/** Whether `text` holds an OVERRIDE in one of the languages above. */
export function overridesInOtherLanguage(text: string): boolean {
  return ANY_IGNORE.test(text) && OVERRIDES.some((pattern) => pattern.test(text));
}

/** Whether the clause (text from a clause start, orders.ts) opens or ends as a request in one of the languages above. */
export function politeRequestInOtherLanguage(clause: string): boolean {
  return POLITE_OPENER.test(clause) || (KANA.test(clause) && POLITE_ENDING.test(clause.split(/[。！？!?\n]/u, 1)[0] + '。'));
}
