import type { ToolDescriptor, ToolSourceRef } from '@mobileclaw/domain';

/** One source's tool, named as that source lists it: `(source, name)` is unique across the registry. */
export interface ToolRef {
  source: ToolSourceRef;
  name: string;
}

/**
 * One tool in the registry's merged view: its source's descriptor plus what the merge decided.
 *
 * - `exposedName`: what callers call it by — its `name`, or `<sourceId>_<name>` (re-sanitised) when
 *   another tool of a different foreign name took the plain name ({@link nameTakenBy}).
 * - `visible`: false for a tool shadowed by one of the same name that wins the precedence; it stays
 *   listed, with {@link shadowedBy}.
 * - Ineligible and unavailable tools stay listed and visible, with their `eligibility` and `available`.
 */
export interface ToolEntry extends ToolDescriptor {
  exposedName: string;
  visible: boolean;
  /** The tool that wins this one's name (same foreign name, stronger precedence). */
  shadowedBy?: ToolRef;
  /** The tools this one shadows, strongest first. */
  shadows: ToolRef[];
  /** The tool holding the plain `name` when this one got a source prefix (a different foreign name sanitised to the same). */
  nameTakenBy?: ToolRef;
}

/** The `(source, name)` of a descriptor. */
export function toolRefOf(descriptor: Pick<ToolDescriptor, 'source' | 'name'>): ToolRef {
  return { source: { kind: descriptor.source.kind, id: descriptor.source.id }, name: descriptor.name };
}

/** `kind:id/name`, e.g. `skills:workspace/book_table`: a {@link ToolRef} for people. */
export function formatToolRef(ref: ToolRef): string {
  return `${ref.source.kind}:${ref.source.id}/${ref.name}`;
}
