import type { AgentAction, PendingAction, ScreenInfo } from './api-types.js';
import { formatMs, h, s } from './dom.js';
import type { StepState } from './task-timeline.js';

/** One line for an action: `click (964, 326)`, `swipe (540, 1800) → (540, 600)`, `input "hello"`. */
export function describeAction(action: AgentAction): string {
  switch (action.command) {
    case 'click':
      return `click (${action.x}, ${action.y})`;
    case 'long_press':
      return `long press (${action.x}, ${action.y})${action.durationMs !== undefined ? ` for ${action.durationMs} ms` : ''}`;
    case 'swipe':
      return `swipe (${action.x1}, ${action.y1}) → (${action.x2}, ${action.y2})${action.durationMs !== undefined ? ` in ${action.durationMs} ms` : ''}`;
    case 'input':
      return `type ${JSON.stringify(action.text)}${action.clear ? ' (replacing the field)' : ''}`;
    case 'open':
      return `open ${action.app}`;
    case 'back':
      return 'press Back';
    case 'home':
      return 'press Home';
  }
}

/**
 * An SVG overlay marking where `action` touches the screen, drawn in device px: its `viewBox` is the
 * observed screen size, stretched over the screenshot, so the mark lands on the displayed image at
 * the same relative place whatever size the image is shown at. A ring for click and long press, an
 * arrow for swipe; null for actions without a point.
 */
export function actionOverlay(action: AgentAction, screen: ScreenInfo): SVGSVGElement | null {
  const unit = Math.min(screen.width, screen.height) / 100;
  const overlay = (...children: SVGElement[]) =>
    s('svg', { class: 'overlay', viewBox: `0 0 ${screen.width} ${screen.height}`, preserveAspectRatio: 'none', 'aria-hidden': 'true' }, ...children);
  if (action.command === 'click' || action.command === 'long_press') {
    return overlay(
      s('circle', { class: 'marker marker-tap', cx: action.x, cy: action.y, r: unit * 4.5, 'stroke-width': unit * 1.2, 'data-x': action.x, 'data-y': action.y }),
      s('circle', { class: 'marker-dot', cx: action.x, cy: action.y, r: unit * 1.2 }),
    );
  }
  if (action.command === 'swipe') {
    const id = `arrow-${Math.random().toString(36).slice(2)}`;
    return overlay(
      s('defs', {}, s('marker', { id, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto-start-reverse' }, s('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'marker-head' }))),
      s('circle', { class: 'marker-dot', cx: action.x1, cy: action.y1, r: unit * 1.5 }),
      s('line', { class: 'marker marker-swipe', x1: action.x1, y1: action.y1, x2: action.x2, y2: action.y2, 'stroke-width': unit * 1.2, 'marker-end': `url(#${id})` }),
    );
  }
  return null;
}

/** What the card needs besides the step. */
export interface StepViewContext {
  /** URL of a screenshot path as the browser loads it (adds the API token when one is set). */
  imageUrl: (path: string) => string;
  /** The action waiting for approval, when it belongs to this step. */
  pending?: PendingAction;
  /** False once the task ended: an unfinished step is then shown as stopped, not in progress. */
  taskActive: boolean;
  /** How the task ended, once it did: says why an unfinished step stopped. */
  taskEnd?: { status: string; error?: { code: string; message: string } };
}

/** What an unfinished step was doing when its task ended. */
function stageOf(step: StepState): string {
  if (!step.observation) return 'observing the screen';
  if (!step.plan) return 'planning';
  return 'acting';
}

/** "Stopped while planning: the task was canceled (CANCELED)", for an unfinished step of an ended task. */
function stoppedText(step: StepState, context: StepViewContext): string {
  const end = context.taskEnd;
  const ended: Record<string, string> = { canceled: 'was canceled', interrupted: 'was interrupted by a gateway stop', failed: 'failed', completed: 'completed' };
  const why = end ? `: the task ${ended[end.status] ?? end.status}${end.error ? ` (${end.error.code})` : ''}` : '';
  return `Stopped while ${stageOf(step)}${why}`;
}

function phaseOf(step: StepState, context: StepViewContext): string | undefined {
  if (context.pending?.stepIndex === step.index) return 'Waiting for approval';
  if (step.actor === 'human' && step.result?.status === undefined) return context.taskActive ? 'Acting…' : stoppedText(step, context);
  if (step.result?.status !== undefined || (step.plan && step.plan.type !== 'action')) return undefined;
  if (!context.taskActive) return stoppedText(step, context);
  if (!step.observation) return 'Observing the screen…';
  if (!step.plan) return step.planning && step.planning.attempt > 1 ? `Planning… attempt ${step.planning.attempt}/${step.planning.maxAttempts}` : 'Planning…';
  return 'Acting…';
}

function verifiedText(verified: boolean | undefined): { text: string; cls: string } {
  if (verified === true) return { text: '✓ verified', cls: 'ok' };
  if (verified === false) return { text: '✗ not confirmed', cls: 'bad' };
  return { text: 'not checked', cls: 'muted' };
}

