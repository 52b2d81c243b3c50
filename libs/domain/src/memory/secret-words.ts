/**
 * Words that say a text is about a credential: password, passcode, passphrase, PIN, one-time or
 * verification code, secret, token, and their Chinese forms. A task whose goal says one of them may
 * carry the credential in its own words ("type Panda42 into Password") before any step shows which
 * field is a password field, so its words never reach memory.
 */
const SECRET_WORDS = /\b(pass(?:word|code|phrase)s?|pins?|otp|one[- ]time (?:code|password)|verification code|secrets?|(?:api |access |auth )?tokens?|credentials?)\b|密码|口令|验证码|校验码|动态码|令牌|密钥/iu;

/** True when `text` mentions a credential ({@link SECRET_WORDS}), e.g. `type 1234 as my PIN`, `输入密码123`. */
export function mentionsSecret(text: string): boolean {
  return SECRET_WORDS.test(text);
}
