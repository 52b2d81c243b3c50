import { Document, isMap, isScalar, isSeq, parseDocument, visit } from 'yaml';
import {
  AGENT_ACTION_NAMES,
  describeActionTarget,
  parameterPlaceholder,
  skillNameError,
  type ActionTarget,
  type AgentAction,
  type LearnedSkill,
  type LearnedSkillParameter,
  type LearnedStep,
} from '@mobileclaw/domain';
import { SkillFileError, parseSkillFile, splitFrontMatter } from './skill-file';

/**
 * A learned skill as a SKILL.md file (Agent Skills format). The front matter holds `name`,
 * `description` and `metadata.mobileclaw`: `inputSchema` (one string property per parameter, so the
 * registry shows them) and `learned` — the {@link LearnedSkill} replay runs: `from` (the task it was
 * learned from), `parameters`, `steps` (each `action`, `package`, `target`) and `final` (`package`,
 * `evidence`). The Markdown body says the same in words for people: the parameters, the numbered steps,
 * the final check, and how to replay it. Replay reads the front matter only: to change what it does,
 * edit `metadata.mobileclaw.learned`; the body is its description.
 */
export function renderLearnedSkill(skill: LearnedSkill): string {
  const properties = Object.fromEntries(
    skill.parameters.map((p) => [p.name, { type: 'string', description: p.description, ...(p.example === undefined ? {} : { examples: [p.example] }) }]),
  );
  const learned = {
    from: skill.learnedFrom,
    parameters: skill.parameters,
    steps: skill.steps.map((step) => ({ action: step.action, ...(step.package === undefined ? {} : { package: step.package }), ...(step.target ? { target: inKeyOrder(step.target) } : {}) })),
    final: { ...(skill.final.package === undefined ? {} : { package: skill.final.package }), ...(skill.final.evidence ? { evidence: inKeyOrder(skill.final.evidence) } : {}) },
  };
  const document = new Document({
    name: skill.name,
    description: skill.description,
    metadata: { mobileclaw: { inputSchema: { type: 'object', properties }, learned } },
  });
  // Actions, targets and bounds on one line each: a step reads as one entry.
  visit(document, {
    Pair(_, pair) {
      if (isScalar(pair.key) && (pair.key.value === 'action' || pair.key.value === 'bounds' || pair.key.value === 'examples') && (isMap(pair.value) || isSeq(pair.value))) pair.value.flow = true;
    },
  });
  const frontMatter = document.toString({ lineWidth: 0 });
  return `---\n${frontMatter}---\n\n${body(skill)}`;
}

/** The keys of a target in one order, what names it first and its bounds after: every file reads alike. */
const TARGET_KEYS: readonly (keyof ActionTarget)[] = ['type', 'text', 'desc', 'label', 'resourceId', 'package', 'bounds', 'editable', 'checkable', 'checked', 'password'];

function inKeyOrder(target: ActionTarget): ActionTarget {
  return Object.fromEntries(TARGET_KEYS.filter((key) => target[key] !== undefined).map((key) => [key, target[key]])) as unknown as ActionTarget;
}

function body(skill: LearnedSkill): string {
  const { learnedFrom: from } = skill;
  const lines = [`# ${skill.name}`, '', `Learned from task \`${from.taskId}\` ("${from.goal}"), planned by \`${from.planner}\` on \`${from.deviceId}\`, ${from.learnedAt}.`, '', '## Parameters', ''];
  if (skill.parameters.length === 0) lines.push('None.');
  for (const p of skill.parameters) {
    const extra = p.secret ? ' Secret: never stored; give it to every replay.' : ` Example: \`${p.example ?? ''}\`.`;
    lines.push(`- \`${p.name}\`: ${p.description}${extra}`);
  }
  lines.push('', '## Steps', '');
  skill.steps.forEach((step, i) => lines.push(`${i + 1}. ${stepInWords(step)}`));
  lines.push(`${skill.steps.length + 1}. ${finalInWords(skill)}`);
  const args = Object.fromEntries(skill.parameters.map((p) => [p.name, p.secret ? '…' : (p.example ?? '…')]));
  lines.push(
    '',
    '## Replay',
    '',
    `\`POST /api/skills/${skill.name}/replay\` with \`${JSON.stringify({ deviceId: '<device id>', arguments: args })}\` runs these steps without a model.`,
    'Each step runs only when its element is on screen (same app, class, resource id, description, label and naming text),',
    'on the element\'s current position; where a screen differs, the task hands over to the planner and says so.',
    'Replay reads `metadata.mobileclaw.learned` above: edit the steps there; this list describes them.',
    '',
  );
  return lines.join('\n');
}

