/**
 * Issue 40, thirteenth session (helper qa-redact-9): passwords written in a script other than Latin right after their
 * word, the class of the known miss `비밀번호: 사랑해요` (batch 8 of the dev notes,
 * test/support/secret-heldout/dev-own-notes-8.ts). Each `removed` case fails on the code before this change (f01eb19);
 * the look-alikes beside each (the word followed by a description, or by the one word a form says of a field) stay.
 * Every value here is made up.
 */
import { describe, it } from 'vitest';
import { removed, untouched } from '../helpers/redaction.js';

describe('a password in another script after its word', () => {
  it('GLUED_IS_THEN_WORD_ALONE: the glued "is" of Korean, Japanese and Chinese separates as a colon does', () => {
    removed('와이파이 비밀번호는 초코칩', '초코칩');
    removed('Wi-Fiのパスワードはさくら', 'さくら');
    removed('WiFi密码是小白兔', '小白兔');
    removed('와이파이 비밀번호는 초코칩\n\nAsk Sam if unsure.', '초코칩');
    untouched('비밀번호는 필수');
    untouched('パスワードは不要');
    untouched('パスワードはなしです');
    untouched('와이파이 비밀번호는 공유기 뒷면에 있어요');
    untouched('Wi-Fiのパスワードはルーターの裏に書いてある');
    untouched('WiFi密码贴在路由器背面');
  });

  it('VERB_LAST_COPULA: Hindi puts "is" after the value', () => {
    removed('वाईफाई का पासवर्ड नमस्ते है', 'नमस्ते');
    removed('पासवर्ड चाँदनी है।', 'चाँदनी');
    untouched('पासवर्ड आवश्यक है');
    untouched('पासवर्ड सही है');
    untouched('पासवर्ड बदलना है');
    untouched('वाईफाई का पासवर्ड राउटर के पीछे लिखा है');
  });

  it('IS_THEN_WORD_ALONE: Thai writes "is" after the word and what it is for', () => {
    removed('รหัสผ่านไวไฟคือ มะม่วง', 'มะม่วง');
    removed('รหัสผ่านคือ ดอกไม้', 'ดอกไม้');
    untouched('รหัสผ่านไวไฟคือ อยู่หลังเราเตอร์');
    untouched('รหัสผ่านคือ ถามผู้ดูแลระบบ');
  });

  it('UNSPACED_WORD_AFTER_ENGLISH_LABEL: the English word, then one word of Hangul, kana or Han alone', () => {
    removed('router password: 별빛', '별빛');
    removed('password: 小白兔', '小白兔');
    removed('- NAS pin: さくら\n- user: admin', 'さくら');
    untouched('router password: 관리자에게 문의');
    untouched('password: 필수');
    untouched('password: なし');
    untouched('password: 請聯繫管理員');
  });
});
