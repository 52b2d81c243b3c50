import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, toArray } from 'rxjs';
import type { ToolDescriptor, ToolInvocationContext } from '@mobileclaw/domain';
import { describeToolSourceContract } from '@mobileclaw/domain/testing';
import { createSkillsFolderSource, skillsRoots } from './create-skills-folder-source';
import { SkillsFolderSource, type SkillsFolderSourceOptions } from './skills-folder-source';

let tmp: string;
const sources: SkillsFolderSource[] = [];

beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'skills-')));
});

afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.close()));
  rmSync(tmp, { recursive: true, force: true });
});

/** Writes `<dir>/SKILL.md` with a front matter of `name`, `description` and `extra` YAML lines. */
function writeSkill(dir: string, name: string, options: { description?: string; extra?: string; body?: string } = {}): void {
  mkdirSync(dir, { recursive: true });
  const description = options.description ?? `The ${name} skill.`;
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n${options.extra ?? ''}---\n\n${options.body ?? `# ${name}\n\nStep one.`}\n`);
}

function source(options: Partial<SkillsFolderSourceOptions> & Pick<SkillsFolderSourceOptions, 'roots'>): SkillsFolderSource {
  const created = new SkillsFolderSource({ env: {}, debounceMs: 20, rootPollMs: 20, ...options });
  sources.push(created);
  return created;
}

function context(overrides: Partial<ToolInvocationContext> = {}): ToolInvocationContext {
  return { toolCallId: 'task-1:3', signal: new AbortController().signal, deadlineMs: 5000, ...overrides };
}

function names(tools: readonly ToolDescriptor[]): string[] {
  return tools.map((tool) => tool.name);
}

/** Resolves with the list once a change notification is followed by a list that satisfies `done`. */
function listedWhen(skills: SkillsFolderSource, done: (tools: ToolDescriptor[]) => boolean): Promise<ToolDescriptor[]> {
  return new Promise((resolve, reject) => {
    const subscription = skills.changes$.subscribe({
      next: () => {
        void skills.list().then((tools) => {
          if (!done(tools)) return;
          subscription.unsubscribe();
          resolve(tools);
        }, reject);
      },
      complete: () => reject(new Error('the source closed first')),
    });
  });
}

describeToolSourceContract('SkillsFolderSource', {
  async create() {
    writeSkill(join(tmp, 'skills', 'menu'), 'read-menu');
    writeSkill(join(tmp, 'skills', 'pay'), 'Pay invoice', { extra: 'metadata: {mobileclaw: {requires: {env: PAY_TOKEN}}}\n' });
    const skills = source({ roots: [{ label: 'workspace', path: join(tmp, 'skills') }] });
    await skills.watch();
    return skills;
  },
  async change() {
    writeSkill(join(tmp, 'skills', 'later', 'weather'), 'weather');
  },
});

describe('SkillsFolderSource: discovery', () => {
  it('finds skills up to six folders deep, not below a skill folder, not seven deep, not in hidden folders', async () => {
    const root = join(tmp, 'skills');
    writeSkill(join(root, 'top'), 'top');
    writeSkill(join(root, 'top', 'references', 'nested'), 'nested-in-a-skill');
    writeSkill(join(root, 'travel', 'restaurants', 'booking'), 'three-deep');
    writeSkill(join(root, 'd1', 'd2', 'd3', 'd4', 'd5', 'd6'), 'six-deep');
    writeSkill(join(root, 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7'), 'seven-deep');
    writeSkill(join(root, '.git', 'hooks'), 'hidden');
    writeSkill(join(root, 'node_modules', 'some-package'), 'installed');

    const skills = source({ roots: [{ label: 'workspace', path: root }] });

    expect((await skills.list()).map((tool) => [tool.name, tool.location])).toEqual([
      ['six-deep', 'workspace:d1/d2/d3/d4/d5/d6/SKILL.md'],
      ['three-deep', 'workspace:travel/restaurants/booking/SKILL.md'],
      ['top', 'workspace:top/SKILL.md'],
    ]);
    expect(await skills.issues()).toEqual([]);
  });

  it('describes each skill as a SKILL-mode tool: observation with no arguments unless its metadata says otherwise', async () => {
    const root = join(tmp, 'skills');
    writeSkill(join(root, 'menu'), 'read-menu', { description: 'Reads the menu of a restaurant in the Tables app.' });
    writeSkill(join(root, 'pay'), 'Pay invoice', {
      description: 'Pays an invoice in the Bank app.',
      extra: 'metadata:\n  mobileclaw:\n    kind: ACTION\n    inputSchema: {type: object, properties: {invoiceId: {type: string}}, required: [invoiceId]}\n',
    });

    const tools = await source({ roots: [{ label: 'workspace', path: root }], id: 'phone-skills' }).list();

    expect(tools).toEqual([
      {
        name: 'Pay_invoice',
        originalName: 'Pay invoice',
        description: 'Pays an invoice in the Bank app.',
        inputSchema: { type: 'object', properties: { invoiceId: { type: 'string' } }, required: ['invoiceId'] },
        kind: 'ACTION',
        mode: 'SKILL',
        source: { kind: 'skills', id: 'phone-skills' },
        location: 'workspace:pay/SKILL.md',
        eligibility: { eligible: true, missing: [] },
        available: true,
      },
      {
        name: 'read-menu',
        description: 'Reads the menu of a restaurant in the Tables app.',
        inputSchema: { type: 'object', properties: {} },
        kind: 'OBSERVATION',
        mode: 'SKILL',
        source: { kind: 'skills', id: 'phone-skills' },
        location: 'workspace:menu/SKILL.md',
        eligibility: { eligible: true, missing: [] },
        available: true,
      },
    ]);
  });

  it('reports each invalid SKILL.md and loads its valid siblings', async () => {
    const root = join(tmp, 'skills');
    writeSkill(join(root, 'good'), 'good');
    mkdirSync(join(root, 'bad-yaml'));
    writeFileSync(join(root, 'bad-yaml', 'SKILL.md'), '---\nname: bad-yaml\ndescription: [unclosed\n---\nBody\n');
    mkdirSync(join(root, 'huge'));
    const huge = `---\nname: huge\ndescription: Too big.\n---\n${'x'.repeat(2000)}\n`;
    writeFileSync(join(root, 'huge', 'SKILL.md'), huge);
    writeSkill(join(root, 'no-description'), 'no-description', { description: '' });
    mkdirSync(join(root, 'not-utf8'));
    writeFileSync(join(root, 'not-utf8', 'SKILL.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]));

    const skills = source({ roots: [{ label: 'workspace', path: root }], maxFileBytes: 1024 });

    expect(names(await skills.list())).toEqual(['good']);
    expect(await skills.issues()).toEqual([
      { kind: 'invalid', location: 'workspace:bad-yaml/SKILL.md', path: join(root, 'bad-yaml', 'SKILL.md'), message: expect.stringMatching(/^invalid YAML in the front matter at line 4, column 1: /) },
      { kind: 'too_large', location: 'workspace:huge/SKILL.md', path: join(root, 'huge', 'SKILL.md'), message: `SKILL.md is ${Buffer.byteLength(huge)} bytes; at most 1024 are read` },
      { kind: 'invalid', location: 'workspace:no-description/SKILL.md', path: join(root, 'no-description', 'SKILL.md'), message: '`description` is missing' },
      { kind: 'invalid', location: 'workspace:not-utf8/SKILL.md', path: join(root, 'not-utf8', 'SKILL.md'), message: 'SKILL.md is not valid UTF-8' },
    ]);
  });

  it('follows symbolic links that stay inside the root and reports those that leave it', async () => {
    const root = join(tmp, 'skills');
    const outside = join(tmp, 'elsewhere');
    writeSkill(join(outside, 'evil'), 'evil');
    writeFileSync(join(outside, 'secret.md'), '---\nname: secret\ndescription: Not to be read.\n---\n');
    writeSkill(join(root, '.library', 'pay-bills'), 'pay-bills');
    mkdirSync(join(root, 'linked-file'), { recursive: true });
    symlinkSync(join(outside, 'evil'), join(root, 'escape'));
    symlinkSync(join('..', '..', 'elsewhere', 'secret.md'), join(root, 'linked-file', 'SKILL.md'));
    symlinkSync(join('.library', 'pay-bills'), join(root, 'pay-bills'));
    symlinkSync('.', join(root, 'loop'));
    symlinkSync(join(tmp, 'nothing-here'), join(root, 'dangling'));

    const skills = source({ roots: [{ label: 'workspace', path: root }] });

    expect((await skills.list()).map((tool) => [tool.name, tool.location])).toEqual([['pay-bills', 'workspace:pay-bills/SKILL.md']]);
    expect(await skills.issues()).toEqual([
      { kind: 'unreadable', location: 'workspace:dangling', path: join(root, 'dangling'), message: 'cannot resolve the path: a symbolic link to nothing (ENOENT)' },
      { kind: 'symlink_escapes_root', location: 'workspace:escape', path: join(root, 'escape'), message: 'the symbolic link leads outside the skills folder workspace:; not followed' },
      {
        kind: 'symlink_escapes_root',
        location: 'workspace:linked-file/SKILL.md',
        path: join(root, 'linked-file', 'SKILL.md'),
        message: 'the symbolic link leads outside the skills folder workspace:; not followed',
      },
    ]);
  });

  it('lets the earlier root win a name and reports the later ones with what shadowed them', async () => {
    const dataDir = join(tmp, 'data');
    const extra = join(tmp, 'team-skills');
    const bundled = join(tmp, 'bundled');
    writeSkill(join(dataDir, 'skills', 'weather'), 'weather', { description: 'My weather.' });
    writeSkill(join(dataDir, 'skills', 'booking'), 'book.table', { description: 'My booking.' });
    writeSkill(join(extra, 'weather'), 'weather', { description: 'Team weather.' });
    writeSkill(join(extra, 'reserve'), 'book table', { description: 'Team booking.' });
    writeSkill(join(bundled, 'weather'), 'weather', { description: 'Shipped weather.' });
    writeSkill(join(bundled, 'clock'), 'clock', { description: 'Shipped clock.' });

    const skills = createSkillsFolderSource({ dataDir, extraRoots: [extra], bundledRoot: bundled }, { env: {} });
    sources.push(skills);

    expect((await skills.list()).map((tool) => [tool.name, tool.originalName, tool.description, tool.location])).toEqual([
      ['book_table', 'book.table', 'My booking.', 'workspace:booking/SKILL.md'],
      ['clock', undefined, 'Shipped clock.', 'bundled:clock/SKILL.md'],
      ['weather', undefined, 'My weather.', 'workspace:weather/SKILL.md'],
    ]);
    expect(await skills.issues()).toEqual([
      {
        kind: 'shadowed',
        location: 'extra1:reserve/SKILL.md',
        path: join(extra, 'reserve', 'SKILL.md'),
        name: 'book_table',
        shadowedBy: 'workspace:booking/SKILL.md',
        message: 'skill book_table is already defined by workspace:booking/SKILL.md, which takes precedence',
      },
      {
        kind: 'shadowed',
        location: 'extra1:weather/SKILL.md',
        path: join(extra, 'weather', 'SKILL.md'),
        name: 'weather',
        shadowedBy: 'workspace:weather/SKILL.md',
        message: 'skill weather is already defined by workspace:weather/SKILL.md, which takes precedence',
      },
      {
        kind: 'shadowed',
        location: 'bundled:weather/SKILL.md',
        path: join(bundled, 'weather', 'SKILL.md'),
        name: 'weather',
        shadowedBy: 'workspace:weather/SKILL.md',
        message: 'skill weather is already defined by workspace:weather/SKILL.md, which takes precedence',
      },
    ]);
  });

  it('orders the roots workspace, extra roots, bundled, and reports a configured root that does not exist', async () => {
    expect(skillsRoots({ dataDir: '/data', extraRoots: ['/a', '/b'], bundledRoot: '/opt/skills' })).toEqual([
      { label: 'workspace', path: join('/data', 'skills') },
      { label: 'extra1', path: '/a' },
      { label: 'extra2', path: '/b' },
      { label: 'bundled', path: '/opt/skills' },
    ]);
    const skills = createSkillsFolderSource({ dataDir: join(tmp, 'fresh'), extraRoots: [join(tmp, 'typo')] }, { env: {} });
    sources.push(skills);

    expect(await skills.list()).toEqual([]);
    expect(await skills.issues()).toEqual([
      { kind: 'root_missing', location: 'extra1:', path: join(tmp, 'typo'), message: 'the skills folder extra1: does not exist or is not a folder' },
    ]);
  });
});

describe('SkillsFolderSource: configuration', () => {
  it('refuses a source id unfit for a name prefix and ambiguous root labels', () => {
    expect(() => new SkillsFolderSource({ roots: [], id: 'my skills' })).toThrow('skills source id "my skills" must be 1–32 of [A-Za-z0-9_-]');
    expect(() => new SkillsFolderSource({ roots: [{ label: 'a', path: '/x' }, { label: 'a', path: '/y' }] })).toThrow('skills root labels must be non-empty and unique; "a" is not');
    expect(() => new SkillsFolderSource({ roots: [{ label: '', path: '/x' }] })).toThrow('skills root labels must be non-empty and unique; "" is not');
  });
});

describe('SkillsFolderSource: eligibility', () => {
  it('lists ineligible skills with what they miss: environment variables, programs on PATH, platforms', async () => {
    const bin = join(tmp, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'fakebin'), '#!/bin/sh\n');
    chmodSync(join(bin, 'fakebin'), 0o755);
    writeFileSync(join(bin, 'notexec'), 'data');
    chmodSync(join(bin, 'notexec'), 0o644);
    const root = join(tmp, 'skills');
    writeSkill(join(root, 'ready'), 'ready', { extra: 'metadata:\n  mobileclaw:\n    requires: {env: TOKEN_SET, bins: [fakebin], anyBins: [nothing, fakebin], os: linux}\n' });
    writeSkill(join(root, 'lacking'), 'lacking', {
      extra: 'metadata:\n  mobileclaw:\n    requires: {env: [TOKEN_SET, TOKEN_EMPTY, TOKEN_UNSET], bins: [fakebin, notexec, missingbin], anyBins: [a, b], os: [darwin, win32]}\n',
    });
    writeSkill(join(root, 'ported'), 'ported', { extra: 'metadata: {"openclaw":{"requires":{"bins":["op"],"env":["TOKEN_SET"]}}}\n' });

    const skills = source({ roots: [{ label: 'workspace', path: root }], env: { PATH: `${bin}:relative/dir`, TOKEN_SET: 'x', TOKEN_EMPTY: '' }, platform: 'linux' });

    expect((await skills.list()).map((tool) => [tool.name, tool.eligibility])).toEqual([
      ['lacking', { eligible: false, missing: ['env:TOKEN_EMPTY', 'env:TOKEN_UNSET', 'bin:notexec', 'bin:missingbin', 'anyBin:a|b', 'os:darwin|win32'] }],
      ['ported', { eligible: false, missing: ['bin:op'] }],
      ['ready', { eligible: true, missing: [] }],
    ]);
    const activation = await skills.invoke('lacking', {}, context());
    expect(activation).toMatchObject({ ok: true, content: { name: 'lacking', missing: ['env:TOKEN_EMPTY', 'env:TOKEN_UNSET', 'bin:notexec', 'bin:missingbin', 'anyBin:a|b', 'os:darwin|win32'] } });
  });
});

describe('SkillsFolderSource: activation', () => {
  it('answers the body only when a skill is activated', async () => {
    const root = join(tmp, 'skills');
    writeSkill(join(root, 'booking'), 'book-table', { body: '# Book a table\n\n1. Open Tables.\n2. Pick a time.' });
    const skills = source({ roots: [{ label: 'workspace', path: root }] });

    expect(JSON.stringify(await skills.list())).not.toContain('Pick a time');
    expect(await skills.invoke('book-table', {}, context())).toEqual({
      ok: true,
      content: { name: 'book-table', body: '# Book a table\n\n1. Open Tables.\n2. Pick a time.', truncated: false, bodyBytes: 47, missing: [] },
      text: '# Book a table\n\n1. Open Tables.\n2. Pick a time.',
    });
  });

  it('says so in text when a skill has no body, rather than answer an empty text', async () => {
    const root = join(tmp, 'skills');
    mkdirSync(join(root, 'bare'), { recursive: true });
    writeFileSync(join(root, 'bare', 'SKILL.md'), '---\nname: bare\ndescription: Opens the Clock app.\n---\n\n');
    const skills = source({ roots: [{ label: 'workspace', path: root }] });

    expect(await skills.invoke('bare', {}, context())).toEqual({
      ok: true,
      content: { name: 'bare', body: '', truncated: false, bodyBytes: 0, missing: [] },
      text: 'Skill bare has no instructions beyond its description: Opens the Clock app.',
    });
  });

  it('cuts a long body to the bound and says so', async () => {
    const root = join(tmp, 'skills');
    writeSkill(join(root, 'long'), 'long', { body: `Étape ${'é'.repeat(100)}` });
    const skills = source({ roots: [{ label: 'workspace', path: root }], maxBodyBytes: 10 });

    const result = await skills.invoke('long', {}, context());

    expect(result).toEqual({
      ok: true,
      // 'É' and 'é' are 2 bytes each: 'Étape é' is 9 bytes, one more 'é' would make 11.
      content: { name: 'long', body: 'Étape é', truncated: true, bodyBytes: 207, missing: [] },
      text: 'Étape é\n\n[SKILL.md body cut to its first 9 of 207 bytes]',
    });
  });

  it('answers a typed failure: unknown name, aborted, no time left, file gone, renamed or swapped for a link out of its root', async () => {
    const root = join(tmp, 'skills');
    writeSkill(join(root, 'gone'), 'gone');
    writeSkill(join(root, 'renamed'), 'renamed');
    writeSkill(join(root, 'kept'), 'kept');
    writeSkill(join(root, 'stays'), 'stays');
    const skills = source({ roots: [{ label: 'workspace', path: root }] });
    expect(names(await skills.list())).toEqual(['gone', 'kept', 'renamed', 'stays']);
    unlinkSync(join(root, 'gone', 'SKILL.md'));
    writeSkill(join(root, 'renamed'), 'new-name');
    writeFileSync(join(tmp, 'secret.md'), '---\nname: kept\ndescription: A file outside every root.\n---\nSecret.\n');
    unlinkSync(join(root, 'kept', 'SKILL.md'));
    symlinkSync(join(tmp, 'secret.md'), join(root, 'kept', 'SKILL.md'));
    const aborted = new AbortController();
    aborted.abort();

    expect(await skills.invoke('nope', {}, context())).toEqual({ ok: false, error: { code: 'TOOL_NOT_FOUND', message: `no skill named nope in ${root}`, retryable: false } });
    expect(await skills.invoke('stays', {}, context({ signal: aborted.signal }))).toEqual({ ok: false, error: { code: 'ABORTED', message: 'activation of skill stays aborted', retryable: true } });
    expect(await skills.invoke('stays', {}, context({ deadlineMs: 0 }))).toEqual({ ok: false, error: { code: 'TIMEOUT', message: 'no time left to read skill stays (deadline 0 ms)', retryable: true } });
    expect(await skills.invoke('gone', {}, context())).toMatchObject({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: expect.stringMatching(/^skill gone \(workspace:gone\/SKILL\.md\) changed since it was listed: ENOENT: no such file or directory/), retryable: true } });
    expect(await skills.invoke('kept', {}, context())).toEqual({
      ok: false,
      error: { code: 'TOOL_UNAVAILABLE', message: `skill kept (workspace:kept/SKILL.md) changed since it was listed: it now leads outside its skills folder workspace:`, retryable: true },
    });
    expect(await skills.invoke('renamed', {}, context())).toEqual({
      ok: false,
      error: { code: 'TOOL_UNAVAILABLE', message: 'skill renamed (workspace:renamed/SKILL.md) is now named new-name; list the tools again', retryable: true },
    });
    expect(await skills.invoke('stays', {}, context())).toMatchObject({ ok: true, content: { name: 'stays', body: '# stays\n\nStep one.' } });
  });
});

describe('SkillsFolderSource: changes', () => {
  it('announces a rescan that changed something, and only such a rescan', async () => {
    const root = join(tmp, 'skills');
    writeSkill(join(root, 'first'), 'first');
    const skills = source({ roots: [{ label: 'workspace', path: root }] });
    expect(names(await skills.list())).toEqual(['first']);
    const announced = firstValueFrom(skills.changes$);

    expect(await skills.refresh()).toBe(false);
    writeSkill(join(root, 'second'), 'second');
    expect(await skills.refresh()).toBe(true);

    await expect(announced).resolves.toEqual({ source: { kind: 'skills', id: 'workspace' } });
    expect(names(await skills.list())).toEqual(['first', 'second']);
  });

  it('picks up skills added, edited and removed while watching', async () => {
    const root = join(tmp, 'skills');
    writeSkill(join(root, 'first'), 'first');
    const skills = source({ roots: [{ label: 'workspace', path: root }] });
    await skills.watch();
    expect(names(await skills.list())).toEqual(['first']);

    const added = listedWhen(skills, (tools) => names(tools).includes('weather'));
    writeSkill(join(root, 'travel', 'weather'), 'weather', { description: 'Forecast.' });
    expect(names(await added)).toEqual(['first', 'weather']);

    const edited = listedWhen(skills, (tools) => tools.some((tool) => tool.description === 'Forecast for a city.'));
    writeSkill(join(root, 'travel', 'weather'), 'weather', { description: 'Forecast for a city.' });
    expect((await edited).find((tool) => tool.name === 'weather')?.description).toBe('Forecast for a city.');

    const removed = listedWhen(skills, (tools) => !names(tools).includes('first'));
    rmSync(join(root, 'first'), { recursive: true });
    expect(names(await removed)).toEqual(['weather']);
  });

  it('starts watching a root that appears after the watch began', async () => {
    const late = join(tmp, 'late');
    const skills = source({ roots: [{ label: 'late', path: late }] });
    await skills.watch();
    expect(await skills.issues()).toMatchObject([{ kind: 'root_missing' }]);

    const appeared = listedWhen(skills, (tools) => names(tools).includes('early-bird'));
    writeSkill(join(late, 'early-bird'), 'early-bird');
    expect(names(await appeared)).toEqual(['early-bird']);
    expect(await skills.issues()).toEqual([]);

    const nested = listedWhen(skills, (tools) => names(tools).includes('second'));
    writeSkill(join(late, 'more', 'second'), 'second');
    expect(names(await nested)).toEqual(['early-bird', 'second']);
  });

  it('completes its notifications when closed', async () => {
    const skills = source({ roots: [{ label: 'workspace', path: tmp }] });
    await skills.watch();
    const all = firstValueFrom(skills.changes$.pipe(toArray()));

    await skills.close();

    await expect(all).resolves.toEqual([]);
  });
});
