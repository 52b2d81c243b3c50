import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { LearnedSkillStore, MobileClawError, PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE, skillNameError, type LearnedSkill } from '@mobileclaw/domain';
import { errorMessage } from './error-message';
import { parseLearnedSkill, renderLearnedSkill } from './learned-skill-file';
import { SKILL_FILE_NAME } from './skill-discovery';

/** The label the skills folder source gives the workspace root (`<dataDir>/skills`) in locations. */
const WORKSPACE_ROOT_ID = 'workspace';

/**
 * Learned skills as SKILL.md folders in the workspace skills root (`<dataDir>/skills/<name>/SKILL.md`),
 * the root the gateway's skills folder source searches first and watches, so a saved skill is listed
 * like any other.
 *
 * Writing is all or nothing: the skill's folder is created first (`mkdir`, which fails when the name is
 * taken, so two saves of one name cannot both win), the file is written under a temporary name the
 * discovery ignores, flushed, then renamed to `SKILL.md`; a reader or the watcher sees no skill or the
 * whole skill, never part of one. A failed write removes what it made.
 */
export class WorkspaceLearnedSkillStore extends LearnedSkillStore {
  private readonly root: string;

  /** @param root the workspace skills root, e.g. `<dataDir>/skills` (created when missing). */
  constructor(root: string) {
    super();
    this.root = resolve(root);
  }

  /**
   * @returns the SKILL.md's `location` as the skills source names it (`workspace:<name>/SKILL.md`):
   *   no absolute path leaves the gateway, in answers or in error messages.
   * @throws MobileClawError `VALIDATION_FAILED` (a bad name), `SKILL_EXISTS` (a folder of that name is in the root), `STORAGE_ERROR`.
   */
  override async create(skill: LearnedSkill): Promise<{ location: string }> {
    const nameError = skillNameError(skill.name);
    if (nameError) throw new MobileClawError('VALIDATION_FAILED', nameError, { fieldErrors: [{ field: 'name', message: nameError }] });
    const folder = join(this.root, skill.name);
    const text = renderLearnedSkill(skill);
    try {
      // Private like the rest of the data directory.
      await mkdir(this.root, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
      await mkdir(folder, { mode: PRIVATE_DIRECTORY_MODE });
    } catch (err) {
      if (isCode(err, 'EEXIST')) throw new MobileClawError('SKILL_EXISTS', `a skill named ${skill.name} exists already (${this.shown(folder)}); choose another name`);
      throw new MobileClawError('STORAGE_ERROR', `cannot create the skill folder ${this.shown(folder)}: ${this.message(err)}`);
    }
    const location = join(folder, SKILL_FILE_NAME);
    const temporary = join(folder, `.${SKILL_FILE_NAME}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const file = await open(temporary, 'wx', PRIVATE_FILE_MODE);
      try {
        await file.writeFile(text, 'utf8');
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, location);
      return { location: this.shown(location) };
    } catch (err) {
      await rm(temporary, { force: true }).catch(() => undefined);
      await rmdir(folder).catch(() => undefined);
      throw new MobileClawError('STORAGE_ERROR', `cannot write ${this.shown(location)}: ${this.message(err)}`);
    }
  }

  /**
   * @throws MobileClawError `TOOL_NOT_FOUND` (no such folder or SKILL.md, a name that is no skill name),
   *   `SKILL_INVALID` (a file that is no valid learned skill, e.g. edited by hand: the message says why),
   *   `STORAGE_ERROR`.
   */
  override async get(name: string): Promise<LearnedSkill> {
    // Only a valid name is joined to the root: nothing outside it can be named.
    if (skillNameError(name)) throw new MobileClawError('TOOL_NOT_FOUND', `no learned skill ${JSON.stringify(name)}: not a skill name`);
    const location = join(this.root, name, SKILL_FILE_NAME);
    let text: string;
    try {
      text = await readFile(location, 'utf8');
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) throw new MobileClawError('TOOL_NOT_FOUND', `no learned skill ${name} (no ${this.shown(location)})`);
      throw new MobileClawError('STORAGE_ERROR', `cannot read ${this.shown(location)}: ${this.message(err)}`);
    }
    let skill: LearnedSkill;
    try {
      skill = parseLearnedSkill(text);
    } catch (err) {
      throw new MobileClawError('SKILL_INVALID', `${this.shown(location)} is no learned skill that can be replayed: ${this.message(err)}`);
    }
    if (skill.name !== name) throw new MobileClawError('SKILL_INVALID', `${this.shown(location)} names the skill ${skill.name}, not ${name}: a learned skill's folder has its name`);
    return skill;
  }

  /** `path` under the root as the skills source shows it: `workspace:<relative path>`. */
  private shown(path: string): string {
    return `${WORKSPACE_ROOT_ID}:${relative(this.root, path).split(sep).join('/')}`;
  }

  /** An error's message with the root's absolute path written as `workspace:`. */
  private message(err: unknown): string {
    return errorMessage(err).split(`${this.root}${sep}`).join(`${WORKSPACE_ROOT_ID}:`).split(this.root).join(`${WORKSPACE_ROOT_ID}:`);
  }
}

function isCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}