function where(step: LearnedStep): string {
  return step.package === undefined ? '' : ` in \`${step.package}\``;
}

/** One learned step in words, e.g. `Tap Switch "Wi-Fi" (id com.android.settings:id/switch_widget) in \`com.android.settings\`.` */
export function stepInWords(step: LearnedStep): string {
  const { action, target } = step;
  const on = target ? describeActionTarget(target) : undefined;
  switch (action.command) {
    case 'open':
      return `Open the app \`${action.app}\`.`;
    case 'click':
      return on ? `Tap ${on}${where(step)}.` : `Tap the point (${action.x}, ${action.y})${where(step)}; no element was there.`;
    case 'long_press':
      return on ? `Press and hold ${on}${where(step)}.` : `Press and hold the point (${action.x}, ${action.y})${where(step)}; no element was there.`;
    case 'swipe':
      return `Swipe from (${action.x1}, ${action.y1}) to (${action.x2}, ${action.y2})${on ? ` inside ${on}` : ''}${where(step)}.`;
    case 'input':
      return `Type \`${action.text}\` into ${on ?? 'the focused field'}${action.clear ? ', replacing its text' : ''}.`;
    case 'back':
      return `Press Back${where(step)}.`;
    case 'home':
      return 'Press Home.';
  }
}

function finalInWords(skill: LearnedSkill): string {
  const { package: pkg, evidence } = skill.final;
  const app = pkg === undefined ? 'the final screen' : `the final screen of \`${pkg}\``;
  if (!evidence) return `Check that ${app} is in front.`;
  const state = evidence.editable && evidence.text !== undefined ? ` showing \`${evidence.text}\`` : evidence.checkable ? (evidence.checked ? ', checked' : ', unchecked') : '';
  return `Check that ${app} shows ${describeActionTarget(evidence)}${state}.`;
}

/**
 * Reads a learned skill back from the text of its SKILL.md.
 * @throws SkillFileError when the file is no valid SKILL.md, or its `metadata.mobileclaw.learned` is
 *   missing or malformed (the message says where).
 */
export function parseLearnedSkill(text: string): LearnedSkill {
  const { definition } = parseSkillFile(text);
  const nameError = skillNameError(definition.name);
  if (nameError) throw new SkillFileError(`\`name\`: ${nameError}`);
  // parseSkillFile has checked the YAML: read it again for the keys only a learned skill has.
  const frontMatter: unknown = parseDocument(splitFrontMatter(text).yaml).toJS({ maxAliasCount: 100 });
  const learned = at(at(at(frontMatter, 'metadata'), 'mobileclaw'), 'learned');
  if (!isRecord(learned)) throw new SkillFileError('`metadata.mobileclaw.learned` is missing: this skill was not learned from a task');
  const from = learned['from'];
  if (!isRecord(from)) throw new SkillFileError('`metadata.mobileclaw.learned.from` must be a mapping');
  const parameters = list(learned['parameters'], 'parameters').map((p, i) => parameterOf(p, `parameters.${i}`));
  const steps = list(learned['steps'], 'steps').map((s, i) => stepOf(s, `steps.${i}`));
  if (steps.length === 0) throw new SkillFileError('`metadata.mobileclaw.learned.steps` is empty');
  for (const step of steps) {
    if (step.action.command !== 'input') continue;
    for (const [, name] of step.action.text.matchAll(/\{\{([^}]*)\}\}/g)) {
      if (!parameters.some((p) => p.name === name)) throw new SkillFileError(`a step types ${parameterPlaceholder(name ?? '')}, which is no parameter`);
    }
  }
  const final = learned['final'] ?? {};
  if (!isRecord(final)) throw new SkillFileError('`metadata.mobileclaw.learned.final` must be a mapping');
  return {
    name: definition.name,
    description: definition.description,
    learnedFrom: {
      taskId: str(from['taskId'], 'from.taskId'),
      goal: str(from['goal'], 'from.goal'),
      planner: str(from['planner'], 'from.planner'),
      deviceId: str(from['deviceId'], 'from.deviceId'),
      learnedAt: str(from['learnedAt'], 'from.learnedAt'),
    },
    parameters,
    steps,
    final: {
      ...(final['package'] === undefined ? {} : { package: str(final['package'], 'final.package') }),
      ...(final['evidence'] === undefined ? {} : { evidence: targetOf(final['evidence'], 'final.evidence') }),
    },
  };
}

