/**
 * Batch 8 of the memory notes written here (issue 40, 2026-12-07, thirteenth session, helper qa-redact-9):
 * passwords written in a script other than Latin right after their word, the class of the known miss
 * `비밀번호: 사랑해요` (kept verbatim as its form's first draw, in the tune half). Korean, Japanese, Chinese
 * (simplified and traditional), Russian, Ukrainian, Greek, Arabic, Hebrew, Hindi, Thai and Persian notes, the
 * word in that language (or in English) followed by `:`, a full-width colon, a dash, or the language's own
 * "is" (`는`, `は`, `是`, `είναι`, `هي`, `היא`, `คือ`, `है` after the value), then a value in that script.
 * Beside them, as many benign look-alikes: the same words followed by a description, not a value ("ask the
 * admin", "see the password manager", "on the sticker under the router", "changed monthly") and by the one
 * word a form says of a field ("required", "needed", "optional"), which only the meaning tells from a word
 * chosen as the password.
 *
 * Written in one go, before the redaction was run on any of them and before any rule was read or changed for
 * them. Every value is made up: drawn by a seeded generator (mulberry32, seed below) from common words of each
 * language (the weak-common kind people choose), sometimes with a year. Each secret form is drawn twice in a
 * row and each benign form is written as a pair; the lists are split alternately (even entries `tune`, odd
 * entries `check`). The tune half is what the rules are tuned on (`dev-eval.ts --show` prints it); the check
 * half is counted only with `dev-eval.ts --check-8`, at first contact and once at the end, never shown line by line.
 *
 * A secret's value occurs once in its note (checked on load, as in dev-own-notes.ts).
 */
import { mulberry32 } from '../prng.js';
import type { OwnBenignNote, OwnSecretNote } from './dev-own-notes.js';
import { splitBenignNotes, splitSecretNotes, type Half } from './dev-own-notes-4.js';

const SEED = 8_2026_12_07;

type Rng = () => number;

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;

/** Common words of each language, the kind chosen as a weak password; sometimes a year is added. */
const WORDS = {
  ko: ['해바라기', '고양이', '바다사랑', '우리집', '초코칩', '별빛', '강아지', '행복해'],
  ja: ['さくら', 'ひまわり', 'ねこちゃん', 'ももたろう', 'ミカン', 'こんぺいとう', 'うさぎ'],
  zh: ['向日葵', '我爱你', '大熊猫', '月亮船', '天天向上', '小白兔', '开心果'],
  zhTw: ['向日葵', '我愛你', '小籠包', '珍珠奶茶', '月亮船'],
  ru: ['солнышко', 'ромашка', 'зайчик', 'москва', 'котёнок', 'малинка', 'рыбка'],
  uk: ['сонечко', 'калина', 'соловейко', 'вишенька'],
  el: ['ήλιος', 'θάλασσα', 'αγάπη', 'καλημέρα', 'πορτοκάλι'],
  ar: ['حبيبي', 'الوردة', 'ياسمين', 'قمرنا', 'غزالة'],
  he: ['אהבה', 'תפוז', 'כוכבים', 'שוקולד', 'פרפר'],
  hi: ['नमस्ते', 'सूरज', 'प्यार', 'मिठाई', 'चाँदनी'],
  th: ['สวัสดี', 'แมวน้อย', 'ดอกไม้', 'ทะเลสวย', 'มะม่วง'],
  fa: ['ستاره', 'باران', 'گلسرخ', 'مهتاب', 'پرستو'],
} as const;

/** A password in a language's script: a common word, a third of the time with a year after it. */
function word(rng: Rng, lang: keyof typeof WORDS): string {
  const w = pick(rng, WORDS[lang]);
  return rng() < 0.33 ? `${w}${pick(rng, ['2023', '2024', '2025', '123', '7'])}` : w;
}

/** A form of a secret: the k-th draw (0 = tune, 1 = check) gives [cls, secret, body]. */
type SecretForm = (rng: Rng, k: number) => readonly [string, string, string];

