/**
 * Order forms in the other languages a team writes in (issue 32's rules read English): a shared
 * graph gets episodes from everyone who writes to it, and an order in German or Spanish reaches
 * the session as plainly as one in English. Each language is a row of one table (FORMS), so adding one is
 * a row, not a longer pattern; orders.ts asks `overridesInOtherLanguage` and `obligesAssistantInOtherLanguage`
 * after its English rules, and `politeRequestInOtherLanguage`, `bareImperativeInOtherLanguage` and
 * `negatedImperativeInOtherLanguage` at each clause start.
 *
 * The forms, each without a subject a fact could have, or with the assistant as the one obliged:
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
 *   clause is in. The word for "always" says it by itself. NAMED_TASK: a copula right after the
 *   object ("Cancella i backup è un'attività pianificata …", "Apague os logs é o nome do job") makes
 *   the verb and its object a task's name, the subject of a fact. POSTVERBAL_SUBJECT (Spanish, whose
 *   facts may put the subject after verb and object: "Revisa los pull requests el equipo de
 *   plataforma"): a bare definite article after the object's noun opens that subject.
 * - ASSISTANT_OBLIGED (qa-orders-6): the assistant named, then a modal of obligation ("L'assistant
 *   doit …", "De assistent moet …"): English's "the assistant must" in orders.ts, in these languages.
 * - NEGATED_IMPERATIVE (qa-orders-6): a clause that opens with the language's "not" and a verb in a
 *   form only an order takes: Spanish "No" + the second person ("No borres …", "No menciones …"),
 *   Italian "Non" + the infinitive ("Non dire …"), Portuguese "Não" + the subjunctive of an -ar verb
 *   or an irregular one ("Não conte …", "Não faça …"), Polish "Nie" + the imperative or the
 *   infinitive ("Nie mów …", "Nie usuwać …"), French "Ne"/"N'" + a verb + "pas"/"jamais"/…, or "Ne
 *   pas" + an infinitive. A fact's negated verb has its subject before it ("O usuário não tem …");
 *   Spanish, Italian, Portuguese and Polish drop subjects, but then the verb is in the third person
 *   ("No funciona en Windows", "Non supporta IPv6", "Nie działa"), a form these endings exclude.
 *   Portuguese's -er/-ir verbs share their subjunctive's ending with -ar verbs' indicative ("Não
 *   funciona" / "Não escreva"), so only -e (-ar subjunctive) and the irregular forms count, and -e
 *   also needs a marker of the language ("Não existe suporte" stays).
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
  /** NAMED_TASK: the copula; right after the object it makes "verb + object" a task's name, the subject of a fact. */
  copulas: readonly string[];
  /** POSTVERBAL_SUBJECT: definite articles that open a subject put after verb and object (Spanish). */
  subjectArticles?: readonly string[];
  /**
   * THIRD_PERSON_OPENING: endings of the third person that this language's imperative never has, so a
   * first word with one is the verb of a summary that dropped its subject ("Billing: Verwaltet die
   * Rechnungen …", "Contient les scripts …", "Contiene i file …"), not an order.
   */
  thirdPersonEndings?: readonly string[];
  /**
   * SECOND_PERSON_FORM (qa-orders-7): endings only the second person plural has (French "-ez":
   * "Supprimez les journaux …", "Envoyez les jetons …"). Without its subject ("vous") such a verb is an
   * order, and no fact or summary speaks of "vous": with an article after it, no marker is needed.
   */
  secondPersonEndings?: readonly string[];
  /**
   * TU_IMPERATIVE_FORM (qa-orders-13): the informal order's forms that differ from the third person (Spanish's
   * irregular "pon", "ten", "ven" beside "pone", "tiene", "viene", not "di", which is Italian's "of" in notVerbs;
   * French's "-s" of -ir/-re/-oir verbs, "fais", "mets", "prends", "écris", beside "fait", "met", "prend",
   * "écrit"; the regular "Supprime", "Ejecuta" are the third person's form, SUMMARY_DROPS_SUBJECT's), so they say "you" without a subject, as
   * SECOND_PERSON_FORM's "-ez" does: before one of `articles` (those that open an object; not a genitive's "des":
   * "Droits des utilisateurs …" is a noun's phrase), no marker is needed. `words`: whole forms; `endings`: the
   * form's endings (French: "-is", "-ds", "-ts", "-rs"; the adverbs ending so are in `notVerbs`).
   */
  tuForms?: { words?: readonly string[]; endings?: readonly string[]; articles: readonly string[] };
}

/** NEGATED_IMPERATIVE's words for one language. */
interface NegatedImperativeForms {
  /** The word for "not" (or "never") that opens the order, lower case. */
  negations: readonly string[];
  /** Whether the word after the negation (and the words after it) has a form only an order takes. */
  orderForm: (word: string, after: readonly string[]) => boolean;
  /** When set, the form needs one of these words later in the sentence as well (a form shared with a fact's verb); `at`: the word's place after the verb. */
  needsMarker?: (word: string, at: number) => boolean;
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
  negated?: NegatedImperativeForms;
  /** ASSISTANT_OBLIGED: the assistant's names with their article, and the modal verbs that oblige it ("L'assistant doit …"). */
  assistant?: { names: readonly string[]; obliged: readonly string[] };
  /** IMPERATIVE_ONLY_ENDING: endings only the imperative has among the words that open a clause (lower case; see below). */
  imperativeOnlyEndings?: readonly string[];
  /** IMPERATIVE_ONLY_WORD: whole words that are only an imperative (lower case): an order whatever follows. */
  imperativeOnlyWords?: readonly string[];
  /** FRONTED_CONDITION: the words a fronted condition opens with ("если", "wenn", "si"; lower case). */
  conditions?: readonly string[];
}

/** Words of Spanish alone (not Portuguese, Italian, French or English): NEGATED_IMPERATIVE's -s form needs one ("No tests run …" is English). */
const SPANISH_MARKERS: ReadonlySet<string> = new Set(['los', 'las', 'el', 'del', 'al', 'tus', 'tu', 'estas', 'estos', 'esta', 'este', 'nada', 'nadie', 'sin', 'en', 'cada', 'nunca', 'y', 'ni']);
/**
 * Words that point a Portuguese clause at someone or at nothing ("ao usuário", "nada", "sem …"):
 * NEGATED_IMPERATIVE's -e form needs one, since -er/-ir verbs end so in the indicative ("Não existe
 * o arquivo" holds none; "Não permite acesso sem VPN" is the price).
 */
const PORTUGUESE_MARKERS: ReadonlySet<string> = new Set(['ao', 'aos', 'à', 'às', 'nada', 'ninguém', 'nenhum', 'nenhuma', 'sem', 'nunca', 'isso', 'isto', 'seu', 'sua', 'seus', 'suas', 'usuário', 'usuária']);
/**
 * DEFINITE_OBJECT (qa-orders-7): a definite article right after the -e form ("Não mostre os avisos de
 * segurança") marks an order as the words above do: the subjectless facts this form shares with -er/-ir
 * verbs negate existence, ability or need (the list below), which take no definite object there. The
 * price: a rarer indicative with one ("Não recebe os e-mails …" as a summary).
 */
