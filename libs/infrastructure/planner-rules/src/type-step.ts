import type { UiElement } from '@mobileclaw/domain';
import { click, done, fail, lastSucceeded, tap, wasTapped, type StepInput, type StepOutcome } from './intent-step';
import { normalizeLabel } from './goal-text';
import { LabelMatch, matchLabel, wantedLabels } from './label-match';
import { labelsOf, type Screen } from './screen';
import { ambiguityReason } from './target-choice';

/** Names of common fields, each group naming one field (English and Chinese, and resource-id words). */
const FIELD_NAMES: readonly (readonly string[])[] = [
  ['search', 'search bar', 'search box', 'search field', 'find', 'query', '搜索', '搜索框', '搜索栏', '查找'],
  ['address bar', 'address', 'url', 'url bar', 'web address', 'location bar', 'omnibox', '地址栏', '网址', '地址', '网址栏'],
  ['message', 'text message', 'message field', 'compose', 'compose message text', 'chat', '消息', '短信', '信息', '消息框', '输入框'],
  ['to', 'recipient', 'recipient text view', 'name', '收件人', '联系人', '名字'],
];

/** All names of the field called `field` (its synonym group when known). */
export function fieldNames(field: string): string[] {
  const key = normalizeLabel(field).replace(/(?:框|栏|字段)$/, '');
  const group = FIELD_NAMES.find((g) => g.some((n) => normalizeLabel(n) === key || normalizeLabel(n) === normalizeLabel(field)));
  return group ? [field, ...group] : [field];
}

/** Words of a resource id, `com.android.chrome:id/url_bar` → `url bar`. */
function resourceWords(resourceId: string | undefined): string | undefined {
  if (resourceId === undefined) return undefined;
  const name = resourceId.slice(resourceId.lastIndexOf('/') + 1);
  return name.replace(/[_.-]+/g, ' ').trim() || undefined;
}

/**
 * The editable field `names` refer to (by its text, description, caption or resource-id words);
 * without names, the focused field, else the only one.
 */
export function findField(screen: Screen, names: readonly string[] | undefined): UiElement | undefined {
  const fields = screen.fields();
  if (names === undefined) return fields.find((f) => f.focused) ?? (fields.length === 1 ? fields[0] : undefined);
  let best: { field: UiElement; match: LabelMatch } | undefined;
  for (const f of fields) {
    const match = Math.max(...[...labelsOf(f), screen.captionOf(f), resourceWords(f.resourceId)].map((l) => matchLabel(l, names)), LabelMatch.None) as LabelMatch;
    if (match > (best?.match ?? LabelMatch.None)) best = { field: f, match };
  }
  return best?.field;
}

/**
 * "type T into F": focuses the field (by tapping it, or what opens it, e.g. "Search settings") and
 * types T replacing its text; done when the field shows exactly T (a password field, whose text is
 * never visible, is done once the typing succeeded).
 */
export function planType(text: string, field: string | undefined, input: StepInput): StepOutcome {
  const { screen, memory, last } = input;
  const names = field === undefined ? undefined : fieldNames(field);
  const where = field === undefined ? 'the field' : JSON.stringify(field);
  const target = findField(screen, names);
  if (target) {
    if (target.text?.trim() === text.trim()) return done(`${where} shows ${JSON.stringify(text)}.`);
    if (target.password && memory.facts.get('typed') === true && lastSucceeded(last, 'input'))
      return done(`Typed into the password field ${where} (its text is hidden, so it cannot be checked).`);
    const justFocused = memory.facts.get('focused') === target.nodeId && lastSucceeded(last, 'click');
    if (target.focused || justFocused) {
      if (memory.facts.get('typed') === true && lastSucceeded(last, 'input')) return fail(`typed ${JSON.stringify(text)} but ${where} does not show it`);
      memory.facts.set('typed', true);
      return { kind: 'act', action: { command: 'input', text, clear: true }, reasoning: `Type ${JSON.stringify(text)} into ${where}.`, element: target };
    }
    memory.facts.set('focused', target.nodeId);
    return click(target, `Tap ${where} to focus it.`);
  }
  if (names !== undefined && field !== undefined && !wasTapped(memory, field)) {
    const opener = screen.findTarget(wantedLabels(names));
    if (opener.kind === 'found' && opener.candidate.target) return tap(memory, field, opener.candidate.target, `Tap ${JSON.stringify(field)} to open the field.`);
    if (opener.kind === 'ambiguous') return fail(`no text field ${where} is on the screen, and ${ambiguityReason(field, opener.candidates)}`);
  }
  return fail(field === undefined ? 'no text field has the focus and the screen has no single text field' : `no text field ${where} is on the screen`);
}
