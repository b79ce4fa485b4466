/**
 * Review of the sixteenth session's redaction merges (qa-review-17b): secrets a new "this is no value" reading let
 * leave the machine. Each `removed` case fails on 043cc918; the guards beside them pass before and after. Every
 * value here is made up.
 */
import { describe, it } from 'vitest';
import { removed, untouched } from '../helpers/redaction.js';

describe('SYMBOL_NOT_SEPARATOR skips only a symbol or a route parameter, not a value glued to a spaced colon (context.ts)', () => {
  it('a value glued after a label\'s spaced colon is still that value (removed on 6acbf282, kept on 043cc918)', () => {
    removed('Password for prod :Sup3rS3cret!', 'Sup3rS3cret');
    removed('credentials :Xk92pqLm7abc', 'Xk92pqLm7abc');
    removed('Password for the NAS :hunter22', 'hunter22');
    removed('Password for the NAS :letmein', 'letmein');
  });

  it('a Ruby symbol or a route parameter, a name of the code, still stays', () => {
    untouched('- Auth via `has_secure_password` (no Devise), `generates_token_for :password_reset` for reset tokens');
    untouched('- **Password Reset:** `/forgot-password`, `/reset-password/:token`');
    untouched('PUT /users/:id/password/:token');
    untouched('secrets.PATCH("/:secret", api.PatchGlobalSecret)');
    untouched('GET /password/:resetToken');
  });
});

describe('CLOUDFORMATION_LITERALS: the literals a function returns, picks or joins under a credential\'s key (cloudformation.ts)', () => {
  it('each literal that may be the value is removed (left by 6acbf282 and 043cc918, and by 7a49815)', () => {
    removed("MasterUserPassword: !If [IsProd, 'Pr0dS3cret!x', 'devpass']", 'Pr0dS3cret!x');
    removed('  DBPassword: !Select [0, ["Pr0dS3cret!x", "Other0ne!x"]]', 'Pr0dS3cret!x');
    removed('  DBPassword: !Select [0, ["Pr0dS3cret!x", "Other0ne!x"]]', 'Other0ne!x');
    removed("MasterUserPassword: !Join ['', ['Sup3r','S3cret!']]", 'Sup3r');
    removed("MasterUserPassword: !Join ['', ['Sup3r','S3cret!']]", 'S3cret!');
    removed("ApiKey: !If [UseStaging, 'Xk92pqLm7abcQ41z', !Ref ProdApiKey]", 'Xk92pqLm7abcQ41z');
  });

  it('what the stack computes, a placeholder and a key that is no credential stay', () => {
    untouched('MasterUserPassword: !If [IsProd, !Ref ProdPassword, !Ref DevPassword]');
    untouched("MasterUserPassword: !Join ['', ['{{resolve:secretsmanager:', !Ref DBSecret, ':SecretString:password}}']]");
    untouched("MasterUserPassword: !If [IsProd, '${ProdPassword}', '<your-password>']");
    untouched("BucketName: !Join ['-', ['app', 'Sup3rS3cret']]");
    untouched("PasswordPolicy: !If [IsProd, 'strict', 'relaxed']");
  });
});
