import { open, realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { Subject, type Observable } from 'rxjs';
import {
  TOOL_SOURCE_ID_PATTERN,
  ToolSource,
  sanitizeToolName,
  toolEligibility,
  toolFailure,
  toolSuccess,
  type ToolDescriptor,
  type ToolInvocationContext,
  type ToolInvocationResult,
  type ToolSourceChange,
  type ToolSourceRef,
} from '@mobileclaw/domain';
import { errorMessage } from './error-message';
import { boundSkillBody } from './skill-body';
import { SKILL_FILE_NAME, discoverSkillFiles, existingSkillsRoots, isInside, skillLocation, type SkillFileLocation, type SkillsRoot } from './skill-discovery';
import { SkillFileError, parseSkillFile, type SkillFile } from './skill-file';
import type { SkillIssue } from './skill-issue';
import { createProgramLookup } from './program-lookup';
import { missingRequirements } from './skill-requirements';

/** Defaults of {@link SkillsFolderSourceOptions}. */
export const SKILLS_FOLDER_DEFAULTS = {
  id: 'workspace',
  maxDepth: 6,
  maxFolders: 10_000,
  /** 256 KiB: far above the format's advice (under 500 lines), small enough to read whole. */
  maxFileBytes: 256 * 1024,
  /** 32 KiB of instructions (about 8,000 tokens) at most in a model's context per activation. */
  maxBodyBytes: 32 * 1024,
  debounceMs: 250,
  rootPollMs: 2000,
} as const;

/** How a {@link SkillsFolderSource} finds, checks and serves skills. */
export interface SkillsFolderSourceOptions {
  /** The folders to search, highest precedence first: of two skills with one name, the earlier root's wins. */
  roots: readonly SkillsRoot[];
  /** The source id in `skills:<id>`; default `workspace`. */
  id?: string;
  /** The environment requirements are checked against (`env:` and `PATH` for `bin:`); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The platform `os:` requirements are checked against; default `process.platform`. */
  platform?: string;
  /** Deepest folder searched below a root; default 6. */
  maxDepth?: number;
  /** Most folders visited per root; default 10,000. */
  maxFolders?: number;
  /** Largest SKILL.md read, in bytes; larger ones are reported `too_large`. Default 256 KiB. */
  maxFileBytes?: number;
  /** Largest body an activation returns, in bytes of UTF-8; a longer one is cut. Default 32 KiB. */
  maxBodyBytes?: number;
  /** Quiet time after the last file event before the folders are scanned again, in ms; default 250. */
  debounceMs?: number;
  /** While watching, how often roots that do not exist are looked for again, in ms; default 2,000. */
  rootPollMs?: number;
}

/** The content of a successful activation ({@link SkillsFolderSource.invoke}). */
export interface SkillActivation {
  /** The skill's tool name. */
  name: string;
  /** Its instructions: the SKILL.md body (Markdown), cut to `maxBodyBytes`. */
  body: string;
  /** True when `body` was cut. */
  truncated: boolean;
  /** The whole body's size, in bytes of UTF-8. */
  bodyBytes: number;
  /** What the host lacks for the skill (its eligibility's `missing`); following it may fail when not empty. */
  missing: string[];
  [key: string]: string | boolean | number | string[];
}

interface LoadedSkill {
  descriptor: ToolDescriptor;
  file: SkillFileLocation;
}

interface Snapshot {
  skills: Map<string, LoadedSkill>;
  descriptors: ToolDescriptor[];
  issues: SkillIssue[];
  existingRoots: string[];
}

/**
 * SKILL.md skills as a {@link ToolSource} (execution mode `SKILL`). Each valid SKILL.md under the
 * roots is one tool: its sanitised `name`, its `description`, kind `OBSERVATION` unless its metadata
 * says `ACTION`, its declared input schema or none, its eligibility from its requirements (see
 * `skill-file.ts`). Listing gives only that; invoking a skill (activating it) reads its body then —
 * progressive disclosure: the planner carries every skill's description, and only the instructions
 * it chose. What the scan could not use is in {@link issues}.
 *
 * The folders are scanned on the first {@link list} (or {@link issues}, {@link refresh}); after
 * {@link watch} every change under a root rescans them once the files are quiet for `debounceMs`, and
 * {@link changes$} emits when the list or the issues changed. {@link close} stops watching.
 */
export class SkillsFolderSource extends ToolSource {
  readonly ref: ToolSourceRef;
  private readonly changes = new Subject<ToolSourceChange>();
  readonly changes$: Observable<ToolSourceChange> = this.changes.asObservable();

  private readonly roots: readonly SkillsRoot[];
  private readonly env: Readonly<Record<string, string | undefined>>;
  private readonly platform: string;
  private readonly limits: Required<Omit<SkillsFolderSourceOptions, 'roots' | 'id' | 'env' | 'platform'>>;
  private snapshot: Snapshot | undefined;
  /** Scans run one after the other: each starts when the previous one ended. */
  private scanQueue: Promise<unknown> = Promise.resolve();
  private watching = false;
  /** One watcher per existing root, by the root's absolute path. */
  private readonly watchers = new Map<string, FSWatcher>();
  private debounce: NodeJS.Timeout | undefined;
  private rootPoll: NodeJS.Timeout | undefined;
  private closed = false;

  /** @throws Error when `id` does not match `TOOL_SOURCE_ID_PATTERN`, or a root label is empty or used twice. */
  constructor(options: SkillsFolderSourceOptions) {
    super();
    const id = options.id ?? SKILLS_FOLDER_DEFAULTS.id;
    if (!TOOL_SOURCE_ID_PATTERN.test(id)) throw new Error(`skills source id ${JSON.stringify(id)} must be 1–32 of [A-Za-z0-9_-]`);
    const labels = options.roots.map((root) => root.label);
    const badLabel = labels.find((label, index) => label === '' || labels.indexOf(label) !== index);
    if (badLabel !== undefined) throw new Error(`skills root labels must be non-empty and unique; ${JSON.stringify(badLabel)} is not`);
    this.ref = { kind: 'skills', id };
    this.roots = options.roots.map((root) => ({ label: root.label, path: resolve(root.path) }));
    this.env = options.env ?? process.env;
    this.platform = options.platform ?? process.platform;
    this.limits = {
      maxDepth: options.maxDepth ?? SKILLS_FOLDER_DEFAULTS.maxDepth,
      maxFolders: options.maxFolders ?? SKILLS_FOLDER_DEFAULTS.maxFolders,
      maxFileBytes: options.maxFileBytes ?? SKILLS_FOLDER_DEFAULTS.maxFileBytes,
      maxBodyBytes: options.maxBodyBytes ?? SKILLS_FOLDER_DEFAULTS.maxBodyBytes,
      debounceMs: options.debounceMs ?? SKILLS_FOLDER_DEFAULTS.debounceMs,
      rootPollMs: options.rootPollMs ?? SKILLS_FOLDER_DEFAULTS.rootPollMs,
    };
  }

  /** Every valid skill, sorted by name, ineligible ones included (with what they miss). */
  async list(): Promise<ToolDescriptor[]> {
    return (await this.current()).descriptors.map(copyDescriptor);
  }

  /** What the last scan could not use, in walk order (roots in precedence order), then `shadowed` ones. */
  async issues(): Promise<SkillIssue[]> {
    return (await this.current()).issues.map((issue) => ({ ...issue }));
  }

  /**
   * Activates a skill: reads its SKILL.md again and answers its body (bounded) as a
   * {@link SkillActivation}, the body also as `text` (with a note when cut, or a sentence saying there
   * are no instructions when the body is empty: never an empty text). `args` are not used by activation
   * (the caller validated them against the skill's schema and keeps them).
   * Failures: `TOOL_NOT_FOUND` (no skill of that name in the last scan), `TOOL_UNAVAILABLE` (its file
   * changed, vanished or became invalid since the scan: retry after the next one), `ABORTED`, `TIMEOUT`.
   */
  async invoke(name: string, _args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult> {
    if (context.signal.aborted) return toolFailure('ABORTED', `activation of skill ${name} aborted`);
    const skill = (await this.current()).skills.get(name);
    if (!skill) return toolFailure('TOOL_NOT_FOUND', `no skill named ${name} in ${this.roots.map((root) => root.path).join(', ')}`);
    if (context.deadlineMs <= 0) return toolFailure('TIMEOUT', `no time left to read skill ${name} (deadline ${context.deadlineMs} ms)`);
    const timeout = AbortSignal.timeout(context.deadlineMs);
    let parsed: SkillFile;
    try {
      parsed = parseSkillFile(await this.readSkillFile(await this.currentRealPath(skill.file), AbortSignal.any([context.signal, timeout])));
    } catch (err) {
      if (context.signal.aborted) return toolFailure('ABORTED', `activation of skill ${name} aborted`);
      if (timeout.aborted) return toolFailure('TIMEOUT', `skill ${name} was not read within ${context.deadlineMs} ms`);
      return toolFailure('TOOL_UNAVAILABLE', `skill ${name} (${skill.descriptor.location}) changed since it was listed: ${errorMessage(err)}`);
    }
    if (sanitizeToolName(parsed.definition.name) !== name) {
      return toolFailure('TOOL_UNAVAILABLE', `skill ${name} (${skill.descriptor.location}) is now named ${parsed.definition.name}; list the tools again`);
    }
    const body = boundSkillBody(parsed.body, this.limits.maxBodyBytes);
    const activation: SkillActivation = { name, body: body.text, truncated: body.truncated, bodyBytes: body.bytes, missing: [...skill.descriptor.eligibility.missing] };
    const text = body.truncated
      ? `${body.text}\n\n[SKILL.md body cut to its first ${Buffer.byteLength(body.text)} of ${body.bytes} bytes]`
      : body.text || `Skill ${name} has no instructions beyond its description: ${skill.descriptor.description}`;
    return toolSuccess(activation, text);
  }

  /**
   * Scans the roots now (after any scan under way) and emits on {@link changes$} when the list or the
   * issues differ from the previous scan's.
   * @returns true when they changed.
   */
  refresh(): Promise<boolean> {
    const scan = this.scanQueue.then(async () => {
      if (this.closed) return false;
      const previous = this.snapshot;
      const next = await this.scan();
      if (this.closed) return false;
      this.snapshot = next;
      this.followRoots(next.existingRoots);
      const changed = previous !== undefined && fingerprint(previous) !== fingerprint(next);
      if (changed) this.changes.next({ source: this.ref });
      return changed;
    });
    this.scanQueue = scan.catch(() => undefined);
    return scan;
  }

  /**
   * Starts following the roots for changes and resolves once the watchers are ready and the folders
   * scanned (a change made after that is seen). Each existing root gets a chokidar watcher, which
   * watches folder by folder (one non-recursive `fs.watch` each, sub-folders added as they appear):
   * Node 20's recursive `fs.watch` on Linux is not reliable for folders created after it started. A
   * root that appears later (looked for every `rootPollMs`) is watched from the scan that finds it, and
   * scanned again once its watcher is ready; a root that disappears stops being watched until it comes back. Any event (add, change,
   * unlink, a watcher error) only schedules a rescan: the rescan, not the event, decides what changed.
   */
  async watch(): Promise<void> {
    if (this.watching || this.closed) return;
    this.watching = true;
    await this.watchRoots(await existingSkillsRoots(this.roots));
    await this.refresh();
  }

  /** Stops watching and completes {@link changes$}; later calls of {@link list} answer the last scan. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.debounce);
    clearTimeout(this.rootPoll);
    const watchers = [...this.watchers.values()];
    this.watchers.clear();
    await Promise.all(watchers.map((watcher) => watcher.close()));
    this.changes.complete();
  }

  private async current(): Promise<Snapshot> {
    if (!this.snapshot) await this.refresh();
    // `refresh` after `close` leaves no snapshot: answer an empty one rather than reject.
    return this.snapshot ?? { skills: new Map(), descriptors: [], issues: [], existingRoots: [] };
  }

  private scheduleRefresh(): void {
    if (this.closed) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.refresh().catch(() => undefined), this.limits.debounceMs);
    this.debounce.unref();
  }

  /** Watches each of `roots` not watched yet; resolves when their watchers are ready. */
  private async watchRoots(roots: readonly string[]): Promise<void> {
    const added = roots.filter((root) => !this.watchers.has(root));
    await Promise.all(
      added.map(async (root) => {
        const watcher = watch(root, { ignoreInitial: true, followSymlinks: false, depth: this.limits.maxDepth + 1, ignored: (path) => this.isIgnoredPath(path) });
        this.watchers.set(root, watcher);
        watcher.on('all', () => this.scheduleRefresh());
        watcher.on('error', () => this.scheduleRefresh());
        await new Promise<void>((ready) => watcher.once('ready', () => ready()));
        if (this.closed) await watcher.close();
      }),
    );
  }

  /** After a scan: watch roots that appeared (then scan again), stop watching roots that went. */
  private followRoots(existingRoots: readonly string[]): void {
    if (!this.watching || this.closed) return;
    for (const [root, watcher] of this.watchers) {
      if (existingRoots.includes(root)) continue;
      this.watchers.delete(root);
      void watcher.close();
    }
    const appeared = existingRoots.filter((root) => !this.watchers.has(root));
    if (appeared.length > 0) void this.watchRoots(appeared).then(() => this.scheduleRefresh());
    this.pollMissingRoots(existingRoots);
  }

  /**
   * While a root does not exist there is nothing to watch in it, so its existence is checked every
   * `rootPollMs` (one `stat` per root, no walk); the scan that finds it starts watching it.
   */
  private pollMissingRoots(existingRoots: readonly string[]): void {
    clearTimeout(this.rootPoll);
    this.rootPoll = undefined;
    if (this.roots.every((root) => existingRoots.includes(root.path))) return;
    this.rootPoll = setTimeout(() => {
      void existingSkillsRoots(this.roots).then((now) => {
        if (this.closed) return;
        if (now.some((root) => !existingRoots.includes(root))) void this.refresh().catch(() => undefined);
        else this.pollMissingRoots(existingRoots);
      });
    }, this.limits.rootPollMs);
    this.rootPoll.unref();
  }

  /** Hidden folders and `node_modules` inside a root are neither searched nor watched. */
  private isIgnoredPath(path: string): boolean {
    for (const root of this.roots) {
      if (path !== root.path && !path.startsWith(root.path + sep)) continue;
      return path
        .slice(root.path.length + 1)
        .split(sep)
        .some((segment) => segment.startsWith('.') || segment === 'node_modules');
    }
    return false;
  }

  private async scan(): Promise<Snapshot> {
    const discovery = await discoverSkillFiles(this.roots, this.limits);
    const issues = [...discovery.issues];
    const shadowed: SkillIssue[] = [];
    const skills = new Map<string, LoadedSkill>();
    const loadedFiles = new Set<string>();
    const hasProgram = createProgramLookup(this.env['PATH']);
    for (const file of discovery.files) {
      if (loadedFiles.has(file.realPath)) continue;
      loadedFiles.add(file.realPath);
      const location = skillLocation(file.root, file.path);
      let parsed: SkillFile;
      try {
        // The real path the walk checked, not the walked one: a link swapped in since cannot redirect the read.
        parsed = parseSkillFile(await this.readSkillFile(file.realPath));
      } catch (err) {
        const kind = err instanceof SkillFileTooLarge ? 'too_large' : err instanceof SkillFileError ? 'invalid' : 'unreadable';
        issues.push({ kind, location, path: file.path, message: errorMessage(err) });
        continue;
      }
      const { definition } = parsed;
      const name = sanitizeToolName(definition.name);
      const winner = skills.get(name);
      if (winner) {
        shadowed.push({ kind: 'shadowed', location, path: file.path, name, shadowedBy: winner.descriptor.location, message: `skill ${name} is already defined by ${winner.descriptor.location}, which takes precedence` });
        continue;
      }
      const missing = await missingRequirements(definition.requirements, { env: this.env, platform: this.platform, hasProgram });
      const descriptor: ToolDescriptor = {
        name,
        ...(name === definition.name ? {} : { originalName: definition.name }),
        description: definition.description,
        inputSchema: definition.inputSchema,
        kind: definition.kind,
        mode: 'SKILL',
        source: this.ref,
        location,
        eligibility: toolEligibility(missing),
        available: true,
      };
      skills.set(name, { descriptor, file });
    }
    const descriptors = [...skills.values()].map((skill) => skill.descriptor).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { skills, descriptors, issues: [...issues, ...shadowed], existingRoots: discovery.existingRoots };
  }

  /**
   * Where a listed SKILL.md's path leads now, checked again against its root: between the scan and an
   * activation a file can be replaced by a symbolic link to anything on the host.
   * @throws Error when it no longer exists or now leads outside its root.
   */
  private async currentRealPath(file: SkillFileLocation): Promise<string> {
    const real = await realpath(file.path);
    if (!isInside(real, file.rootRealPath)) throw new Error(`it now leads outside its skills folder ${file.root.label}:`);
    return real;
  }

  /**
   * The text of a SKILL.md, read whole when within `maxFileBytes`.
   * @throws SkillFileTooLarge over the bound; SkillFileError when it is not UTF-8; the file system's error otherwise.
   */
  private async readSkillFile(path: string, signal?: AbortSignal): Promise<string> {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      if (size > this.limits.maxFileBytes) throw new SkillFileTooLarge(`${SKILL_FILE_NAME} is ${size} bytes; at most ${this.limits.maxFileBytes} are read`);
      const bytes = await handle.readFile({ signal });
      if (bytes.length > this.limits.maxFileBytes) throw new SkillFileTooLarge(`${SKILL_FILE_NAME} grew past ${this.limits.maxFileBytes} bytes while read`);
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw new SkillFileError(`${SKILL_FILE_NAME} is not valid UTF-8`);
      }
    } finally {
      await handle.close();
    }
  }
}

class SkillFileTooLarge extends Error {}

function fingerprint(snapshot: Snapshot): string {
  return JSON.stringify([snapshot.descriptors, snapshot.issues]);
}

function copyDescriptor(descriptor: ToolDescriptor): ToolDescriptor {
  return structuredClone(descriptor);
}
