import { SkillFileError, parseSkillFile } from './skill-file';
import { boundSkillBody } from './skill-body';

function failure(text: string): string {
  try {
    parseSkillFile(text);
  } catch (err) {
    expect(err).toBeInstanceOf(SkillFileError);
    return (err as Error).message;
  }
  throw new Error('parsed');
}

describe('parseSkillFile', () => {
  it('reads name, description and the body after the front matter, with defaults for the rest', () => {
    const file = parseSkillFile('---\nname: book-table\ndescription: Books a table in the Tables app.\nlicense: MIT\n---\n\n# Book a table\n\n1. Open Tables.\n');
    expect(file).toEqual({
      definition: {
        name: 'book-table',
        description: 'Books a table in the Tables app.',
        kind: 'OBSERVATION',
        inputSchema: { type: 'object', properties: {} },
        requirements: { env: [], bins: [], anyBins: [], os: [] },
      },
      body: '# Book a table\n\n1. Open Tables.',
    });
  });

  it('accepts a byte-order mark, CRLF lines, a `...` end marker and an empty body', () => {
    expect(parseSkillFile('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\nBody\r\n').body).toBe('Body');
    expect(parseSkillFile('---\nname: a\ndescription: b\n...\nBody').body).toBe('Body');
    expect(parseSkillFile('---\nname: a\ndescription: b\n---').body).toBe('');
  });

  it('reads kind, input schema and requirements from metadata.mobileclaw, as a mapping or as JSON', () => {
    const mapping = parseSkillFile(
      [
        '---',
        'name: pay-invoice',
        'description: Pays an invoice.',
        'metadata:',
        '  author: finance',
        '  mobileclaw:',
        '    kind: ACTION',
        '    inputSchema: {type: object, properties: {invoiceId: {type: string}}, required: [invoiceId]}',
        '    requires: {env: [BANK_TOKEN], bins: jq, anyBins: [chromium, google-chrome], os: [linux, darwin]}',
        '---',
        'Pay it.',
      ].join('\n'),
    ).definition;
    expect(mapping).toMatchObject({
      kind: 'ACTION',
      inputSchema: { type: 'object', properties: { invoiceId: { type: 'string' } }, required: ['invoiceId'] },
      requirements: { env: ['BANK_TOKEN'], bins: ['jq'], anyBins: ['chromium', 'google-chrome'], os: ['linux', 'darwin'] },
    });
    const json = parseSkillFile('---\nname: a\ndescription: b\nmetadata:\n  mobileclaw: \'{"kind":"ACTION","requires":{"env":["X"]}}\'\n---\n').definition;
    expect(json).toMatchObject({ kind: 'ACTION', requirements: { env: ['X'], bins: [], anyBins: [], os: [] } });
  });

  it('counts the requirements of skills written for OpenClaw gateways, under either spelling', () => {
    const { requirements } = parseSkillFile(
      '---\nname: op\ndescription: 1Password CLI.\nmetadata: {"clawdbot":{"requires":{"bins":["op"]}},"openclaw":{"os":["darwin"],"requires":{"env":["OP_TOKEN"],"bins":["op","jq"]}}}\n---\n',
    ).definition;
    expect(requirements).toEqual({ env: ['OP_TOKEN'], bins: ['op', 'jq'], anyBins: [], os: ['darwin'] });
  });

  it('keeps a name that is not a valid tool name as written: sanitising is the source’s', () => {
    expect(parseSkillFile('---\nname: "  Réserver une table  "\ndescription: b\n---\n').definition.name).toBe('Réserver une table');
  });

  it('says what is wrong with an invalid file, and where', () => {
    expect(failure('# Just Markdown\n')).toBe('SKILL.md must start with a YAML front matter: a `---` line, the keys, another `---` line');
    expect(failure('---\nname: a\ndescription: b\n')).toBe('the front matter has no closing `---` line');
    expect(failure('---\nname: a\ndescription: [unclosed\n---\n')).toMatch(/^invalid YAML in the front matter at line 4, column 1: /);
    expect(failure('---\nname: a\nname: b\ndescription: c\n---\n')).toBe('invalid YAML in the front matter at line 3, column 1: Map keys must be unique');
    expect(failure('---\n- a\n- b\n---\n')).toBe('the front matter must be a mapping of keys to values');
    expect(failure('---\n---\n')).toBe('the front matter must be a mapping of keys to values');
    expect(failure('---\ndescription: b\n---\n')).toBe('`name` is missing');
    expect(failure('---\nname: 42\ndescription: b\n---\n')).toBe('`name` must be a string, not number 42');
    expect(failure('---\nname: a\ndescription: "  "\n---\n')).toBe('`description` is empty');
    expect(failure(`---\nname: a\ndescription: ${'d'.repeat(1025)}\n---\n`)).toBe('`description` has 1025 characters; at most 1024 are allowed');
    expect(failure('---\nname: a\ndescription: b\nmetadata: [x]\n---\n')).toBe('`metadata` must be a mapping');
    expect(failure('---\nname: a\ndescription: b\nmetadata: {mobileclaw: {kind: WRITE}}\n---\n')).toBe('`metadata.mobileclaw.kind` must be OBSERVATION or ACTION, not string "WRITE"');
    expect(failure('---\nname: a\ndescription: b\nmetadata: {mobileclaw: {inputSchema: {type: string}}}\n---\n')).toBe(
      '`metadata.mobileclaw.inputSchema` must be a JSON Schema object with `type: object`',
    );
    expect(failure('---\nname: a\ndescription: b\nmetadata: {mobileclaw: "{not json"}\n---\n')).toBe('`metadata.mobileclaw` is a string but not JSON');
    expect(failure('---\nname: a\ndescription: b\nmetadata: {openclaw: {requires: {bins: [1]}}}\n---\n')).toBe('`metadata.openclaw.requires.bins` must be a non-empty string or a list of them');
  });

  it('refuses an alias expansion bomb instead of expanding it', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 8; level++) levels.push(`${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10).fill(`*${String.fromCharCode(96 + level)}`).join(', ')}]`);
    expect(failure(`---\nname: a\ndescription: b\n${levels.join('\n')}\n---\n`)).toMatch(/^invalid YAML in the front matter: Excessive alias count/);
  });
});

describe('boundSkillBody', () => {
  it('keeps a body within the bound whole', () => {
    expect(boundSkillBody('# Steps', 7)).toEqual({ text: '# Steps', truncated: false, bytes: 7 });
  });

  it('cuts a longer body at a character boundary, never inside a UTF-8 sequence', () => {
    // 'é' is 2 bytes, '€' 3: a bound of 4 falls inside the '€'.
    expect(boundSkillBody('aé€b', 4)).toEqual({ text: 'aé', truncated: true, bytes: 7 });
    expect(boundSkillBody('aé€b', 6)).toEqual({ text: 'aé€', truncated: true, bytes: 7 });
    expect(boundSkillBody('😀😀', 5)).toEqual({ text: '😀', truncated: true, bytes: 8 });
  });
});
