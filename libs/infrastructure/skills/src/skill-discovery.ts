import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { errorMessage } from './error-message';
import type { SkillIssue } from './skill-issue';

/** The SKILL.md file name, as the Agent Skills format spells it. */
export const SKILL_FILE_NAME = 'SKILL.md';

/** One folder skills are found in, with a label that names it in locations (`workspace`, `bundled`, …). */
export interface SkillsRoot {
  /** Short, unique among the roots, e.g. `workspace`, `extra1`, `bundled`. */
  label: string;
  /** The folder; resolved to an absolute path. */
  path: string;
}

/** How deep and how wide a walk goes. */
export interface SkillDiscoveryLimits {
  /** The deepest folder searched, counted from its root (a root's own SKILL.md is depth 0). */
  maxDepth: number;
  /** The most folders visited in one root. */
  maxFolders: number;
}

/** A SKILL.md the walk found. */
export interface SkillFileLocation {
  root: SkillsRoot;
  /** The absolute path as walked (through any in-root symbolic links). */
  path: string;
  /** Its path relative to the root, with `/` separators, e.g. `booking/SKILL.md`. */
  relativePath: string;
  /** Its real path (symbolic links resolved): the same file found twice is loaded once. */
  realPath: string;
  /** The root's real path, which {@link realPath} is inside. */
  rootRealPath: string;
}

/** What a walk of every root found: SKILL.md files in precedence order, and what it could not use. */
export interface SkillDiscovery {
  files: SkillFileLocation[];
  issues: SkillIssue[];
  /** The roots that exist (absolute paths), e.g. for a watcher to follow. */
  existingRoots: string[];
}

/** Folders never descended into: hidden ones (`.git`) and package installs. */
function isSkippedFolder(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** `root:relative/path` for a path within a root. */
export function skillLocation(root: SkillsRoot, path: string): string {
  return `${root.label}:${relative(resolve(root.path), path).split(sep).join('/')}`;
}

/**
 * Walks the roots in order, each depth-first with entries in code-unit order, and lists every
 * SKILL.md: a folder holding one is a skill and is not descended into (its sub-folders are its own
 * resources); hidden folders and `node_modules` are skipped; folders deeper than `maxDepth` are not
 * searched. A symbolic link (to a folder or to a SKILL.md) is followed only when its real path stays
 * inside its root's real path, else it is reported `symlink_escapes_root`; a folder reached twice
 * (link cycles, aliases) is walked once. Never rejects: what cannot be read is reported as an issue.
 */
export async function discoverSkillFiles(roots: readonly SkillsRoot[], limits: SkillDiscoveryLimits): Promise<SkillDiscovery> {
  const discovery: SkillDiscovery = { files: [], issues: [], existingRoots: [] };
  for (const configured of roots) {
    const root = { label: configured.label, path: resolve(configured.path) };
    const rootReal = await realFolder(root.path);
    if (!rootReal) {
      discovery.issues.push({ kind: 'root_missing', location: `${root.label}:`, path: root.path, message: `the skills folder ${root.label}: does not exist or is not a folder` });
      continue;
    }
    discovery.existingRoots.push(root.path);
    await new RootWalk(root, rootReal, limits, discovery).walk();
  }
  return discovery;
}

/** One root's walk. */
class RootWalk {
  private readonly visited = new Set<string>();
  private truncated = false;

  constructor(
    private readonly root: SkillsRoot,
    private readonly rootReal: string,
    private readonly limits: SkillDiscoveryLimits,
    private readonly discovery: SkillDiscovery,
  ) {}

  async walk(): Promise<void> {
    await this.folder(this.root.path, this.rootReal, 0);
  }

  private async folder(path: string, real: string, depth: number): Promise<void> {
    if (this.visited.has(real)) return;
    if (this.visited.size >= this.limits.maxFolders) {
      if (!this.truncated) this.report('scan_truncated', path, `more than ${this.limits.maxFolders} folders under ${this.root.path}; the rest were not searched`);
      this.truncated = true;
      return;
    }
    this.visited.add(real);
    let entries: Dirent[];
    try {
      entries = await readdir(path, { withFileTypes: true });
    } catch (err) {
      this.report('unreadable', path, `cannot read the folder: ${reason(err)}`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const skillFile = entries.find((entry) => entry.name === SKILL_FILE_NAME && (entry.isFile() || entry.isSymbolicLink()));
    if (skillFile) {
      await this.skillFile(join(path, SKILL_FILE_NAME), skillFile.isSymbolicLink());
      return;
    }
    if (depth >= this.limits.maxDepth) return;
    for (const entry of entries) {
      if (isSkippedFolder(entry.name)) continue;
      const child = join(path, entry.name);
      if (entry.isDirectory()) await this.folder(child, join(real, entry.name), depth + 1);
      else if (entry.isSymbolicLink()) {
        const target = await this.inRootTarget(child);
        if (target && (await isFolder(target))) await this.folder(child, target, depth + 1);
      }
    }
  }

  private async skillFile(path: string, isLink: boolean): Promise<void> {
    const real = isLink ? await this.inRootTarget(path) : await realpathOrReport(path, (message) => this.report('unreadable', path, message));
    if (!real) return;
    this.discovery.files.push({ root: this.root, path, relativePath: relative(this.root.path, path).split(sep).join('/'), realPath: real, rootRealPath: this.rootReal });
  }

  /** The real path of the symbolic link at `path` when it stays inside the root; else reports why not and gives undefined. */
  private async inRootTarget(path: string): Promise<string | undefined> {
    const real = await realpathOrReport(path, (message) => this.report('unreadable', path, message));
    if (real === undefined) return undefined;
    if (!isInside(real, this.rootReal)) {
      this.report('symlink_escapes_root', path, `the symbolic link leads outside the skills folder ${this.root.label}:; not followed`);
      return undefined;
    }
    return real;
  }

  private report(kind: SkillIssue['kind'], path: string, message: string): void {
    this.discovery.issues.push({ kind, location: skillLocation(this.root, path), path, message });
  }
}

/** The absolute paths of the roots that exist now (as folders), in order, without walking them. */
export async function existingSkillsRoots(roots: readonly SkillsRoot[]): Promise<string[]> {
  const existing: string[] = [];
  for (const root of roots) if (await realFolder(resolve(root.path))) existing.push(resolve(root.path));
  return existing;
}

/** True when the real path `real` is `rootReal` or inside it. */
export function isInside(real: string, rootReal: string): boolean {
  return real === rootReal || real.startsWith(rootReal.endsWith(sep) ? rootReal : rootReal + sep);
}

async function realFolder(path: string): Promise<string | undefined> {
  try {
    const real = await realpath(path);
    return (await stat(real)).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function realpathOrReport(path: string, report: (message: string) => void): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch (err) {
    report(`cannot resolve the path: ${reason(err)}`);
    return undefined;
  }
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'a symbolic link to nothing (ENOENT)';
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code})`;
  if (code === 'ELOOP') return 'a symbolic link loop (ELOOP)';
  return errorMessage(err);
}
