import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LearnedSkill } from '@mobileclaw/domain';
import { createSkillsFolderSource } from './create-skills-folder-source';
import { parseLearnedSkill, renderLearnedSkill } from './learned-skill-file';
import { WorkspaceLearnedSkillStore } from './workspace-learned-skill-store';

const skill: LearnedSkill = {
  name: 'wifi-on',
  description: 'Turns Wi-Fi on.',
  learnedFrom: { taskId: 't-1', goal: 'Turn on Wi-Fi', planner: 'rule-based', deviceId: 'sim-1', learnedAt: '2026-12-01T23:00:00.000Z' },
  parameters: [
    { name: 'query', description: 'Text typed into EditText "Search" (step 3).', example: 'wi-fi: "on" # yes' },
    { name: 'password', description: 'Text typed into the password field EditText "Password" (step 4).', secret: true },
  ],
  steps: [
    { action: { command: 'open', app: 'com.android.settings' }, package: 'com.google.android.apps.nexuslauncher' },
    {
      action: { command: 'click', x: 964, y: 326 },
      package: 'com.android.settings',
      target: { type: 'Switch', desc: 'Wi-Fi', label: 'Wi-Fi', resourceId: 'com.android.settings:id/switch_widget', package: 'com.android.settings', bounds: [891, 263, 1038, 389], checkable: true, checked: false },
    },
    { action: { command: 'input', text: '{{query}}', clear: true }, package: 'com.android.settings' },
    { action: { command: 'input', text: '{{password}}' }, package: 'com.android.settings' },
    { action: { command: 'swipe', x1: 500, y1: 1500, x2: 500, y2: 500, durationMs: 300 } },
    { action: { command: 'back' } },
  ],
  final: { package: 'com.android.settings' },
};

describe('learned skills in the workspace skills folder', () => {
  let dataDir: string;
  let store: WorkspaceLearnedSkillStore;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-learned-store-'));
    store = new WorkspaceLearnedSkillStore(join(dataDir, 'skills'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes a SKILL.md that reads back as the same skill, and that the skills folder source lists', async () => {
    const { location: shown } = await store.create(skill);
    expect(shown).toBe('workspace:wifi-on/SKILL.md');
    const location = join(dataDir, 'skills', 'wifi-on', 'SKILL.md');
    // Only the file: the temporary one was renamed.
    expect(readdirSync(join(dataDir, 'skills', 'wifi-on'))).toEqual(['SKILL.md']);
    expect(readFileSync(location, 'utf8')).toBe(renderLearnedSkill(skill));
    // Private like the rest of the data directory.
    expect([join(dataDir, 'skills'), join(dataDir, 'skills', 'wifi-on'), location].map((path) => (statSync(path).mode & 0o777).toString(8))).toEqual(['700', '700', '600']);
    expect(await store.get('wifi-on')).toEqual(skill);
    expect(parseLearnedSkill(renderLearnedSkill(skill))).toEqual(skill);

    const source = createSkillsFolderSource({ dataDir });
    try {
      const [tool] = await source.list();
      expect(tool).toMatchObject({ name: 'wifi-on', description: 'Turns Wi-Fi on.', mode: 'SKILL', inputSchema: { type: 'object', properties: { query: { type: 'string', examples: ['wi-fi: "on" # yes'] }, password: { type: 'string' } } } });
    } finally {
      await source.close();
    }
  });

  it('refuses a name that is taken (SKILL_EXISTS) or no skill name (VALIDATION_FAILED), writing nothing', async () => {
    await store.create(skill);
    await expect(store.create({ ...skill, description: 'another' })).rejects.toMatchObject({
      code: 'SKILL_EXISTS',
      message: 'a skill named wifi-on exists already (workspace:wifi-on); choose another name',
    });
    expect(await store.get('wifi-on')).toEqual(skill);
    mkdirSync(join(dataDir, 'skills', 'empty-folder'));
    await expect(store.create({ ...skill, name: 'empty-folder' })).rejects.toMatchObject({ code: 'SKILL_EXISTS' });
    await expect(store.create({ ...skill, name: '../escape' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(readdirSync(dataDir)).toEqual(['skills']);
  });

  it('answers TOOL_NOT_FOUND for no such skill or a name that is none, SKILL_INVALID for a skill not learned from a task and a broken step', async () => {
    await expect(store.get('nothing-here')).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND', message: 'no learned skill nothing-here (no workspace:nothing-here/SKILL.md)' });
    await expect(store.get('../etc')).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND', message: 'no learned skill "../etc": not a skill name' });
    mkdirSync(join(dataDir, 'skills', 'written'), { recursive: true });
    writeFileSync(join(dataDir, 'skills', 'written', 'SKILL.md'), '---\nname: written\ndescription: By hand.\n---\nDo things.\n');
    await expect(store.get('written')).rejects.toMatchObject({ code: 'SKILL_INVALID', message: expect.stringContaining('`metadata.mobileclaw.learned` is missing') });
    await store.create(skill);
    const location = join(dataDir, 'skills', skill.name, 'SKILL.md');
    writeFileSync(location, readFileSync(location, 'utf8').replace('command: back', 'command: fly'));
    await expect(store.get('wifi-on')).rejects.toMatchObject({ code: 'SKILL_INVALID', message: expect.stringContaining('`metadata.mobileclaw.learned.steps.5.action.command` must be one of open, click, long_press, swipe, input, back, home') });
  });
});
