/**
 * Why a SKILL.md (or a folder that may hold some) did not become a tool. Issues are reported, never
 * thrown: one bad file does not keep its valid siblings from loading.
 *
 * - `root_missing`: a configured root does not exist (or is not a folder); it is scanned once it appears.
 * - `unreadable`: a folder or file could not be read (permissions, a broken symbolic link).
 * - `symlink_escapes_root`: a symbolic link whose real path is outside its root; not followed.
 * - `too_large`: a SKILL.md over the size bound; not read.
 * - `invalid`: a SKILL.md that is not a valid skill (no front matter, bad YAML, a missing `name` or
 *   `description`, a malformed metadata key); the message says what and where.
 * - `shadowed`: a valid skill whose name an earlier one already took (an earlier root, or earlier in
 *   the same root's walk order); `shadowedBy` says which.
 * - `scan_truncated`: a root has more folders than the scan visits; the rest was not looked at.
 */
export type SkillIssueKind = 'root_missing' | 'unreadable' | 'symlink_escapes_root' | 'too_large' | 'invalid' | 'shadowed' | 'scan_truncated';

/** One reported problem of a scan. */
export interface SkillIssue {
  kind: SkillIssueKind;
  /** The root's label and the path within it, e.g. `workspace:booking/SKILL.md` (`workspace:` for the root itself). */
  location: string;
  /** The absolute path as configured and walked (through any in-root symbolic links). */
  path: string;
  /** What is wrong, for the person who maintains the folder. */
  message: string;
  /** For `shadowed`: the tool name both skills claim. */
  name?: string;
  /** For `shadowed`: the `location` of the skill that won. */
  shadowedBy?: string;
}