const SECRET_FORMS: readonly SecretForm[] = [
  // The known miss, verbatim in the tune half, and its drawn twin.
  (rng, k) => { if (k === 0) return ['ko/colon', '사랑해요', '비밀번호: 사랑해요']; const v = word(rng, 'ko'); return ['ko/colon', v, `비밀번호: ${v}`]; },
  (rng) => { const v = word(rng, 'ko'); return ['ko/topic', v, `와이파이 비밀번호는 ${v}`]; },
  (rng) => { const v = word(rng, 'ko'); return ['ko/list', v, `- 공유기 비밀번호: ${v}`]; },
  (rng) => { const v = word(rng, 'ja'); return ['ja/full-colon', v, `パスワード：${v}`]; },
  (rng) => { const v = word(rng, 'ja'); return ['ja/wa-unspaced', v, `Wi-Fiのパスワードは${v}`]; },
  (rng) => { const v = word(rng, 'ja'); return ['ja/list', v, `- NASのパスワード: ${v}`]; },
  (rng) => { const v = word(rng, 'zh'); return ['zh/full-colon', v, `密码：${v}`]; },
  (rng) => { const v = word(rng, 'zh'); return ['zh/shi', v, `WiFi密码是${v}`]; },
  (rng) => { const v = word(rng, 'zhTw'); return ['zh-tw/colon', v, `路由器密碼: ${v}`]; },
  (rng) => { const v = word(rng, 'ru'); return ['ru/colon', v, `пароль: ${v}`]; },
  (rng) => { const v = word(rng, 'ru'); return ['ru/dash', v, `Пароль от роутера — ${v}`]; },
  (rng) => { const v = word(rng, 'ru'); return ['ru/list', v, `- пароль от почты: ${v}`]; },
  (rng) => { const v = word(rng, 'uk'); return ['uk/colon', v, `пароль до wifi: ${v}`]; },
  (rng) => { const v = word(rng, 'el'); return ['el/colon', v, `κωδικός: ${v}`]; },
  (rng) => { const v = word(rng, 'el'); return ['el/einai', v, `Ο κωδικός του wifi είναι ${v}`]; },
  (rng) => { const v = word(rng, 'ar'); return ['ar/colon', v, `كلمة المرور: ${v}`]; },
  (rng) => { const v = word(rng, 'ar'); return ['ar/hiya', v, `كلمة السر هي ${v}`]; },
  (rng) => { const v = word(rng, 'he'); return ['he/colon', v, `סיסמה: ${v}`]; },
  (rng) => { const v = word(rng, 'he'); return ['he/hi', v, `הסיסמה לוויפי היא ${v}`]; },
  (rng) => { const v = word(rng, 'hi'); return ['hi/colon', v, `पासवर्ड: ${v}`]; },
  (rng) => { const v = word(rng, 'hi'); return ['hi/hai', v, `वाईफाई का पासवर्ड ${v} है`]; },
  (rng) => { const v = word(rng, 'th'); return ['th/colon', v, `รหัสผ่าน: ${v}`]; },
  (rng) => { const v = word(rng, 'th'); return ['th/khue', v, `รหัสผ่านไวไฟคือ ${v}`]; },
  (rng) => { const v = word(rng, 'fa'); return ['fa/colon', v, `رمز عبور: ${v}`]; },
  // The English word, a value in another script.
  (rng) => { const v = word(rng, 'ko'); return ['en-ko/colon', v, `router password: ${v}`]; },
  (rng) => { const v = word(rng, 'ru'); return ['en-ru/is', v, `the wifi password is ${v}`]; },
];