function screenshotFigure(step: StepState, context: StepViewContext): HTMLElement {
  const observation = step.observation;
  if (!observation?.screenshotUrl) {
    const text = observation ? 'no screenshot' : context.taskActive ? '' : 'the task ended before this screen was captured';
    return h('div', { class: 'shot shot-empty' }, text);
  }
  const { width, height } = observation.screen;
  const img = h('img', {
    src: context.imageUrl(observation.screenshotUrl),
    alt: `Screen before step ${step.index + 1}${observation.package ? ` (${observation.package})` : ''}`,
    width,
    height,
    decoding: 'async',
  });
  const overlay = step.plan?.type === 'action' ? actionOverlay(step.plan.action, observation.screen) : null;
  // The screenshot opens at full resolution in a new tab.
  const link = h('a', { class: 'shot-link', href: img.getAttribute('src') ?? '', target: '_blank', rel: 'noopener', title: 'Open the full-resolution screenshot' }, img);
  return h('figure', { class: 'shot', style: `aspect-ratio: ${width} / ${height}` }, link, overlay);
}

function planSection(step: StepState): HTMLElement[] {
  const plan = step.plan;
  if (!plan) return [];
  const rows: HTMLElement[] = [];
  if (plan.type === 'action') rows.push(h('p', { class: 'action' }, h('span', { class: 'label' }, 'Action '), h('code', {}, describeAction(plan.action))));
  else if (plan.type === 'done') rows.push(h('p', { class: 'action ok' }, h('span', { class: 'label' }, 'Done '), plan.summary));
  else if (plan.type === 'tool_call') rows.push(h('p', { class: 'action' }, h('span', { class: 'label' }, 'Caller tool '), h('code', {}, `${plan.name} ${JSON.stringify(plan.arguments)}`)));
  else rows.push(h('p', { class: 'action bad' }, h('span', { class: 'label' }, 'Gave up '), plan.reason));
  // A person's step says who in its title; its reasoning would only repeat it.
  if (plan.reasoning && step.actor !== 'human') rows.push(h('p', { class: 'reasoning' }, plan.reasoning));
  return rows;
}

function resultSection(step: StepState): HTMLElement | null {
  const result = step.result;
  if (result?.status && step.plan?.type === 'tool_call') {
    const answer = result.status === 'success' ? ` returned ${JSON.stringify(result.output ?? null)}` : ` ${[result.errorCode, result.message].filter(Boolean).join(': ')}`;
    return h('p', { class: 'result' }, h('span', { class: `badge result-${result.status}` }, result.status), h('span', { class: 'error-text' }, answer));
  }
  if (!result?.status || step.plan?.type !== 'action') return null;
  const verified = verifiedText(result.verified);
  return h(
    'p',
    { class: 'result' },
    h('span', { class: `badge result-${result.status}` }, result.status),
    ' ',
    h('span', { class: `verified ${verified.cls}` }, verified.text),
    result.errorCode || result.message ? h('span', { class: 'error-text' }, ` ${[result.errorCode, result.message].filter(Boolean).join(': ')}`) : null,
  );
}

function timingsSection(step: StepState): HTMLElement {
  const t = step.timings;
  const item = (name: string, ms: number | undefined) => [h('dt', {}, name), h('dd', {}, formatMs(ms))];
  return h(
    'dl',
    { class: 'timings' },
    item('settle', t.settleMs),
    item('capture', t.captureMs),
    item('transfer', t.transferMs),
    item('planning', t.planningMs),
    item('action', t.actionMs),
  );
}

/**
 * A timeline entry for one step: screenshot with the action marked, action, reasoning, result,
 * timings. A person's step (taken during a takeover) is marked `step-human` and titled "by <holder>".
 */
export function renderStepCard(step: StepState, context: StepViewContext): HTMLLIElement {
  const phase = phaseOf(step, context);
  const observation = step.observation;
  const human = step.actor === 'human';
  return h(
    'li',
    { class: human ? 'step step-human' : 'step', 'data-step-index': step.index, 'data-actor': human ? 'human' : 'agent', 'aria-busy': phase !== undefined && context.taskActive ? 'true' : 'false' },
    screenshotFigure(step, context),
    h(
      'div',
      { class: 'step-body' },
      h(
        'h3',
        {},
        `Step ${step.index + 1}`,
        human ? h('span', { class: 'step-actor' }, ` · by ${step.holder ?? 'a person'}`) : null,
        observation?.package ? h('span', { class: 'muted step-package' }, ` · ${observation.package}`) : null,
      ),
      phase ? h('p', { class: 'phase' }, phase) : null,
      planSection(step),
      resultSection(step),
      timingsSection(step),
    ),
  );
}

/**
 * Replaces `card` with a fresh rendering of `step`, moving the already loaded screenshot over when
 * it is the same image (no reload, no flicker).
 */
export function updateStepCard(card: HTMLLIElement, step: StepState, context: StepViewContext): HTMLLIElement {
  const next = renderStepCard(step, context);
  const oldImg = card.querySelector('img');
  const newImg = next.querySelector('img');
  if (oldImg && newImg && oldImg.getAttribute('src') === newImg.getAttribute('src')) newImg.replaceWith(oldImg);
  card.replaceWith(next);
  return next;
}
