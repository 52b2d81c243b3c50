import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScopedTokens, ScopedTokensConfigError, scopedTokensSummary } from './scoped-tokens-config';

const API_TOKEN = 'api-token-0123456789';
const SCOPE_PROBLEM = 'must be context:<id> or device:<id> (id 1–256 characters, no control characters, no spaces around it), or either with a prefix of the id and a final * (context:crm-*)';

describe('loadScopedTokens', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mobileclaw-scoped-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const problemsOf = (path: string, env: Record<string, string> = {}): string[] => {
    try {
      loadScopedTokens(path, env, API_TOKEN);
    } catch (err) {
      expect(err).toBeInstanceOf(ScopedTokensConfigError);
      return (err as Error).message.split('\n');
    }
    throw new Error('expected the file to be refused');
  };

  it('reads YAML tokens in file order: a token from the environment, a digest lower-cased, prefixes kept', () => {
    const digest = createHash('sha256').update('kiosk-token-0123456789').digest('hex').toUpperCase();
    const path = write(
      'tokens.yaml',
      ['tokens:', '  - name: crm-desk', '    token: ${CRM_TOKEN}', '    scopes: [context:crm-*, device:sim-1]', '  - name: kiosk', `    sha256: ${digest}`, '    scopes: ["device:*"]'].join('\n'),
    );
    expect(loadScopedTokens(path, { CRM_TOKEN: 'crm-token-0123456789' }, API_TOKEN)).toEqual([
      { name: 'crm-desk', token: 'crm-token-0123456789', scopes: ['context:crm-*', 'device:sim-1'] },
      { name: 'kiosk', sha256: digest.toLowerCase(), scopes: ['device:*'] },
    ]);
  });

  it('reads JSON, relative to the working directory given', () => {
    write('tokens.json', JSON.stringify({ tokens: [{ name: 'a', token: 'a-token-0123456789', scopes: ['context:a'] }] }));
    expect(loadScopedTokens('tokens.json', {}, API_TOKEN, dir)).toEqual([{ name: 'a', token: 'a-token-0123456789', scopes: ['context:a'] }]);
  });

  it('names the file and the key path of every problem, and never quotes a token', () => {
    const digest = createHash('sha256').update('same-token-0123456789').digest('hex');
    const path = write(
      'tokens.yaml',
      [
        'tokens:',
        '  - name: short',
        '    token: tooshort',
        '    scopes: [device:sim-1]',
        '  - name: short',
        '    token: ${UNSET_TOKEN}',
        '    scopes: ["*", "user:bob", "context:crm-*"]',
        '  - name: api',
        `    token: ${API_TOKEN}`,
        '    scopes: [device:sim-1]',
        '  - name: same',
        '    token: same-token-0123456789',
        '    scopes: [device:sim-1]',
        '  - name: same-digest',
        `    sha256: ${digest}`,
        '    scopes: [device:sim-1]',
      ].join('\n'),
    );
    const problems = problemsOf(path);
    expect(problems).toEqual([
      `scoped tokens ${path}: tokens[0].token: must be at least 16 characters`,
      `scoped tokens ${path}: tokens[1].name: short is given twice`,
      `scoped tokens ${path}: tokens[1].scopes[0]: ${SCOPE_PROBLEM}`,
      `scoped tokens ${path}: tokens[1].scopes[1]: ${SCOPE_PROBLEM}`,
      `scoped tokens ${path}: tokens[1].token: environment variable UNSET_TOKEN is not set`,
      `scoped tokens ${path}: tokens[2].token: is the same token as MOBILECLAW_API_TOKEN`,
      `scoped tokens ${path}: tokens[4].sha256: is the same token as tokens[3] (same)`,
    ]);
    expect(problems.join('\n')).not.toContain(API_TOKEN);
    expect(problems.join('\n')).not.toContain('tooshort');
  });

  it.each([
    ['an empty file', '', 'tokens: Invalid input: expected array, received undefined'],
    ['no tokens', 'tokens: []', 'tokens: tokens must list at least one token'],
    ['an unknown key', 'tokens: [{name: a, token: a-token-0123456789, scopes: [device:x], admin: true}]', 'tokens[0]: unknown key admin (allowed: name, token, sha256, scopes)'],
    ['a misspelt key', `tokens: [{name: a, sha265: "${'0'.repeat(64)}", scopes: [device:x]}]`, 'tokens[0]: unknown key sha265 (allowed: name, token, sha256, scopes)'],
    ['an unknown top-level key', 'tokens: [{name: a, token: a-token-0123456789, scopes: [device:x]}]\nadmins: []', 'unknown key admins (allowed: tokens)'],
    ['a token with spaces around it', 'tokens: [{name: a, token: "  a-token-0123456789  ", scopes: [device:x]}]', 'tokens[0].token: must be visible ASCII characters without spaces (as an Authorization header carries it)'],
    ['a token with a line end', 'tokens: [{name: a, token: "a-token-0123456789\\n", scopes: [device:x]}]', 'tokens[0].token: must be visible ASCII characters without spaces (as an Authorization header carries it)'],
    ['a token with a non-ASCII letter', 'tokens: [{name: a, token: tökén-sécret-0123456789, scopes: [device:x]}]', 'tokens[0].token: must be visible ASCII characters without spaces (as an Authorization header carries it)'],
    ['both token and sha256', `tokens: [{name: a, token: a-token-0123456789, sha256: "${'0'.repeat(64)}", scopes: [device:x]}]`, 'tokens[0]: give exactly one of token and sha256'],
    ['neither token nor sha256', 'tokens: [{name: a, scopes: [device:x]}]', 'tokens[0]: give exactly one of token and sha256'],
    ['a short digest', 'tokens: [{name: a, sha256: abc, scopes: [device:x]}]', 'tokens[0].sha256: sha256 must be the SHA-256 of the token in 64 hex digits'],
    ['no scopes', 'tokens: [{name: a, token: a-token-0123456789, scopes: []}]', 'tokens[0].scopes: scopes must name at least one memory scope'],
    ['a bad name', 'tokens: [{name: "a b", token: a-token-0123456789, scopes: [device:x]}]', 'tokens[0].name: name must be 1–64 of [A-Za-z0-9._-]'],
    ['a key given twice', 'tokens: [{name: a, token: a-token-0123456789, scopes: [device:x]}, {name: a, name: b, token: b-token-0123456789, scopes: [device:x]}]', 'tokens[1].name: given twice'],
  ])('refuses %s', (_case, text, problem) => {
    const path = write('tokens.yaml', text);
    expect(problemsOf(path)).toContain(`scoped tokens ${path}: ${problem}`);
  });

  it('never quotes a value that may be a token pasted in the wrong place', () => {
    const secret = 'Kx9-secret-token-0123456789';
    for (const text of [
      `tokens:\n  - name: a\n    token: *${secret}\n    scopes: [context:a]\n`,
      `tokens:\n  - name: a\n    ${secret}: x\n    token: a-token-0123456789\n    scopes: [context:a]\n`,
      `tokens:\n  - name: a\n    token: a-token-0123456789\n    scopes: [${secret}]\n`,
    ]) {
      const problems = problemsOf(write('tokens.yaml', text)).join('\n');
      expect(problems).toMatch(/^scoped tokens /);
      expect(problems).not.toContain(secret);
    }
    expect(problemsOf(write('tokens.yaml', `tokens:\n  - name: a\n    token: *${secret}\n`))).toEqual([
      `scoped tokens ${join(dir, 'tokens.yaml')}: not valid YAML or JSON: a value starting with * is read as an alias of an anchor that is not set; quote the value`,
    ]);
  });

  it('refuses a file that cannot be read or parsed', () => {
    expect(problemsOf(join(dir, 'missing.yaml'))).toEqual([`scoped tokens ${join(dir, 'missing.yaml')}: cannot be read (ENOENT)`]);
    const path = write('broken.yaml', 'tokens: [');
    expect(problemsOf(path)[0]).toMatch(new RegExp(`^scoped tokens ${path}: not valid YAML or JSON: `));
  });
});

describe('scopedTokensSummary', () => {
  it('lists names and scopes, never a token or a digest', () => {
    const summary = scopedTokensSummary([
      { name: 'crm-desk', token: 'crm-token-0123456789', scopes: ['context:crm-*'] },
      { name: 'kiosk', sha256: 'a'.repeat(64), scopes: ['device:kiosk-1', 'device:kiosk-2'] },
    ]);
    expect(summary).toBe('scoped API tokens: crm-desk (context:crm-*), kiosk (device:kiosk-1, device:kiosk-2)');
  });
});
