import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SkillsRoot } from './skill-discovery';
import { SkillsFolderSource, type SkillsFolderSourceOptions } from './skills-folder-source';

/** Where the gateway's skills live. */
export interface SkillsFolderLayout {
  /** The gateway's data folder: its `skills/` sub-folder is the workspace root, searched first. */
  dataDir: string;
  /** More folders, searched next, in this order (labels `extra1`, `extra2`, …). */
  extraRoots?: readonly string[];
  /** Skills shipped with the gateway, searched last (label `bundled`). */
  bundledRoot?: string;
}

/**
 * The roots of `layout` in precedence order: `<dataDir>/skills` (label `workspace`), then each extra
 * root, then the bundled one — so a person's own skill overrides a shipped one of the same name.
 */
export function skillsRoots(layout: SkillsFolderLayout): SkillsRoot[] {
  return [
    { label: 'workspace', path: join(layout.dataDir, 'skills') },
    ...(layout.extraRoots ?? []).map((path, index) => ({ label: `extra${index + 1}`, path })),
    ...(layout.bundledRoot === undefined ? [] : [{ label: 'bundled', path: layout.bundledRoot }]),
  ];
}

/**
 * A {@link SkillsFolderSource} over {@link skillsRoots}, without Nest. Creates `<dataDir>/skills` when
 * missing (the folder people are told to put skills in; the data folder is the gateway's own), so a
 * fresh gateway reports no missing workspace root and watches it from the start. Call `watch()` to
 * follow changes and `close()` on shutdown.
 * @throws Error from the file system when `<dataDir>/skills` cannot be created.
 */
export function createSkillsFolderSource(layout: SkillsFolderLayout, options: Omit<SkillsFolderSourceOptions, 'roots'> = {}): SkillsFolderSource {
  mkdirSync(join(layout.dataDir, 'skills'), { recursive: true });
  return new SkillsFolderSource({ ...options, roots: skillsRoots(layout) });
}
