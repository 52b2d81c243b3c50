import type { ToolEntry, ToolRef, ToolSourceIssue, ToolSourceRef } from './api-types.js';
import { h } from './dom.js';

/**
 * The tools panel's rendering: one list item per registry tool and one per source issue. Every name,
 * description and message comes from a source (a remote server, a SKILL.md anyone may write) and is
 * set as text, never parsed as HTML. Each state is written out, not only coloured.
 */

/** The longest description shown in the list, in characters; the whole one is the item's tooltip. */
export const SHORT_DESCRIPTION_LENGTH = 160;

/** `kind:id`, e.g. `skills:workspace`. */
export function sourceKey(source: ToolSourceRef): string {
  return `${source.kind}:${source.id}`;
}

/** `kind:id/name`, e.g. `skills:workspace/book_table`, the registry's way of naming a tool for people. */
export function toolRefText(ref: ToolRef): string {
  return `${sourceKey(ref.source)}/${ref.name}`;
}

/** The first line of `description`, cut to `max` characters with `…`. */
export function shortDescription(description: string, max = SHORT_DESCRIPTION_LENGTH): string {
  const firstLine = description.trim().split('\n', 1)[0] ?? '';
  return firstLine.length > max ? `${firstLine.slice(0, max - 1).trimEnd()}…` : firstLine;
}

/** One thing to know about a tool beyond its description: `state` names it for styles and tests, `text` for people. */
export interface ToolState {
  state: 'shadowed' | 'prefixed' | 'ineligible' | 'unavailable' | 'shadows';
  text: string;
}

/**
 * What the merge and the source say about `tool`, in this order: shadowed (`shadowed by kind:id/name`),
 * prefixed (its plain name held by another tool), ineligible (`missing: env:X, bin:Y`), unavailable,
 * and the tools it shadows. Empty for a plain, callable tool.
 */
export function toolStates(tool: ToolEntry): ToolState[] {
  const states: ToolState[] = [];
  if (!tool.visible) states.push({ state: 'shadowed', text: tool.shadowedBy ? `shadowed by ${toolRefText(tool.shadowedBy)}` : 'shadowed' });
  if (tool.nameTakenBy) states.push({ state: 'prefixed', text: `named ${tool.exposedName}: ${tool.name} is taken by ${toolRefText(tool.nameTakenBy)}` });
  if (!tool.eligibility.eligible) states.push({ state: 'ineligible', text: `missing: ${tool.eligibility.missing.join(', ')}` });
  if (!tool.available) states.push({ state: 'unavailable', text: 'unavailable: its source cannot be reached now' });
  if (tool.shadows.length > 0) states.push({ state: 'shadows', text: `shadows ${tool.shadows.map(toolRefText).join(', ')}` });
  return states;
}

/** How the list offers replaying a skill: on which phone, and what a click does. */
export interface ToolReplayOffer {
  /** The phone picked on the page; without one the buttons are disabled. */
  deviceId: string | undefined;
  onReplay(tool: ToolEntry, deviceId: string): void;
}

/**
 * One tool as a list item: its exposed name as a heading, mode, kind (ACTION marked), source and
 * location, its short description and {@link toolStates}. A visible `SKILL` tool gets a
 * "Replay on <phone>" button when `replay` is given (whether it is a learned skill only the replay
 * endpoint knows).
 */
export function renderTool(tool: ToolEntry, replay?: ToolReplayOffer): HTMLLIElement {
  const states = toolStates(tool);
  const classes = ['tool', ...states.map((state) => `tool-${state.state}`)];
  const canReplay = replay !== undefined && tool.mode === 'SKILL' && tool.visible;
  return h(
    'li',
    { class: classes.join(' '), 'data-tool': tool.exposedName, 'data-states': states.map((state) => state.state).join(' ') },
    h('h3', { class: 'tool-name' }, h('code', {}, tool.exposedName)),
    h(
      'p',
      { class: 'tool-meta' },
      h('span', { class: 'tool-mode' }, tool.mode),
      ' · ',
      tool.kind === 'ACTION' ? h('strong', { class: 'tool-action' }, 'ACTION') : h('span', { class: 'tool-kind' }, tool.kind),
      ' · ',
      h('span', { class: 'tool-source' }, sourceKey(tool.source)),
      tool.location ? h('span', { class: 'tool-location' }, ` · ${tool.location}`) : null,
    ),
    tool.description ? h('p', { class: 'tool-description', title: tool.description }, shortDescription(tool.description)) : null,
    states.length > 0 ? h('ul', { class: 'tool-states', 'aria-label': `State of ${tool.exposedName}` }, states.map((state) => h('li', { class: `tool-state state-${state.state}` }, state.text))) : null,
    canReplay ? replayButton(tool, replay) : null,
  );
}

function replayButton(tool: ToolEntry, replay: ToolReplayOffer): HTMLButtonElement {
  const { deviceId } = replay;
  return h(
    'button',
    {
      type: 'button',
      class: 'tool-replay',
      disabled: deviceId === undefined,
      title: deviceId === undefined ? 'Pick a phone first' : `Replay the learned skill ${tool.name} on ${deviceId}, without a model`,
      onclick: () => {
        if (deviceId !== undefined) replay.onReplay(tool, deviceId);
      },
    },
    deviceId === undefined ? 'Replay (pick a phone)' : `Replay on ${deviceId}`,
  );
}

/** One source issue as a list item: what kind of problem, where, and the source's message. */
export function renderToolIssue(issue: ToolSourceIssue): HTMLLIElement {
  return h(
    'li',
    { class: `tool-issue issue-${issue.kind.replace(/[^A-Za-z0-9_-]/g, '_')}`, 'data-kind': issue.kind },
    h('span', { class: 'tool-issue-kind' }, issue.kind.replace(/_/g, ' ')),
    ' ',
    h('code', { class: 'tool-issue-location' }, issue.location || sourceKey(issue.source)),
    h('span', { class: 'muted' }, ` (${sourceKey(issue.source)})`),
    h('p', { class: 'tool-issue-message' }, issue.message),
  );
}
