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
 * Bare imperatives ("Verwijder de map dist …", "Execute o script …") are not read: telling a verb
 * from a noun there needs each language's morphology.
 */

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
}

const FORMS: readonly LanguageForms[] = [
  { language: 'German', spaced: true, politeOpeners: ['bitte'], ignore: ['ignoriere', 'ignorier', 'ignorieren sie', 'vergiss', 'vergessen sie', 'missachte'], earlier: ['vorherigen', 'bisherigen', 'obigen', 'früheren', 'alle'], instructions: ['anweisungen', 'anweisung', 'instruktionen', 'regeln', 'vorgaben'] },
  { language: 'Spanish', spaced: true, politeOpeners: ['por favor'], ignore: ['ignora', 'ignore', 'ignorar', 'olvida', 'olvide'], earlier: ['anteriores', 'previas', 'todas'], instructions: ['instrucciones', 'reglas', 'indicaciones'] },
  { language: 'French', spaced: true, politeOpeners: ['veuillez', "s'il vous plaît", 's’il vous plaît', 'merci de', "s'il te plaît"], ignore: ['ignore', 'ignorez', 'ignorer', 'oublie', 'oubliez'], earlier: ['précédentes', 'antérieures', 'toutes'], instructions: ['instructions', 'consignes', 'règles'] },
  { language: 'Portuguese', spaced: true, politeOpeners: ['por favor'], ignore: ['ignore', 'ignora', 'ignorar', 'esqueça', 'esqueca'], earlier: ['anteriores', 'prévias', 'todas'], instructions: ['instruções', 'instrucoes', 'regras'] },
  { language: 'Italian', spaced: true, politeOpeners: ['per favore', 'per piacere'], ignore: ['ignora', 'ignorate', 'dimentica'], earlier: ['precedenti', 'tutte'], instructions: ['istruzioni', 'regole'] },
  { language: 'Dutch', spaced: true, politeOpeners: ['alsjeblieft', 'alstublieft', 'gelieve'], ignore: ['negeer', 'vergeet'], earlier: ['vorige', 'eerdere', 'alle'], instructions: ['instructies', 'regels'] },
  { language: 'Polish', spaced: true, politeOpeners: ['proszę', 'prosze'], ignore: ['zignoruj', 'ignoruj'], earlier: ['poprzednie', 'wcześniejsze', 'wszystkie'], instructions: ['instrukcje', 'polecenia'] },
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

/** Whether `text` holds an OVERRIDE in one of the languages above. */
export function overridesInOtherLanguage(text: string): boolean {
  return ANY_IGNORE.test(text) && OVERRIDES.some((pattern) => pattern.test(text));
}

/** Whether the clause (text from a clause start, orders.ts) opens or ends as a request in one of the languages above. */
export function politeRequestInOtherLanguage(clause: string): boolean {
  return POLITE_OPENER.test(clause) || (KANA.test(clause) && POLITE_ENDING.test(clause.split(/[。！？!?\n]/u, 1)[0] + '。'));
}
