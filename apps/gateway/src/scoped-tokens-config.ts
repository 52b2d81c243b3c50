import { createHash } from 'node:crypto';
import { z } from 'zod';
import { MobileClawError, parseMemoryScopePattern } from '@mobileclaw/domain';
import type { ScopedApiToken } from '@mobileclaw/trigger-rest';
import { configKeyPath, readConfigFile, readConfigText, resolveEnvReferences, type ConfigFileProblem } from './config-file';

/** The shortest token accepted, in characters (as `MOBILECLAW_API_TOKEN`). */
const TOKEN_MIN_CHARS = 16;
/** What a bearer token may be made of: visible ASCII, no spaces. */
const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;

const TOKEN_ENTRY = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'name must be 1–64 of [A-Za-z0-9._-]'),
    token: z.string().optional(),
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'sha256 must be the SHA-256 of the token in 64 hex digits')
      .optional(),
    scopes: z.array(z.string()).min(1, 'scopes must name at least one memory scope'),
  })
  .refine((entry) => (entry.token === undefined) !== (entry.sha256 === undefined), { message: 'give exactly one of token and sha256' });

const TOKENS_FILE = z.strictObject({ tokens: z.array(TOKEN_ENTRY).min(1, 'tokens must list at least one token') });

/**
 * A scoped tokens file that cannot be used. The message is one line per problem, each
 * `scoped tokens <file>: <key path>: <what is wrong>`; it never quotes a token.
 */
export class ScopedTokensConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly ConfigFileProblem[],
  ) {
    super(problems.map((problem) => `scoped tokens ${file}: ${problem.path === '' ? '' : `${problem.path}: `}${problem.message}`).join('\n'));
    this.name = 'ScopedTokensConfigError';
  }
}

/**
 * Reads the scoped API tokens file `MOBILECLAW_SCOPED_TOKENS` (YAML or JSON):
 * `tokens: [{ name, token | sha256, scopes }]`, each token reaching the memory API of its scopes
 * (`device:sim-1`, `context:crm-*`; `parseMemoryScopePattern`). `${NAME}` in `token` is replaced by
 * the environment variable `NAME`, so the file need not hold the secret (nor does it with `sha256`).
 * @param path absolute, or relative to `cwd`.
 * @param apiToken `MOBILECLAW_API_TOKEN`, which no scoped token may equal.
 * @returns the tokens, in file order. They are secrets: never log them.
 * @throws ScopedTokensConfigError naming the file and the key path of every problem: unreadable file,
 *   YAML syntax, a key given twice or unknown, a missing field, a token under 16 characters, both or
 *   neither of `token` and `sha256`, an unset `${NAME}`, a bad scope, a name or a token given twice,
 *   a token equal to the API token.
 */
export function loadScopedTokens(path: string, env: Record<string, string | undefined>, apiToken: string | undefined, cwd = process.cwd()): ScopedApiToken[] {
  const source = readConfigFile(path, cwd);
  if ('problems' in source) throw new ScopedTokensConfigError(source.file, source.problems);
  const { file } = source;
  const read = readConfigText(source.text);
  if ('problems' in read) throw new ScopedTokensConfigError(file, read.problems);
  const parsed = TOKENS_FILE.safeParse(read.raw);
  // A key the file may not have is named only when it is too short to be a token (a typo such as
  // `sha265`): a longer one may be a token pasted on the wrong line.
  const messageOf = (issue: z.core.$ZodIssue) => {
    if (issue.code !== 'unrecognized_keys') return issue.message;
    const named = issue.keys.every((key) => /^[A-Za-z0-9_-]{1,15}$/.test(key)) ? ` ${issue.keys.join(', ')}` : '';
    return `unknown key${named} (allowed: ${issue.path.length === 0 ? 'tokens' : 'name, token, sha256, scopes'})`;
  };
  if (!parsed.success) throw new ScopedTokensConfigError(file, parsed.error.issues.map((issue) => ({ path: configKeyPath(issue.path), message: messageOf(issue) })));
  const problems: ConfigFileProblem[] = [];
  const names = new Set<string>();
  // Tokens by their SHA-256 (hex), so that a token given once as itself and once as a digest is caught too.
  const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
  const holders = new Map<string, string>(apiToken ? [[sha256(apiToken), 'MOBILECLAW_API_TOKEN']] : []);
  const claim = (digest: string, at: string, name: string) => {
    const holder = holders.get(digest);
    if (holder !== undefined) problems.push({ path: at, message: `is the same token as ${holder}` });
    else holders.set(digest, `${at.replace(/\.(token|sha256)$/, '')} (${name})`);
  };
  const tokens = parsed.data.tokens.map((entry, index): ScopedApiToken => {
    const at = `tokens[${index}]`;
    if (names.has(entry.name)) problems.push({ path: `${at}.name`, message: `${entry.name} is given twice` });
    names.add(entry.name);
    const scopes = entry.scopes.flatMap((scope, each) => {
      try {
        return [parseMemoryScopePattern(scope)];
      } catch (err) {
        if (!(err instanceof MobileClawError)) throw err;
        // The value is not quoted: it may be a token pasted on the wrong line.
        problems.push({ path: `${at}.scopes[${each}]`, message: 'must be context:<id> or device:<id> (id 1–256 characters, no control characters, no spaces around it), or either with a prefix of the id and a final * (context:crm-*)' });
        return [];
      }
    });
    if (entry.sha256 !== undefined) {
      claim(entry.sha256.toLowerCase(), `${at}.sha256`, entry.name);
      return { name: entry.name, sha256: entry.sha256.toLowerCase(), scopes };
    }
    const before = problems.length;
    const token = resolveEnvReferences(`${at}.token`, entry.token ?? '', env, problems);
    // An unset ${NAME} is its own problem; the empty value it leaves is not a second one.
    if (problems.length > before) return { name: entry.name, token, scopes };
    if (token.length < TOKEN_MIN_CHARS) problems.push({ path: `${at}.token`, message: `must be at least ${TOKEN_MIN_CHARS} characters` });
    // A space, a line end (a file read into ${NAME}) or a non-ASCII letter would make a token only a query parameter could carry.
    else if (!TOKEN_CHARACTERS.test(token)) problems.push({ path: `${at}.token`, message: 'must be visible ASCII characters without spaces (as an Authorization header carries it)' });
    else claim(sha256(token), `${at}.token`, entry.name);
    return { name: entry.name, token, scopes };
  });
  if (problems.length > 0) throw new ScopedTokensConfigError(file, problems);
  return tokens;
}

/** The start-up log's line of the scoped tokens: `scoped API tokens: <name> (<scope>, …), …` — names and scopes, never a token. */
export function scopedTokensSummary(tokens: readonly ScopedApiToken[]): string {
  return `scoped API tokens: ${tokens.map((token) => `${token.name} (${token.scopes.join(', ')})`).join(', ')}`;
}