function fail(where: string, what: string): never {
  throw new SkillFileError(`\`metadata.mobileclaw.learned.${where}\` ${what}`);
}

function at(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(where, 'must be a list');
  return value;
}

function str(value: unknown, where: string): string {
  if (typeof value !== 'string') fail(where, 'must be a string');
  return value;
}

function num(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(where, 'must be a number');
  return value;
}

function optional<T>(value: unknown, read: (v: unknown) => T): T | undefined {
  return value === undefined || value === null ? undefined : read(value);
}

function parameterOf(value: unknown, where: string): LearnedSkillParameter {
  if (!isRecord(value)) fail(where, 'must be a mapping');
  const name = str(value['name'], `${where}.name`);
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(name)) fail(`${where}.name`, 'must be lowercase letters, digits and underscores, starting with a letter');
  const parameter: LearnedSkillParameter = { name, description: str(value['description'], `${where}.description`) };
  const example = optional(value['example'], (v) => str(v, `${where}.example`));
  if (example !== undefined) parameter.example = example;
  if (value['secret'] === true) parameter.secret = true;
  return parameter;
}

function stepOf(value: unknown, where: string): LearnedStep {
  if (!isRecord(value)) fail(where, 'must be a mapping');
  const step: LearnedStep = { action: actionOf(value['action'], `${where}.action`) };
  const pkg = optional(value['package'], (v) => str(v, `${where}.package`));
  if (pkg !== undefined) step.package = pkg;
  if (value['target'] !== undefined && value['target'] !== null) step.target = targetOf(value['target'], `${where}.target`);
  return step;
}

function actionOf(value: unknown, where: string): AgentAction {
  if (!isRecord(value)) fail(where, 'must be a mapping');
  const command = value['command'];
  const n = (key: string): number => num(value[key], `${where}.${key}`);
  const duration = (): { durationMs?: number } => (value['durationMs'] === undefined ? {} : { durationMs: n('durationMs') });
  switch (command) {
    case 'open':
      return { command, app: str(value['app'], `${where}.app`) };
    case 'click':
      return { command, x: n('x'), y: n('y') };
    case 'long_press':
      return { command, x: n('x'), y: n('y'), ...duration() };
    case 'swipe':
      return { command, x1: n('x1'), y1: n('y1'), x2: n('x2'), y2: n('y2'), ...duration() };
    case 'input':
      return { command, text: str(value['text'], `${where}.text`), ...(value['clear'] === undefined ? {} : { clear: value['clear'] === true }) };
    case 'back':
    case 'home':
      return { command };
    default:
      return fail(`${where}.command`, `must be one of ${AGENT_ACTION_NAMES.join(', ')}`);
  }
}

function targetOf(value: unknown, where: string): ActionTarget {
  if (!isRecord(value)) fail(where, 'must be a mapping');
  const bounds = value['bounds'];
  if (!Array.isArray(bounds) || bounds.length !== 4) fail(`${where}.bounds`, 'must be [left, top, right, bottom]');
  const target: ActionTarget = { type: str(value['type'], `${where}.type`), bounds: bounds.map((b, i) => num(b, `${where}.bounds.${i}`)) as ActionTarget['bounds'] };
  for (const key of ['text', 'desc', 'label', 'resourceId', 'package'] as const) {
    const text = optional(value[key], (v) => str(v, `${where}.${key}`));
    if (text !== undefined) target[key] = text;
  }
  for (const key of ['editable', 'checkable', 'checked', 'password'] as const) {
    if (value[key] !== undefined) target[key] = value[key] === true;
  }
  return target;
}
