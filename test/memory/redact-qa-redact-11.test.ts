/**
 * Issue 40, fifteenth session (helper qa-redact-11): the known miss `비밀번호: 사랑해요` (Korean, "password: I love
 * you") and a class of touched benign lines read on the dev rows (CredSweeper's `# password: keep empty`). Each
 * `removed` case and each NO_VALUE_AFTER_VERB look-alike fails on the code before this change (7a49815); the
 * look-alikes beside each stay. Every value here is made up.
 */
import { describe, it } from 'vitest';
import { removed, untouched } from '../helpers/redaction.js';

describe('KOREAN_NOUN_HAEYO: a Korean noun with the present ending of 하다, alone after the word (prose.ts)', () => {
  it('a noun no row of state or quality holds is a phrase picked as the password: removed', () => {
    removed('비밀번호: 사랑해요', '사랑해요');
    removed('비밀번호: 사랑합니다', '사랑합니다');
    removed('와이파이 비밀번호: 행복해요', '행복해요');
    removed('- NAS 비번: 사랑해요.\n- user: admin', '사랑해요');
    removed('# Home lab\n\n비밀번호: 사랑해요\n', '사랑해요');
  });

  it('a sentence about the password (what it needs, what to do, what it is like) and other endings: stay', () => {
    for (const text of [
      '비밀번호: 필요해요', // needed
      '비밀번호: 확인해요', // check it
      '비밀번호: 입력해요', // enter it
      '비밀번호: 문의해요', // ask
      '비밀번호: 변경해요', // change it
      '비밀번호: 설정합니다', // set it
      '비밀번호: 안전해요', // it is safe
      '비밀번호: 복잡해요', // it is complex
      '비밀번호: 불필요합니다', // not needed
      '비밀번호: 없어요', // there is none
      '비밀번호: 변경했어요', // I changed it
      '비밀번호: 관리자에게 문의하세요', // ask the administrator
      '비밀번호: 확인',
      '비밀번호는 공유기 뒷면에 있어요',
    ]) untouched(text);
  });
});

describe('NO_VALUE_AFTER_VERB: a word, then a word saying the field is left empty (prose.ts continuesSentence)', () => {
  it('an instruction to leave the field without a value: stays', () => {
    untouched('# password: keep empty');
    untouched('password: leave blank');
    untouched('root password: leave it empty for socket auth');
    untouched('Secret: left unset on purpose');
  });

  it('a password with a word after it, and `.env` values: removed', () => {
    removed('password: letmein now', 'letmein');
    removed('password: hunter2 (empty in prod)', 'hunter2');
    removed('DB_PASSWORD=hunter empty', 'hunter');
    removed('password: letmein', 'letmein');
  });

  it('a password, then a word saying a field is empty: the password is no verb of leaving, so it is removed', () => {
    removed('password: letmein empty for now', 'letmein');
    removed('staging password: swordfish unset in prod', 'swordfish');
    removed('wifi password: sunshine blank for guests', 'sunshine');
  });
});

describe("read on KICS's fixtures (dev-kics.json, tuned half): a template's functions and a name's number", () => {
  it("CLOUDFORMATION_FUNCTIONS (values.ts): every CloudFormation function written as a YAML tag is the template's expression", () => {
    untouched("Conditions:\n  HasPassword: !Not [!Equals [!Ref DBPassword, '']]");
    untouched('  MasterPassword: !Join ["", [!Ref Prefix, "-pw"]]');
    untouched("  DbPassword: !If [IsProd, !Ref ProdPassword, !Ref DevPassword]");
    untouched('  ApiKey: !Select [0, !Split [",", !Ref Keys]]');
    untouched('  Secret: !FindInMap [Env, !Ref Stage, Secret]');
  });

  it('a tag that is no CloudFormation function is a value a note may write: removed', () => {
    removed('password: !hunter2', '!hunter2');
    removed('db password: !Passw0rd', 'Passw0rd');
  });

  it('LITERAL_IN_A_FUNCTION (values.ts): !Sub with no ${…} and !Base64 carry the written value: removed (a review found them sent whole)', () => {
    removed("      MasterUserPassword: !Sub 'Sup3rS3cret!'", 'Sup3rS3cret!');
    removed('MasterUserPassword: !Sub Sup3rS3cret', 'Sup3rS3cret');
    removed('password: !Sub "Tr0ub4dor&3"', 'Tr0ub4dor&3');
    removed('password: !Base64 hunter2', 'hunter2');
    removed("Resources:\n  DB:\n    Properties:\n      MasterUsername: admin\n      MasterUserPassword: !Sub 'Sup3rS3cret!'\n", 'Sup3rS3cret!');
  });

  it('…while what they substitute or encode from elsewhere stays the template it is', () => {
    untouched("Password: !Sub '${DBPassword}'");
    untouched("MasterUserPassword: !Sub '{{resolve:secretsmanager:${DBSecret}:SecretString:password}}'");
    untouched('password: !Base64 !Ref Pw');
    untouched('UserData: !Base64 |');
    untouched("Other: !Sub 'arn:aws:s3:::${Bucket}/*'");
    untouched('  MasterUserPassword: !Ref DBPassword');
  });

  it('NAME_GOES_ON (context.ts): a number after a name glued to the word is the name\'s (a Protocol Buffers field number)', () => {
    untouched('message Keys {\n  google.protobuf.StringValue key_encryption_key=24;\n  string password = 64;\n}');
    untouched('token_ttl_seconds=3600');
  });

  it("a random value after such a name, and weak values after a credential's name: still removed", () => {
    removed('SECRET_KEY=password123', 'password123');
    removed('key_encryption_key=k8Zq2Xv9Lm4Rt7Wp', 'k8Zq2Xv9Lm4Rt7Wp');
    removed('DB_PASSWORD_PROD=12345678', '12345678');
    removed('password_2=1234', '1234');
  });

  it('a long number after a secret\'s name glued to its word is a value, not a field number: removed', () => {
    removed('aws_secret_access_key=918273645', '918273645');
  });
});
