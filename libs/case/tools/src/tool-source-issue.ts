import type { ToolSourceRef } from '@mobileclaw/domain';

/**
 * A problem a source reports about what it could not turn into tools (a SKILL.md that is not valid, a
 * root that does not exist, a symbolic link leaving its root): shown to people beside the tools, never
 * thrown. `kind` is the source's own (e.g. a skills folder's `invalid`, `root_missing`).
 */
export interface ToolSourceIssue {
  source: ToolSourceRef;
  kind: string;
  /** Where, for people, without absolute paths: e.g. `workspace:broken/SKILL.md`. */
  location: string;
  message: string;
}

/** A source's issues, as the host hands them to the registry (e.g. a skills folder's `issues()`). */
export interface ToolIssueReport {
  source: ToolSourceRef;
  /** The current issues; never rejects for a problem the source can name. */
  issues(): Promise<readonly { kind: string; location: string; message: string }[]>;
}