const PORTUGUESE_DEFINITE: ReadonlySet<string> = new Set(['o', 'os', 'a', 'as']);
/** The -er/-ir indicatives a subjectless Portuguese fact most often negates (existence, ability, need): "Não existe suporte ao usuário anônimo". */
const PORTUGUESE_INDICATIVE_IN_E: ReadonlySet<string> = new Set(['existe', 'pode', 'deve', 'permite', 'exige', 'requer', 'sabe', 'consegue', 'depende', 'vale', 'cabe', 'inclui', 'atende', 'resolve']);
/** Portuguese's irregular subjunctives an order takes ("Não faça", "Não diga", "Não tenha", "Não ponha", "Não seja"): none is an indicative. */
const PORTUGUESE_IRREGULAR_SUBJUNCTIVE = /^(?:faça|façam|diga|digam|tenha|tenham|ponha|ponham|traga|tragam|seja|sejam|esteja|estejam|veja|vejam|venha|venham|vá|dê|saiba|queira)$/u;
/** Polish words after "nie" that end in a consonant and are no imperative (prepositions, pronouns: "Nie od razu", "Nie dla wszystkich"). */
const POLISH_NOT_IMPERATIVE: ReadonlySet<string> = new Set(['przez', 'od', 'pod', 'nad', 'przed', 'bez', 'wszystkich', 'tych', 'ich', 'jej', 'jego', 'nikt', 'już', 'wiadomo', 'tylko']);
/** A word of Polish: its letters, or a preposition German "nie" ("never") does not take. */
const POLISH_WORD = (w: string): boolean => /[ąćęłńóśźż]/u.test(w) || ['o', 'w', 'z', 'na', 'do', 'bez', 'po', 'od', 'dla', 'nic', 'nikomu', 'nigdy', 'pliki', 'plików'].includes(w);

/** French negation's second part. */
const FRENCH_NEGATION_PARTS: ReadonlySet<string> = new Set(['pas', 'jamais', 'rien', 'plus', 'personne', 'guère']);

