import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * `hasProgram` for {@link SkillHost}: whether an executable file of that name is in one of the
 * directories of `pathValue` (a `PATH` value), or, for an absolute path, whether it is itself an
 * executable file. A name with a separator that is not absolute is never found (no lookups relative
 * to the gateway's working directory). Answers are cached for the lookup's life (one scan), so many
 * skills asking for the same program cost one search.
 */
export function createProgramLookup(pathValue: string | undefined): (name: string) => Promise<boolean> {
  const directories = (pathValue ?? '').split(delimiter).filter((directory) => directory !== '' && isAbsolute(directory));
  const answers = new Map<string, Promise<boolean>>();
  return (name) => {
    let answer = answers.get(name);
    if (!answer) {
      answer = isAbsolute(name) ? isExecutableFile(name) : /[\\/]/.test(name) || name === '' ? Promise.resolve(false) : findIn(directories, name);
      answers.set(name, answer);
    }
    return answer;
  };
}

async function findIn(directories: readonly string[], name: string): Promise<boolean> {
  for (const directory of directories) if (await isExecutableFile(join(directory, name))) return true;
  return false;
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