/** The benign notes: [cls, body]; each form written twice in a row (one per half). */
const BENIGN: readonly (readonly [string, string])[] = [
  // Korean: where it is, who to ask, what to do; and the one word a form says.
  ['ko/ask', '비밀번호: 관리자에게 문의'],
  ['ko/ask', '공유기 비밀번호: 팀장님께 물어보기'],
  ['ko/where', '와이파이 비밀번호는 공유기 뒷면에 있어요'],
  ['ko/where', '비밀번호는 1Password 공유 금고에 있음'],
  ['ko/policy', '비밀번호: 매달 변경 필요'],
  ['ko/policy', '비밀번호는 12자 이상, 특수문자 포함'],
  ['ko/one-word', '비밀번호: 필수'],
  ['ko/one-word', '비밀번호: 필요해요'],
  // Japanese.
  ['ja/ask', 'パスワード：管理者に確認してください'],
  ['ja/ask', 'NASのパスワード: 情シスに聞く'],
  ['ja/where', 'Wi-Fiのパスワードはルーターの裏に書いてある'],
  ['ja/where', 'パスワードはBitwardenに保存済み'],
  ['ja/one-word', 'パスワード：必須'],
  ['ja/one-word', 'パスワード: 任意'],
  // Chinese.
  ['zh/ask', '密码：请联系管理员'],
  ['zh/ask', '路由器密碼: 問網管'],
  ['zh/where', 'WiFi密码贴在路由器背面'],
  ['zh/where', '密码在密码管理器里'],
  ['zh/one-word', '密码：必填'],
  ['zh/one-word', '密码: 可选'],
  // Russian and Ukrainian.
  ['ru/where', 'пароль: см. менеджер паролей'],
  ['ru/where', 'Пароль от роутера — на наклейке снизу'],
  ['ru/ask', 'Пароль: спросить у админа'],
  ['ru/ask', 'пароль до wifi: запитати в офіс-менеджера'],
  ['ru/one-word', 'пароль: обязателен'],
  ['ru/one-word', 'пароль: необязательно'],
  ['ru/policy', 'пароль от почты меняется раз в квартал'],
  ['ru/policy', 'пароль: минимум 12 символов'],
  // Greek.
  ['el/ask', 'κωδικός: ρωτήστε τον διαχειριστή'],
  ['el/ask', 'Ο κωδικός του wifi είναι στο Bitwarden'],
  ['el/one-word', 'κωδικός: υποχρεωτικός'],
  ['el/one-word', 'κωδικός: προαιρετικός'],
  // Arabic and Persian.
  ['ar/ask', 'كلمة المرور: اسأل المسؤول'],
  ['ar/ask', 'رمز عبور: از مدیر بپرسید'],
  ['ar/where', 'كلمة السر موجودة في مدير كلمات المرور'],
  ['ar/where', 'كلمة المرور مكتوبة خلف الراوتر'],
  ['ar/one-word', 'كلمة المرور: مطلوبة'],
  ['ar/one-word', 'كلمة المرور: اختيارية'],
  // Hebrew.
  ['he/ask', 'סיסמה: לשאול את מנהל המערכת'],
  ['he/ask', 'הסיסמה לוויפי היא בכספת של הצוות'],
  ['he/one-word', 'סיסמה: חובה'],
  ['he/one-word', 'סיסמה: רשות'],
  // Hindi and Thai.
  ['hi/ask', 'पासवर्ड: व्यवस्थापक से पूछें'],
  ['hi/ask', 'वाईफाई का पासवर्ड राउटर के पीछे लिखा है'],
  ['th/ask', 'รหัสผ่าน: ถามผู้ดูแลระบบ'],
  ['th/ask', 'รหัสผ่านไวไฟคือ อยู่หลังเราเตอร์'],
  ['hi-th/one-word', 'पासवर्ड: आवश्यक'],
  ['hi-th/one-word', 'รหัสผ่าน: จำเป็น'],
  // The English word, a description in another script.
  ['en/other-script', 'router password: 관리자에게 문의'],
  ['en/other-script', 'wifi password: см. наклейку на роутере'],
];

/** Draws each secret form twice in a row (one per half) with the seeded generator. */
function drawSecrets(): (readonly [string, string, string])[] {
  const rng = mulberry32(SEED);
  return SECRET_FORMS.flatMap((form) => [form(rng, 0), form(rng, 1)]);
}

/** The secret notes of batch 8 with their half; throws if a value is not in its note exactly once. */
export function ownSecretNotesBatch8(): (OwnSecretNote & { half: Half })[] {
  return splitSecretNotes('dev-own-notes-8', drawSecrets());
}

export function ownBenignNotesBatch8(): (OwnBenignNote & { half: Half })[] {
  return splitBenignNotes(BENIGN);
}
