/**
 * Review of the seventeenth session's redaction merges (qa-review-18). Each `removed` case fails on 539ca3f5; the
 * guards beside them pass before and after. Every value here is made up.
 */
import { describe, it } from 'vitest';
import { removed, untouched } from '../helpers/redaction.js';

describe('CLOUDFORMATION_PLAIN_ITEMS: an unquoted literal in the function\'s list is a literal too (cloudformation.ts)', () => {
  it('a plain item where a value goes is removed, as a quoted one is (kept on 539ca3f5)', () => {
    // YAML's flow style needs no quotes, and AWS's own examples write none (`!Join [ ":", [ a, b, c ] ]`).
    removed('      MasterUserPassword: !If [IsProd, Pr0dS3cret!x, devpass]', 'Pr0dS3cret!x');
    removed('      MasterUserPassword: !If [IsProd, Xk92pqLm7abcQ, changeme]', 'Xk92pqLm7abcQ');
    removed('  DBPassword: !Select [0, [Pr0dS3cret!x, Other0ne!x]]', 'Pr0dS3cret!x');
    removed('  DBPassword: !Select [0, [Pr0dS3cret!x, Other0ne!x]]', 'Other0ne!x');
    removed("MasterUserPassword: !Join ['', [Sup3r, S3cret!x9]]", 'S3cret!x9');
    removed("MasterUserPassword: !Join ['', [Sup3r, S3cret!x9]]", 'Sup3r');
    removed("ApiKey: !If [UseStaging, Xk92pqLm7abcQ41z, !Ref ProdApiKey]", 'Xk92pqLm7abcQ41z');
  });

  it('the condition\'s name, the index, a tagged item, a placeholder and a key that is no credential stay', () => {
    untouched('MasterUserPassword: !If [IsProd, !Ref ProdPassword, !Ref DevPassword]');
    untouched('MasterUserPassword: !If [UseTheProdSecret1, !Ref ProdPassword, !GetAtt Secret.Arn]');
    untouched('MasterUserPassword: !Select [0, !Ref PasswordList]');
    untouched("MasterUserPassword: !Join ['', ['{{resolve:secretsmanager:', !Ref DBSecret, ':SecretString:password}}']]");
    untouched('MasterUserPassword: !If [IsProd, ${ProdPassword}, <your-password>]');
    untouched('BucketName: !Join [-, [app, Sup3rS3cret]]');
    untouched('PasswordPolicy: !If [IsProd, strict, relaxed]');
  });
});

describe('CODE_SYMBOL_NAME: a word joined to more by a hyphen is no name of the code (context.ts)', () => {
  it('a value of words joined by hyphens glued to a spaced colon is removed (removed on 6acbf282, kept on 539ca3f5)', () => {
    removed('Password for prod :correct-horse-battery-staple', 'correct-horse');
    removed('Password for the NAS :trombone-Cactus-42', 'trombone-Cactus');
  });

  it('a symbol, and a route\'s parameters joined by a hyphen, stay', () => {
    untouched('- `generates_token_for :password_reset` for reset tokens');
    untouched('PUT /users/:id/password/:token');
    untouched('GET /password-resets/:from-:to');
    untouched('before_action :require_password, only: :update');
  });
});