const FORMS: readonly LanguageForms[] = [
  {
    language: 'German', spaced: true, conditions: ['wenn', 'falls', 'sobald'], politeOpeners: ['bitte'], ignore: ['ignoriere', 'ignorier', 'ignorieren sie', 'vergiss', 'vergessen sie', 'missachte'], earlier: ['vorherigen', 'bisherigen', 'obigen', 'früheren', 'alle'], instructions: ['anweisungen', 'anweisung', 'instruktionen', 'regeln', 'vorgaben'], assistant: { names: ['der assistent', 'die ki', 'der agent', 'das modell', 'claude'], obliged: ['soll', 'muss', 'darf nicht', 'darf niemals', 'hat zu', 'sollte'] },
    // German puts the verb second in a statement: a clause that opens with a verb and its object is an
    // order (or a question, which has its "?"). Not "der"/"des": after a noun they are genitives
    // ("Zugangsdaten der Kunden liegen …").
    imperative: {
      articles: ['den', 'dem', 'die', 'das', 'ein', 'eine', 'einen', 'einem', 'alle', 'allen', 'keine', 'keinen', 'diese', 'diesen', 'dieses', 'jede', 'jeden', 'jedes', 'nichts', 'niemandem'],
      always: ['immer', 'nie', 'niemals'],
      markers: ['im', 'dem', 'den', 'einen', 'und', 'mit', 'für', 'nach', 'bei', 'von', 'vom', 'zum', 'zur', 'ohne', 'nichts', 'nicht', 'niemals', 'keine', 'diesen', 'dieser', 'jeden', 'auf', 'aus', 'des', 'der'],
      notVerbs: ['im', 'am', 'an', 'auf', 'aus', 'bei', 'bis', 'durch', 'für', 'gegen', 'hinter', 'mit', 'nach', 'neben', 'ohne', 'seit', 'über', 'um', 'unter', 'von', 'vor', 'während', 'wegen', 'trotz', 'zu', 'zum', 'zur', 'zwischen', 'laut', 'ab', 'heute', 'gestern', 'morgen', 'jetzt', 'dann', 'danach', 'außerdem', 'auch', 'nur', 'oft', 'dort', 'hier', 'und', 'oder', 'aber', 'denn', 'weil', 'wenn', 'als', 'dass', 'ob', 'wo', 'wie', 'der', 'des', 'er', 'sie', 'es', 'wir', 'ihr', 'man', 'gibt', 'ist', 'sind', 'war', 'waren', 'hat', 'haben', 'wird', 'werden', 'fehlt', 'fehlen'],
      copulas: ['ist', 'sind', 'war', 'waren'],
      // "verwaltet", "enthält", "nutzt"; the imperative is "verwalte", "lösche", "sag" (the plural "löscht" is the price).
      thirdPersonEndings: ['t'],
    },
  },
  {
    language: 'Spanish', spaced: true, conditions: ['si', 'cuando'], politeOpeners: ['por favor'], ignore: ['ignora', 'ignore', 'ignorar', 'olvida', 'olvide'], earlier: ['anteriores', 'previas', 'todas'], instructions: ['instrucciones', 'reglas', 'indicaciones'], assistant: { names: ['el asistente', 'la ia', 'el agente', 'claude'], obliged: ['debe', 'tiene que', 'deberá', 'debería', 'no debe', 'ha de'] },
    imperative: {
      articles: ['el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas', 'todos', 'todas', 'este', 'esta', 'estos', 'estas', 'tus', 'sus', 'mis', 'nuestros', 'nuestras'],
      always: ['siempre', 'nunca'],
      // SUMMARY_DROPS_SUBJECT: Spanish's second-person order is its third person ("Contiene las claves …"
      // opens a summary that dropped its subject), so the marker must point the clause at a reader:
      // the reader's own words, "nobody", "without", "always", "directly", not any Spanish word.
      markers: ['sin', 'nada', 'nadie', 'tus', 'tu', 'nunca', 'siempre', 'directamente', 'inmediatamente', 'ahora'],
      notVerbs: ['según', 'tras', 'desde', 'durante', 'hasta', 'hacia', 'bajo', 'ante', 'sobre', 'entre', 'contra', 'para', 'por', 'con', 'sin', 'en', 'de', 'del', 'al', 'hoy', 'ayer', 'mañana', 'ahora', 'después', 'antes', 'también', 'ya', 'aún', 'todavía', 'aquí', 'entonces', 'y', 'o', 'pero', 'porque', 'cuando', 'si', 'como', 'que', 'mientras', 'aunque', 'donde', 'hay', 'es', 'son', 'fue', 'era', 'está', 'están', 'existe', 'existen', 'falta', 'faltan', 'queda', 'quedan'],
      copulas: ['es', 'son', 'era', 'fue'],
      subjectArticles: ['el', 'la', 'los', 'las'],
      tuForms: { words: ['pon', 'sal', 'ten', 'ven', 've'], articles: ['el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas', 'este', 'esta', 'estos', 'estas', 'tus', 'mis'] },
    },
    // IMPERATIVE_ONLY_WORD: hacer's informal order ("Haz push directamente a main"), no other form of any verb
    // here and no word of a team's notes ("haz de luz", a beam, is a physicist's), so nothing needs to follow it.
    imperativeOnlyWords: ['haz'],
    negated: { negations: ['no', 'nunca'], orderForm: (w) => /\p{L}{2,}[ae]s$/u.test(w), needsMarker: (w) => SPANISH_MARKERS.has(w) },
  },
  {
    language: 'French', spaced: true, conditions: ['si', 'quand', 'lorsque'], politeOpeners: ['veuillez', "s'il vous plaît", 's’il vous plaît', 'merci de', "s'il te plaît"], ignore: ['ignore', 'ignorez', 'ignorer', 'oublie', 'oubliez'], earlier: ['précédentes', 'antérieures', 'toutes'], instructions: ['instructions', 'consignes', 'règles'], assistant: { names: ["l'assistant", 'l’assistant', "l'ia", 'l’ia', "l'agent", 'l’agent', 'claude'], obliged: ['doit', 'devra', 'devrait', 'ne doit'] },
    // French states its subject: a clause that opens with a verb and an article is an order.
    imperative: {
      articles: ['le', 'la', 'les', 'un', 'une', 'des', 'ce', 'cet', 'cette', 'ces', 'tous', 'toutes', 'tes', 'vos', 'nos', 'mes', 'ton', 'ta', 'votre', 'notre'],
      always: ['toujours', 'jamais'],
      // SUMMARY_DROPS_SUBJECT, as in Spanish: an -er verb's order is its third person ("Gère les
      // sauvegardes du serveur" opens a summary), so only words that point the clause at a reader count.
      markers: ['sans', 'jamais', 'rien', 'personne', 'chaque', 'toujours', 'directement', 'immédiatement', 'tes', 'ton', 'ta', 'vos', 'votre'],
      notVerbs: ['selon', 'après', 'avant', 'pendant', 'depuis', 'avec', 'sans', 'pour', 'par', 'dans', 'en', 'sur', 'sous', 'chez', 'vers', 'entre', 'contre', 'malgré', 'dès', 'hier', 'aujourd’hui', "aujourd'hui", 'demain', 'maintenant', 'ensuite', 'puis', 'aussi', 'déjà', 'encore', 'ici', 'et', 'ou', 'mais', 'car', 'donc', 'quand', 'si', 'comme', 'que', 'lorsque', 'où', 'voici', 'voilà', 'il', 'elle', 'on', 'ils', 'elles', 'nous', 'vous', 'je', 'tu', 'de', 'du', 'au', 'aux', 'à', 'reste', 'restent', 'manque', 'manquent', 'existe', 'est', 'sont', 'assez', 'nez',
        // The adverbs that end as TU_IMPERATIVE_FORM's "-s" forms do ("Parfois les tests échouent …", "Alors le service …").
        'alors', 'lors', 'toujours', 'ailleurs', 'hors', 'parfois', 'désormais', 'jamais', 'plus', 'moins', 'très'],
      copulas: ['est', 'sont', 'était'],
      // "contient", "prend"; the imperative is "contiens", "prends" ("supprime" is both: a marker decides).
      thirdPersonEndings: ['t', 'd'],
      secondPersonEndings: ['ez'],
      tuForms: { endings: ['is', 'ds', 'ts', 'rs'], articles: ['le', 'les', 'un', 'une', 'ce', 'cet', 'cette', 'ces', 'tes', 'ton', 'ta', 'mes', 'nos', 'vos', 'votre', 'notre'] },
    },
    // French states its subject, so "ne" opening a clause opens an order: the verb, then "pas",
    // "jamais", "rien", … ("Ne supprime pas …", "Ne le dis jamais"), or "ne pas" + the infinitive.
    negated: { negations: ['ne', "n'", 'n’'], orderForm: (w, after) => [w, ...after.slice(0, 2)].some((x) => FRENCH_NEGATION_PARTS.has(x)) },
  },
  {
    language: 'Portuguese', spaced: true, conditions: ['se', 'quando'], politeOpeners: ['por favor'], ignore: ['ignore', 'ignora', 'ignorar', 'esqueça', 'esqueca'], earlier: ['anteriores', 'prévias', 'todas'], instructions: ['instruções', 'instrucoes', 'regras'], assistant: { names: ['o assistente', 'a ia', 'o agente', 'claude'], obliged: ['deve', 'precisa', 'tem que', 'deverá', 'não deve', 'nunca deve'] },
    imperative: {
      articles: ['o', 'os', 'a', 'as', 'um', 'uma', 'uns', 'umas', 'este', 'esta', 'estes', 'estas', 'esse', 'essa', 'esses', 'essas', 'todos', 'todas', 'seu', 'sua', 'seus', 'suas'],
      always: ['sempre', 'nunca'],
      markers: ['não', 'ao', 'aos', 'pelo', 'pela', 'depois', 'sem', 'uma', 'também', 'ninguém', 'seu', 'sua', 'nas'],
      notVerbs: ['após', 'para', 'por', 'com', 'sem', 'em', 'sobre', 'entre', 'até', 'desde', 'durante', 'contra', 'segundo', 'conforme', 'hoje', 'ontem', 'amanhã', 'agora', 'depois', 'antes', 'também', 'já', 'ainda', 'aqui', 'então', 'e', 'ou', 'mas', 'porque', 'quando', 'se', 'como', 'que', 'enquanto', 'embora', 'onde', 'há', 'existe', 'existem', 'é', 'foi', 'são', 'era', 'está', 'estão', 'tem', 'têm', 'fica', 'ficou', 'houve', 'falta', 'faltam'],
      copulas: ['é', 'são', 'era', 'foi'],
    },
    negated: { negations: ['não', 'nunca'], orderForm: (w) => (/\p{L}{2,}e$/u.test(w) && !PORTUGUESE_INDICATIVE_IN_E.has(w)) || PORTUGUESE_IRREGULAR_SUBJUNCTIVE.test(w), needsMarker: (w, at) => PORTUGUESE_MARKERS.has(w) || (at === 0 && PORTUGUESE_DEFINITE.has(w)) },
  },
  {
    language: 'Italian', spaced: true, conditions: ['se', 'quando'], politeOpeners: ['per favore', 'per piacere'], ignore: ['ignora', 'ignorate', 'dimentica'], earlier: ['precedenti', 'tutte'], instructions: ['istruzioni', 'regole'], assistant: { names: ["l'assistente", 'l’assistente', "l'ia", 'l’ia', "l'agente", 'l’agente', 'claude'], obliged: ['deve', 'dovrà', 'dovrebbe', 'non deve'] },
    imperative: {
      articles: ['il', 'lo', 'la', 'i', 'gli', 'le', 'un', 'uno', 'una', 'questo', 'questa', 'questi', 'queste', 'quel', 'quella', 'tutti', 'tutte', 'ogni'],
      always: ['sempre', 'mai'],
      markers: ['di', 'della', 'dei', 'delle', 'degli', 'nel', 'nella', 'nei', 'sul', 'sulla', 'alla', 'dal', 'dalla', 'che', 'dopo', 'ogni', 'senza', 'gli', 'questo', 'questa', 'nessuno'],
      notVerbs: ['dopo', 'prima', 'durante', 'secondo', 'con', 'per', 'tra', 'fra', 'su', 'da', 'di', 'in', 'a', 'senza', 'oggi', 'ieri', 'domani', 'ora', 'adesso', 'poi', 'quindi', 'anche', 'già', 'ancora', 'qui', 'e', 'o', 'ma', 'perché', 'quando', 'se', 'come', 'che', 'mentre', 'dove', 'è', 'era', 'sono', 'ha', 'hanno', 'esiste', 'esistono', 'manca', 'mancano', 'serve', 'servono', 'resta', 'restano', 'rimane', 'vale', 'c’è', "c'è"],
      copulas: ['è', 'sono', 'era', 'erano'],
      // "contiene", "esegue"; the imperative of -ere/-ire verbs ends in -i ("esegui", "scrivi").
      thirdPersonEndings: ['e'],
    },
    // The negative order of the second person is "non" + the infinitive, with or without a pronoun ("Non dirlo").
    // SECOND_PERSON_FORM: the plural order is the second person plural, "-ate", "-ete", "-ite" ("Non fate
    // domande …", "Non cancellate …"): no fact speaks of "voi". A feminine plural participle ends so too
    // ("non usate da anni"): the price.
    negated: { negations: ['non', 'mai'], orderForm: (w) => /\p{L}(?:are|ere|ire|rre|arlo|erlo|irlo|arla|erla|irla|arli|erli|irli|arle|erle|irle|argli|ergli|irgli|ate|ete|ite)$/u.test(w) },
  },
  {
    language: 'Dutch', spaced: true, conditions: ['als', 'wanneer', 'zodra'], politeOpeners: ['alsjeblieft', 'alstublieft', 'gelieve'], ignore: ['negeer', 'vergeet'], earlier: ['vorige', 'eerdere', 'alle'], instructions: ['instructies', 'regels'], assistant: { names: ['de assistent', 'de ai', 'de agent', 'claude'], obliged: ['moet', 'mag niet', 'mag nooit', 'dient', 'zal altijd'] },
    imperative: {
      // With the object pronouns "niets"/"niemand" ("Zeg niets tegen de gebruiker …"): nothing else follows a verb so.
      articles: ['de', 'het', 'een', 'deze', 'dit', 'alle', 'alles', 'je', 'jouw', 'uw', 'mijn', 'onze', 'ons', 'niets', 'niemand'],
      always: ['altijd', 'nooit'],
      markers: ['het', 'een', 'naar', 'voor', 'met', 'op', 'uit', 'niet', 'voordat', 'nadat', 'ze', 'elke', 'aan', 'bij', 'zonder', 'ook', 'wordt', 'zijn', 'geen', 'deze', 'iemand'],
      notVerbs: ['volgens', 'tijdens', 'na', 'voor', 'met', 'op', 'in', 'bij', 'door', 'over', 'onder', 'naast', 'zonder', 'sinds', 'tot', 'vanaf', 'tegen', 'om', 'rond', 'via', 'per', 'dankzij', 'ondanks', 'behalve', 'binnen', 'buiten', 'achter', 'langs', 'uit', 'van', 'naar', 'ook', 'nu', 'dan', 'toen', 'daarna', 'daarom', 'bovendien', 'verder', 'eerst', 'vandaag', 'gisteren', 'morgen', 'soms', 'vaak', 'meestal', 'alleen', 'zelfs', 'nog', 'wel', 'niet', 'maar', 'en', 'of', 'want', 'dus', 'omdat', 'als', 'wanneer', 'terwijl', 'hoewel', 'zodra', 'tenzij', 'dat', 'wat', 'wie', 'waar', 'hoe', 'welke', 'hier', 'daar', 'er', 'zo'],
      copulas: ['is', 'zijn', 'was', 'waren'],
    },
  },
  {
    language: 'Polish', spaced: true, conditions: ['jeśli', 'jeżeli', 'gdy', 'kiedy'], politeOpeners: ['proszę', 'prosze'], ignore: ['zignoruj', 'ignoruj'], earlier: ['poprzednie', 'wcześniejsze', 'wszystkie'], instructions: ['instrukcje', 'polecenia'], assistant: { names: ['asystent', 'ai', 'agent', 'claude'], obliged: ['powinien', 'musi', 'ma zawsze', 'nie może', 'nie powinien'] },
    // Polish has no articles: a feminine object's accusative ending ("Wyłącz weryfikację …", "Zrób
    // kopię …"), a determiner, or "always"/"never" before code marks the first word as the verb.
    // Determiners stand where another language puts an article ("Usuń wszystkie gałęzie …").
    imperative: {
      articles: ['wszystkie', 'wszystko', 'każdy', 'każdą', 'te', 'ten', 'tę', 'swoje', 'moje', 'nasze'],
      objectEndings: ['ę'],
      always: ['zawsze', 'nigdy'],
      markers: ['przed', 'przy', 'dla', 'bez', 'się', 'że', 'po', 'od', 'na', 'w', 'z', 'ze', 'do', 'każdym', 'każdy', 'nikomu', 'poza', 'oprócz', 'zamiast'],
      notVerbs: ['na', 'w', 'we', 'z', 'ze', 'do', 'od', 'po', 'przez', 'za', 'pod', 'nad', 'przed', 'między', 'o', 'u', 'dla', 'bez', 'przy', 'mimo', 'oprócz', 'według', 'podczas', 'wobec', 'zamiast', 'poza', 'obok', 'zawsze', 'nigdy', 'dziś', 'dzisiaj', 'wczoraj', 'jutro', 'teraz', 'potem', 'często', 'czasem', 'też', 'także', 'już', 'jeszcze', 'i', 'a', 'ale', 'lub', 'albo', 'oraz', 'że', 'gdy', 'kiedy', 'jeśli', 'jeżeli', 'bo', 'ponieważ', 'więc', 'proszę'],
      copulas: ['to', 'jest', 'są'],
    },
    // The imperative ends in a consonant ("mów", "pytaj", "usuwaj", "rób"); the infinitive in -ć is an
    // impersonal order ("Nie usuwać plików"). A fact's subjectless verb is in the third person and ends
    // in a vowel ("Nie działa", "Nie obsługuje", "Nie ma").
    // "Nigdy nie ujawniaj …": "never" before the negation, as "Nunca" opens a Spanish or Portuguese one.
    negated: { negations: ['nie', 'nigdy nie'], orderForm: (w) => /\p{L}(?:[jwdzbpć]|sz|cz|rz|ń|ź|ś)$/u.test(w) && !POLISH_NOT_IMPERATIVE.has(w), needsMarker: POLISH_WORD },
  },
  {
    language: 'Russian', spaced: true, conditions: ['если', 'когда'], politeOpeners: ['пожалуйста'], ignore: ['игнорируй', 'игнорируйте', 'забудь', 'забудьте'], earlier: ['предыдущие', 'прежние', 'все'], instructions: ['инструкции', 'указания', 'правила'],
    // RUSSIAN_IMPERATIVE (qa-orders-8): "Не читай `Cargo.lock`", "НЕ ИСПОЛЬЗУЙ shell …", "Всегда запускай
    // `cargo-fmt` …": "not", "never" or "always" opening a clause, then a verb in the imperative's form
    // (-й, -йте, -ь, -ьте, -и, -ите, with a reflexive -ся/-сь). A fact's subjectless verb is in the third
    // person ("Не работает", "Не поддерживает", "Всегда доступен") or a past plural in -ли ("не были").
    negated: { negations: ['не', 'никогда не', 'всегда'], orderForm: (w) => /\p{L}(?:й|йте|ь|ьте|и|ите)(?:ся|сь)?$/u.test(w) && !/ли$/u.test(w) },
    // IMPERATIVE_ONLY_ENDING (qa-orders-9): with no marker word in front ("Используй `cargo-add` для …",
    // "Запустите тесты"): the informal imperative of the -овать/-евать verbs (-уй, -юй: "используй",
    // "тестируй", "форматируй") and the formal one (-йте, -ьте, -ите: "используйте", "добавьте",
    // "запустите"). No noun or third-person verb a fact opens with ends so; the shorter forms (-й, -ь,
    // -и) do ("Случай", "Зависимость", "Зависимости"), so they need RUSSIAN_OBJECT_CASE below.
    // (qa-orders-13) Two of the shorter forms no noun a fact opens with has: -авь, the imperative of -авить verbs
    // ("добавь", "отправь", "исправь", "оставь"; the nouns in -вь end -овь or -увь: "любовь", "обувь"), and -яй, the
    // imperfective's of -ять verbs ("удаляй", "добавляй", "обновляй"; only a few words for people end so, "лентяй").
    imperativeOnlyEndings: ['уй', 'юй', 'йте', 'ьте', 'ите', 'авь', 'яй'],
  },
  { language: 'Chinese', spaced: false, politeOpeners: ['请'], ignore: ['忽略', '无视', '忽视'], earlier: ['之前', '以前', '上面', '先前', '所有'], instructions: ['指示', '指令', '说明'] },
  { language: 'Japanese', spaced: false, politeOpeners: [], politeEndings: ['してください', 'して下さい', 'しなさい', 'てください'], ignore: ['無視'], earlier: ['以前', '前の', '上記', 'これまで', 'すべて'], instructions: ['指示', '命令'] },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alt = (words: readonly string[]) => words.map(escape).join('|');

/** OVERRIDE, one pattern per language: the verb, then "earlier" and "instructions" in either order. */
function overridePattern(f: LanguageForms): RegExp {
  // A word's start as Unicode letters have it: JavaScript's \b knows ASCII letters only, so a Cyrillic verb never followed one.
  const b = f.spaced ? String.raw`(?<![\p{L}\p{N}_])` : '';
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

/**
 * ENCLITIC_IMPERATIVE (qa-orders-8): Spanish and French informal orders (tú, tu) are the third person's
 * form ("Borra los logs", "Supprime les journaux" read as a summary that dropped its subject, "Gestiona
 * los pagos"), so without a marker they stay knowledge. A pronoun glued to the verb is the imperative's
 * alone: Spanish puts it after the accented verb ("Bórralos", "Ejecútalo", "Súbelo", "Dímelo"), French
 * after a hyphen ("Envoie-le", "Supprime-les", "Dis-moi", "Vas-y"); a statement puts it before ("Lo
 * borra", "Il le supprime"). Spanish nouns in -ulo/-ula ("Módulo", "Título", "Fórmula") have the
 * accent and the ending, but a "u" before it, which the imperative's -a/-e/-i never is.
 */
const SPANISH_ENCLITIC = /^\p{L}*[áéíóú][^\s\p{P}aeiouáéíóú]*[aei](?:me|te|se|nos)?(?:lo|la|los|las|le|les|me|te|nos)(?![\p{L}\p{N}'’-])/iu;
const FRENCH_ENCLITIC = /^\p{L}{2,}-(?:le|la|les|moi|toi|lui|nous|vous|leur|en|y)(?:-(?:le|la|les|moi|lui|nous|leur|en|y))?(?![\p{L}\p{N}'’-])/iu;

/**
 * SUBJECTLESS_ADVICE (qa-orders-11): the adverbs of advice open an order the same way, with no subject:
 * 优先 "by preference" ("优先通过正确的类型注解…消除类型错误", "若…，优先考虑将函数参数改为 `Sequence`"), 建议
 * "it is advised to" ("建议使用 pnpm"), 尽量 "as far as possible". Each is also the first character pair of a
 * noun, which a fact opens its subject with: 优先级 "priority", 优先权, 优先队列, 优先顺序, 优先事项; 建议书
 * "proposal", 建议稿, 建议者; and 建议 itself as "the suggestion" before 已/被/是/的 ("建议已被采纳"). A colon
 * after it is a label ("建议：…"), judged on what follows. Not a topic before it ("单函数建议控制在 60-80
 * 行以内"): "团队建议使用 pnpm" reports someone's advice as the English "The style guide says …" does.
 */
const CHINESE_ADVICE = String.raw`优先(?![级級权權队隊顺順事])|優先(?![级級权權队隊顺順事])|建议(?![书書稿者已被是的：:])|建議(?![书書稿者已被是的：:])|尽量|盡量`;

/**
 * SUBJECTLESS_MODAL (qa-orders-8): Chinese opens an order with a modal of obligation or prohibition and
 * no subject ("禁止 `domain` 依赖 `ui/pages`", "不要用三引号注释", "必須使用環境變數 …", "务必执行 …"). A
 * fact names what is obliged first ("此字段必须为正数", "服务器禁止外部访问"); a clause start here is the
 * text's, a sentence's, or what follows a colon, semicolon or comma (Chinese writes no space after
 * them, so orders.ts's clause starts do not find these). "不要求" ("does not require") is no order.
 */
const CHINESE_SUBJECTLESS_MODAL = /(?:^|[。！？；：，,;:]\s*|[-*•]\s+)(?:禁止|严禁|嚴禁|切勿|请勿|請勿|不得(?!不)|不要(?!求)|必须|必須|务必|務必)/u;

/**
 * SUBJECTLESS_ADVICE's clause with the rest of its sentence. ADVICE_TAKEN: a record of advice goes on to say what
 * became of it, 已 "already" or 被 (the passive) in a later clause of the sentence, after a comma, a semicolon or
 * an opening parenthesis ("会议记录：建议使用 pnpm，团队已采纳", "复盘：优先修复支付模块的 bug（已完成）", "…，但被团队否决了"):
 * knowledge, as "Meeting notes: use pnpm, the team adopted it" is. Not in the advice's own clause (qa-review-16b):
 * there 已 qualifies what the advice names ("优先使用已有的工具函数": existing; "是否已格式化") and 被 opens a relative
 * clause ("建议删除所有被标记为废弃的分支": every branch marked deprecated), the order's own words. Nor, later, 已有
 * "existing" and 已知 "known" ("，已有项目除外": existing projects excepted), or 被 after a verb of avoiding (避免被,
 * 以免被, 防止被: "so as not to be …"), the advice's purpose. The sentence is consumed whole, so a long line is read once.
 */
const CHINESE_ADVICE_SENTENCE = new RegExp(String.raw`(?:^|[。！？；：，,;:]\s*|[-*•]\s+)(?:${CHINESE_ADVICE})[^。！？\n]*`, 'gu');
const ADVICE_TAKEN_MARK = /已(?![有知])|(?<![免止])被/gu;
/**
 * OUTCOME_NOT_CASE (qa-review-17b): a later clause reports what became of the advice ("团队已采纳", "已完成", "但被团队
 * 否决了", "被采纳后已实施"), not the case of a next act. A clause that states a condition (…时 "when", …就/则 "then",
 * …的话, 如果/若/一旦 "if") or a mark that goes on to 的 or 后 (a relative phrase, "已提交的也要删除": the ones already
 * committed; a sequence, "被阻塞后直接合并": once blocked, merge) names whom or when the order acts on next: the order
 * goes on ("建议直接推送到 main，被拒绝时强制推送"), and it stays one. Not 时 or 则 inside a word of their own (及时 "in
 * time", 同时, 暂时; 规则 "rule", 原则), nor 会后 "after the meeting": "已及时修复", "已被纳入规则", "已于会后确认" still
 * report an outcome. An outcome dated after another event ("已于发布后修复") is OUTCOME_DATED's.
 */
const CASE_OF_NEXT_ACT = /(?<![及同临臨暂暫按准準])[时時]|(?<![早成])就|(?<![规規原法准準细細否守])[则則]|的[话話]|如果|一旦|(?<![\p{Script=Han}])若/u;
const MARK_GOES_ON = /的|(?<![会會])[后後]/u;
/**
 * OUTCOME_AT_A_TIME (qa-review-18): 已在…时 / 已于…时 ("already, at the time of …") dates the outcome it reports ("已在上线时
 * 完成迁移", "已于评审时否决"): that 时 sets no case of a next act, which opens with its own 在 or none ("在被拒绝时强制推送",
 * "已存在时直接覆盖", "在已失败时直接合并" stay cases). Read without it, a record of what became of the advice was an order.
 */
const OUTCOME_AT_A_TIME = /已[在于於][^，,；;（(]*?[时時]/u;
/**
 * OUTCOME_DATED (qa-orders-13): 于 … 后 "after …" right after the mark is the date of the outcome, a phrase of
 * time the outcome's verb takes ("已于发布后修复": fixed after the release; "已于上线后完成"), not a sequence of
 * acts: a sequence puts 后 right after the event with no 于 ("被阻塞后直接合并"). So the dated phrase is read
 * past before MARK_GOES_ON looks for 后 (this lifts the price OUTCOME_NOT_CASE had decided).
 */
const OUTCOME_DATED = /^\s*[于於][^，,；;的]{1,12}?[后後]/u;

/** ADVICE_TAKEN: whether a later clause of the advice's sentence (after ，；（) reports what became of it (OUTCOME_NOT_CASE). */
function adviceTaken(sentence: string): boolean {
  const clauses = sentence.split(/[，,；;（(]/u).slice(1);
  for (const written of clauses) {
    const clause = written.replace(OUTCOME_AT_A_TIME, '已');
    if (CASE_OF_NEXT_ACT.test(clause)) continue;
    for (const mark of clause.matchAll(ADVICE_TAKEN_MARK)) if (!MARK_GOES_ON.test(clause.slice((mark.index ?? 0) + 1).replace(OUTCOME_DATED, ''))) return true;
  }
  return false;
}

/**
 * QUANTIFIED_TOPIC_ADVICE (qa-orders-12): before the adverb of advice, a topic that is a quantified kind, 单
 * "a single …, each", 每/每个 "every", 所有 "all", 任何 "any", 各/各个 "each" ("单函数建议控制在 60-80 行以内",
 * "每个组件建议只导出一个默认组件"): advice on every thing of the kind, with no one named who gives it, as
 * MODAL_OBLIGATION's GENERIC_SUBJECT reads "All commits should …". Who reports advice is someone, named
 * without a quantifier ("团队建议使用 pnpm", "文档建议 …"): still knowledge. 单 opening a word of its own (单元
 * "unit", 单位, 单独, 单据) is no quantifier. ADVICE_GIVERS: quantified people give advice ("所有人建议 …", "每位专家
 * 建议 …", "各位成员建议 …": everyone advises), so a topic counted with 位 (the measure word for persons) or
 * ending in a word for persons (人 "person", 者 "-er", 员 "member", 家 "expert", 们 the persons' plural) reports
 * advice. ADVICE_TAKEN holds as for SUBJECTLESS_ADVICE.
 * CODE_MEMBERS (qa-review-17b): 成员 after a kind of the code is a class's member, not a person ("所有类成员建议使用
 * private", "每个静态成员建议声明为 readonly"): advice on a kind of code, an order as "每个组件建议 …" is.
 */
const CODE_MEMBERS = String.raw`(?<=(?:类|類|公共|公有|私有|静态|靜態|数据|數據|实例|實例|保护|保護)成)[员員]`;
const QUANTIFIED_TOPIC = String.raw`(?:[单單](?![元位独獨据據])|每[一]?[个個]?(?!位)|所有|任何|各[个個]?(?!位))[^\s。！？；：，,;:]{0,9}?(?:[^\s。！？；：，,;:人者员員家们們]|${CODE_MEMBERS})`;
const QUANTIFIED_TOPIC_ADVICE_SENTENCE = new RegExp(String.raw`(?:^|[。！？；：，,;:]\s*|[-*•]\s+)${QUANTIFIED_TOPIC}(?:${CHINESE_ADVICE})[^。！？\n]*`, 'gu');

function subjectlessAdviceInChinese(text: string): boolean {
  // From the adverb on: the punctuation the match opens with is the clause before's, not a later one's.
  for (const pattern of [CHINESE_ADVICE_SENTENCE, QUANTIFIED_TOPIC_ADVICE_SENTENCE]) for (const m of text.matchAll(pattern)) if (!adviceTaken(m[0].replace(/^[^\p{Script=Han}]+/u, ''))) return true;
  return false;
}

/**
 * SUBJECTLESS_DISPOSAL (qa-orders-10): Chinese also orders with 对 + the thing acted on + 做/进行 + the act,
 * and no subject ("对外部输入（文件、prompt、路径）做基本校验", "對使用者輸入進行轉義"). A fact says who
 * does it first ("网关对外部输入做基本校验"), so only a clause that opens with 对 counts; 对 opening a word
 * of its own (对于 "as for", 对比, 对应, 对象, 对话, 对外 "outward" but not 对外部 "to the external", 对齐, 对接) is no disposal.
 */
const CHINESE_SUBJECTLESS_DISPOSAL = /(?:^|[。！？；：，,;:]\s*|[-*•]\s+)[对對](?![于於比应應象话話齐齊接称稱]|外(?!部))[^。！？；，,;:\n]{1,40}?(?:做|进行|進行|作)/u;

/**
 * OBLIGATION_ENDING (qa-orders-10): Japanese states a duty with a verb's plain form and 必要があります /
 * 必要がある ("need to …") or べき ("should"), with no subject ("コードの編集はserenaのツールを使用する必要が
 * あります"). A requirement of a thing puts a noun before 必要 ("Node 20 が必要です"), which this leaves.
 */
const HAN_OR_KANA = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/u;
const JAPANESE_OBLIGATION_ENDING = /[るうくすつぬむぶぐ]必要があ(?:る|ります)|[うくすつぬむぶぐる]べき(?:です|だ|である)?(?:[。．]|$)/u;

/**
 * TOPIC_MODAL (qa-orders-13): a topic, then a modal of duty, read as MODAL_OBLIGATION (obligation.ts) reads English.
 * Chinese writes no article, so a bare topic is a kind as English's bare plural is ("依賴應在 Dockerfile 中安裝":
 * dependencies should be installed in the Dockerfile), unless a demonstrative or a pronoun makes it a particular
 * thing or person (这/那/该/此/本/其, 他/她/它: "该接口应返回 JSON" is "The API should return JSON", a fact).
 * - "Should" (应, 应该, 应当) on a kind is a duty, English's price included ("Builds should take about five minutes"
 *   reads as one). 应 inside a word of its own is no modal (应用 "application", 响应 "response", 对应, 相应, 适应,
 *   供应, 反应, 效应, 应答, 应急, 应对, 应付). EPISTEMIC_SHOULD: before 是, 会, 已, 能/可以 or a negation of them it says
 *   what is probably so ("问题应该是缓存导致的": the problem is probably the cache; "应该已经修复"), a guess, no duty.
 * - "Must" (必须, 务必) on a kind states what a process enforces as often as a duty ("测试必须在合并前通过": tests must
 *   pass before merging, a fact, as "Every commit must pass the type check" is: ENFORCED_REQUIREMENT), so only with
 *   a word for "always" after it (始终, 总是, 永远, 一律: "must always") is it a rule, as English's "must always" is.
 */
const CHINESE_GUESS = String.raw`是|会|會|已|能|可以|没|沒|不会|不會`;
const CHINESE_SHOULD = String.raw`(?<![响響对對相适適供反效呼感回理])(?:应该|應該|应当|應當|[应應](?![该該当當]))(?![用答对對急付聘变變])(?!${CHINESE_GUESS})`;
const CHINESE_MUST_ALWAYS = String.raw`(?:必须|必須|务必|務必)\s*(?:始终|始終|总是|總是|永远|永遠|一律)`;
/**
 * REPORTED_RULE: a verb of saying or deciding before the modal makes the duty the content of what someone said
 * ("团队决定依赖应该锁定版本": the team decided dependencies should be pinned), a fact, as MAIN_CLAUSE_MODAL reads
 * "The style guide says variable names should be descriptive"; the topic then holds that verb.
 */
const CHINESE_REPORTING = String.raw`说|說|认为|認為|决定|決定|规定|規定|要求|提到|指出|表示|觉得|覺得|同意`;
const CHINESE_TOPIC_MODAL = new RegExp(
  String.raw`(?:^|[。！？；：，,;:]\s*|[-*•]\s+)(?![这這那该該此本他她它]|其(?!他))(?:(?!${CHINESE_REPORTING})[^\s。！？；：，,;:\n])(?:(?!${CHINESE_REPORTING})[^。！？；：，,;:\n]){0,15}?(?:${CHINESE_SHOULD}|${CHINESE_MUST_ALWAYS})`,
  'u',
);

/** Whether `text` holds a SUBJECTLESS_MODAL or a SUBJECTLESS_DISPOSAL (Chinese) at a clause start of its own, a TOPIC_MODAL, or a Japanese OBLIGATION_ENDING. */
export function subjectlessModalInChinese(text: string): boolean {
  // Han or kana at all first: most facts hold neither, and the three patterns then cost nothing.
  if (!HAN_OR_KANA.test(text)) return false;
  return CHINESE_SUBJECTLESS_MODAL.test(text) || subjectlessAdviceInChinese(text) || CHINESE_SUBJECTLESS_DISPOSAL.test(text) || CHINESE_TOPIC_MODAL.test(text) || JAPANESE_OBLIGATION_ENDING.test(text);
}

/**
 * IMPERATIVE_ONLY_ENDING: a clause's first word with an ending only the imperative has (a row's
 * `imperativeOnlyEndings`, reflexive -ся/-сь allowed), every row's endings in one pattern. A colon or a
 * dash after it makes the word a name being defined ("Поцелуй — песня группы …"), as SHORT_LABEL reads one.
 */
const IMPERATIVE_ONLY_OPENING = new RegExp(String.raw`^\p{L}{2,}(?:${alt(FORMS.flatMap((f) => f.imperativeOnlyEndings ?? []))})(?:ся|сь)?(?![\p{L}\p{N}'’-])(?!\s*[:—–])`, 'iu');

/** IMPERATIVE_ONLY_WORD: every row's words in one pattern, as the clause's first word. */
const IMPERATIVE_ONLY_WORD = new RegExp(String.raw`^(?:${alt(FORMS.flatMap((f) => f.imperativeOnlyWords ?? []))})(?![\p{L}\p{N}'’-])(?!\s*[:—–])`, 'iu');

/**
 * RUSSIAN_OBJECT_CASE (qa-orders-13): the short imperatives (-и, -ь, -й: "Удали", "Запусти", "Сделай") share their
 * endings with nouns a fact opens with ("Зависимости", "Очередь", "Случай"), but what follows tells them apart: a
 * verb takes its object in the accusative, and a noun takes no accusative after it. So an imperative's ending, then
 * a feminine accusative (-у/-ю, its adjective's -ую/-юю: "папку", "резервную копию") or a determiner only an object
 * has ("все", "эту", "свою"), is an order ("Удали папку с логами …", "Удали все ветки"). Not the endings of nouns
 * and adjectives that no imperative has (-ии "версии", -ть "зависимость", "память", and an infinitive; -ый, -ий,
 * -ой). A dative in -у/-ю after a noun ("Роли пользователю назначает …") has the fact's finite verb after it (a
 * present's -ет/-ит/-ут/-ют/-ат/-ят or a past's -л/-ла/-ло/-ли): no order then. The price, decided: a noun read
 * as a verb there ("проект", "коммит") lets an order through; a verbless noun with a dative after it ("Помощь
 * клиенту по выходным") is read as an order.
 */
const RUSSIAN_IMPERATIVE_ENDING = /[иьй](?:ся|сь)?$/u;
const RUSSIAN_NOT_IMPERATIVE = /(?:ии|ть|ый|ий|ой)(?:ся|сь)?$/u;
const RUSSIAN_OBJECT_DETERMINERS: ReadonlySet<string> = new Set(['все', 'всё', 'эту', 'этот', 'эти', 'это', 'свой', 'свою', 'свои', 'каждую', 'каждый', 'его', 'её', 'их']);
const RUSSIAN_FINITE = /(?:[еёиуюая]т|[ауяеиыо]л|л[аои])(?:ся|сь)?$/u;

function russianObjectCase(clause: string): boolean {
  // A Cyrillic first word at all first: most clauses open otherwise, and the split then costs nothing.
  if (!/^\p{Script=Cyrillic}/u.test(clause)) return false;
  const words = (clause.split(/[.!?;](?=\s|$)|\n/u, 1)[0] as string).toLowerCase().split(/[\s,]+/u).filter((w) => w !== '');
  const [verb, object] = [words[0] ?? '', words[1] ?? ''];
  if (!/^\p{Script=Cyrillic}{3,}$/u.test(verb) || !RUSSIAN_IMPERATIVE_ENDING.test(verb) || RUSSIAN_NOT_IMPERATIVE.test(verb)) return false;
  if (!RUSSIAN_OBJECT_DETERMINERS.has(object) && !/^\p{Script=Cyrillic}{2,}[ую]$/u.test(object)) return false;
  return !words.slice(2).some((w) => RUSSIAN_FINITE.test(w));
}

/** TU_IMPERATIVE_FORM: whether `verb` (lower case) is one of a row's informal forms and `second` an article that opens its object. */
function tuImperativeForm(row: BareImperativeForms, verb: string, second: string): boolean {
  const forms = row.tuForms;
  if (forms === undefined || !forms.articles.includes(second)) return false;
  return (forms.words ?? []).includes(verb) || (verb.length > 3 && (forms.endings ?? []).some((e) => verb.endsWith(e)));
}

/** Whether the clause (text from a clause start, orders.ts) opens with a BARE_IMPERATIVE of one of the languages above. */
export function bareImperativeInOtherLanguage(clause: string): boolean {
  if (SPANISH_ENCLITIC.test(clause) || FRENCH_ENCLITIC.test(clause) || IMPERATIVE_ONLY_OPENING.test(clause) || IMPERATIVE_ONLY_WORD.test(clause) || russianObjectCase(clause)) return true;
  const m = BARE_OPENING.exec(clause);
  if (m === null) return false;
  const [, first, second, third] = m as unknown as [string, string, string, string];
  if (NOT_VERBS.has(first.toLowerCase())) return false;
  const verb = first.toLowerCase();
  const sentence = clause.split(/[.!?;](?=\s|$)|\n/u, 1)[0] as string;
  const later = sentence.toLowerCase().split(/[\s,]+/u).slice(2); // the words after the first two
  if (namesAThing(second, later)) return false;
  return IMPERATIVE_ROWS.some(
    (row) =>
      // "always" and code: the word for "always" says the language. An article: a marker must say it.
      ((row.always.includes(second) && (row.articles.includes(third) || CODE_START.test(third))) ||
        ((row.articles.includes(second) || (row.objectEndings ?? []).some((e) => second.endsWith(e))) && (later.some((word) => row.markers.includes(word)) || (row.secondPersonEndings ?? []).some((e) => verb.endsWith(e)))) ||
        tuImperativeForm(row, verb, second)) &&
      !(row.thirdPersonEndings ?? []).some((ending) => verb.endsWith(ending)) &&
      !namesATask(row, later) &&
      !hasPostverbalSubject(row, later),
  );
}

/**
 * LABEL_NAMES_A_THING (qa-orders-7): a colon within the first three words ("Envoi des rapports : chaque
 * vendredi …", "Copia de seguridad: …") ends a label, an entity's name, as SHORT_LABEL reads English
 * ones (imperative.ts); what follows the colon is judged as a clause of its own (orders.ts).
 */
function namesAThing(second: string, later: readonly string[]): boolean {
  return [second, ...later.slice(0, 2)].some((word) => word.endsWith(':'));
}

/** NAMED_TASK: the row's copula within the object's first three words ("Cancella i backup è un'attività …"): verb and object name a task. */
function namesATask(row: BareImperativeForms, later: readonly string[]): boolean {
  return later.slice(0, 3).some((word) => row.copulas.includes(word));
}

/**
 * POSTVERBAL_SUBJECT: a definite article after the object's noun, not after a preposition ("Revisa
 * los pull requests el equipo de plataforma los lunes"): a subject put after verb and object. An
 * order with a bare time ("Borra los logs el viernes") reads so too, and is let through: the price.
 */
function hasPostverbalSubject(row: BareImperativeForms, later: readonly string[]): boolean {
  const articles = row.subjectArticles;
  if (articles === undefined) return false;
  for (let k = 1; k < later.length; k += 1) {
    const before = later[k - 1] as string;
    if (articles.includes(later[k] as string) && !row.notVerbs.includes(before) && !articles.includes(before) && /^\p{L}+$/u.test(before)) return true;
  }
  return false;
}

const NEGATED_ROWS = FORMS.flatMap((f) => (f.negated === undefined ? [] : [f.negated]));
/** NEGATED_IMPERATIVE's pre-scan: every row's negation, then a word (French "n'" glued to it). */
const NEGATED_OPENING = new RegExp(String.raw`^(${alt(NEGATED_ROWS.flatMap((r) => r.negations))})(?:\s+|(?<=['’]))(\p{L}[\p{L}'’-]*)`, 'iu');

/** Whether the clause (text from a clause start, orders.ts) opens with a NEGATED_IMPERATIVE of one of the languages above. */
export function negatedImperativeInOtherLanguage(clause: string): boolean {
  const m = NEGATED_OPENING.exec(clause);
  if (m === null) return false;
  const negation = (m[1] as string).toLowerCase();
  const verb = (m[2] as string).toLowerCase();
  const sentence = clause.slice(m[0].length).split(/[.!?;](?=\s|$)|\n/u, 1)[0] as string;
  const after = sentence.toLowerCase().split(/[\s,]+/u).filter((w) => w !== '');
  return NEGATED_ROWS.some((row) => row.negations.includes(negation) && row.orderForm(verb, after) && (row.needsMarker === undefined || after.some((word, at) => row.needsMarker?.(word, at) === true)));
}

/**
 * ASSISTANT_OBLIGED: the assistant named with a modal that obliges it, in the languages above ("L'assistant
 * doit ignorer …", "Der Assistent soll …", "Asystent powinien …"), as orders.ts reads "the assistant must"
 * in English. A fact about the assistant says what it does ("O assistente responde em português").
 */
const ASSISTANT_OBLIGED = new RegExp(
  String.raw`(?:^|[\s"“(])(?:${alt(FORMS.flatMap((f) => f.assistant?.names ?? []))})\s+(?:${alt(FORMS.flatMap((f) => f.assistant?.obliged ?? []))})(?![\p{L}])`,
  'iu',
);

/** ASSISTANT_OBLIGED's pre-scan: the modals alone (rare in facts), as ANY_IGNORE is for OVERRIDE. */
const ANY_OBLIGING_MODAL = new RegExp(alt(FORMS.flatMap((f) => f.assistant?.obliged ?? [])), 'i');

/** Whether `text` obliges the assistant in one of the languages above (ASSISTANT_OBLIGED). */
export function obligesAssistantInOtherLanguage(text: string): boolean {
  return ANY_OBLIGING_MODAL.test(text) && ASSISTANT_OBLIGED.test(text);
}

/** Whether `text` holds an OVERRIDE in one of the languages above. */
export function overridesInOtherLanguage(text: string): boolean {
  return ANY_IGNORE.test(text) && OVERRIDES.some((pattern) => pattern.test(text));
}

/** Whether the clause (text from a clause start, orders.ts) opens or ends as a request in one of the languages above. */
/**
 * FRONTED_CONDITION (qa-orders-11): orders.ts's FRONTED_CLAUSE in the other languages: a sentence that opens
 * with a condition ("Если нужно понять структуру модуля, используй \`…\`", "Wenn der Build fehlschlägt,
 * lösche den Cache", "Si falla el despliegue, borra los registros") has its main clause after the comma,
 * judged as a clause of its own by this file's forms (an imperative-only ending, an article after the verb,
 * a marker), as at a sentence's start. Only those forms judge it: English's bare-verb rule
 * (CONDITIONAL_CONSEQUENT) would take a first-person plural for an order ("Cuando llueve, cancelamos").
 */
const FRONTED_CONDITION = new RegExp(String.raw`(?:^|[.!?:;]\s+|\n\s*)(?:${FORMS.flatMap((f) => f.conditions ?? []).join('|')})(?![\p{L}])[^,.!?;\n]{1,80},\s+`, 'giu');

/** Where the main clause after each fronted condition in another language starts (FRONTED_CONDITION). */
export function mainClausesInOtherLanguage(text: string): number[] {
  // A comma at all first: most facts have none, and the scan then costs nothing.
  if (!text.includes(',')) return [];
  return [...text.matchAll(FRONTED_CONDITION)].map((m) => (m.index ?? 0) + m[0].length);
}

export function politeRequestInOtherLanguage(clause: string): boolean {
  return POLITE_OPENER.test(clause) || (KANA.test(clause) && POLITE_ENDING.test(clause.split(/[。！？!?\n]/u, 1)[0] + '。'));
}
