import type { Colors } from 'picocolors/types';
import type { StepTimings } from '@mobileclaw/domain';
import type { StepSummary, TaskOutcome } from './task-progress';

/** `212 ms`, or `1.4 s` from a second on. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

const PHASES: [keyof StepTimings, string][] = [
  ['settleMs', 'settle'],
  ['captureMs', 'capture'],
  ['transferMs', 'transfer'],
  ['planningMs', 'planning'],
  ['actionMs', 'action'],
];

/** `335 ms (settle 216, capture 100, transfer 6, planning 12, action 1)`: the total and each phase known, in ms. */
export function formatTimings(timings: Partial<StepTimings>): string {
  const known = PHASES.filter(([key]) => typeof timings[key] === 'number');
  if (known.length === 0) return '';
  const total = known.reduce((sum, [key]) => sum + (timings[key] as number), 0);
  return `${formatMs(total)} (${known.map(([key, name]) => `${name} ${Math.round(timings[key] as number)}`).join(', ')})`;
}

/** The mark before a line: ✓ (green) for a step or task that went as planned, ✗ (red) otherwise. */
export function mark(ok: boolean, colors: Colors): string {
  return ok ? colors.green('✓') : colors.red('✗');
}

/**
 * A finished step: `step 2 · click (964, 326) · verified · 254 ms (settle 203, …)` and, indented on
 * the next line, the planner's reasoning.
 */
export function formatStep(step: StepSummary, colors: Colors): string {
  const parts = [colors.bold(`step ${step.index + 1}`), step.description];
  if (step.problem) parts.push(colors.red(step.problem));
  if (step.verified === true) parts.push(colors.green('verified'));
  if (step.verified === false) parts.push(colors.red('not verified'));
  const timings = formatTimings(step.timings);
  if (timings) parts.push(colors.dim(timings));
  const line = parts.join(' · ');
  return step.reasoning ? `${line}\n    ${colors.dim(step.reasoning)}` : line;
}

/**
 * How the task ended: `completed in 3 steps, 0.9 s: Wi-Fi is on.`, `failed (NO_EFFECT) after 4 steps,
 * 2.1 s: …`, `canceled (APPROVAL_DENIED) after 8 steps, …: …`.
 */
export function formatOutcome(outcome: TaskOutcome, colors: Colors): string {
  const steps = `${outcome.steps} step${outcome.steps === 1 ? '' : 's'}${outcome.durationMs !== undefined ? `, ${formatMs(outcome.durationMs)}` : ''}`;
  if (outcome.status === 'completed') return `${colors.bold(colors.green('completed'))} in ${steps}${outcome.summary ? `: ${outcome.summary}` : ''}`;
  const code = outcome.error ? ` (${outcome.error.code})` : '';
  return `${colors.bold(colors.red(outcome.status))}${code} after ${steps}${outcome.error ? `: ${outcome.error.message}` : ''}`;
}
