import { boundsContain, type AgentAction, type PlanDecision, type UiElement } from '@mobileclaw/domain';

/** What the loop saw on one screen, as needed to judge an action's effect. */
export interface ScreenSnapshot {
  elements: UiElement[];
  package?: string;
}

/**
 * The next screen's verdict on an action: its effect is seen, or not — then `unseen` says what did not
 * happen, as a clause for a message (e.g. `the screen did not change`, `the switch "Wi-Fi" did not flip`).
 */
export type ActionVerdict = { verified: true } | { verified: false; unseen: string };

/** Longest typed text quoted in an `unseen` clause, in characters. */
const QUOTED_TEXT_LIMIT = 40;

function normalize(text: string | undefined): string {
  return (text ?? '').normalize('NFKC').replace(/\s+/g, ' ').trim();
}

/** `text` in double quotes, cut to {@link QUOTED_TEXT_LIMIT} characters (code points). */
function quote(text: string): string {
  const chars = [...text];
  return JSON.stringify(chars.length > QUOTED_TEXT_LIMIT ? `${chars.slice(0, QUOTED_TEXT_LIMIT - 1).join('')}…` : text);
}

/** A stable identity of an element across two trees (node ids are per tree). */
function identity(e: UiElement): string {
  return `${e.type}|${e.resourceId ?? ''}|${e.bounds.join(',')}`;
}

function signature(screen: ScreenSnapshot): string {
  // Focus and selection count: tapping a text field to focus it is a visible effect.
  return (screen.package ?? '') + '\n' + screen.elements.map((e) => `${identity(e)}|${e.text ?? ''}|${e.desc ?? ''}|${e.checked ?? ''}|${e.focused ?? ''}|${e.selected ?? ''}`).join('\n');
}

/** The checkable elements an action at (x, y) would toggle: the one hit, or those inside the row hit. */
function checkablesAt(elements: UiElement[], x: number, y: number): UiElement[] {
  const hit = elements.filter((e) => boundsContain(e.bounds, x, y));
  const direct = hit.filter((e) => e.checkable);
  if (direct.length > 0) return direct;
  // A clickable row toggles the switch drawn inside it (Android preference rows).
  const rows = hit.filter((e) => e.clickable);
  const row = rows[rows.length - 1];
  if (!row) return [];
  return elements.filter((e) => e.checkable && boundsContain(row.bounds, e.center[0], e.center[1]));
}

/** `the switch "Wi-Fi"`: the toggle's kind (its short class, lower case) and its label when it has one. */
function nameToggle(toggle: UiElement): string {
  const label = normalize(toggle.label ?? toggle.text ?? toggle.desc);
  return `the ${toggle.type.toLowerCase()}${label ? ` ${quote(label)}` : ''}`;
}

const SEEN: ActionVerdict = { verified: true };
const UNCHANGED: ActionVerdict = { verified: false, unseen: 'the screen did not change' };

/**
 * Judges whether the observation after an action confirms its effect (the step's `verified`):
 * - `input`: the typed text now appears in an editable field (or anywhere on screen) → seen, else not;
 * - `click` on a switch/checkbox (or on the row that holds one): its `checked` flipped → seen, else not;
 * - `open`: the foreground package is the app → seen, else not;
 * - `back`, `home`, other clicks, `long_press`: the screen changed → seen; unchanged → not;
 * - `swipe`: the screen changed → seen; unchanged → undefined (the end of a list is not a failure).
 * Returns undefined when it cannot tell (no action, or no observation after it).
 */
export function verifyAction(decision: PlanDecision | undefined, before: ScreenSnapshot, after: ScreenSnapshot): ActionVerdict | undefined {
  if (!decision || decision.type !== 'action') return undefined;
  const action: AgentAction = decision.action;
  const changed = signature(before) !== signature(after);
  switch (action.command) {
    case 'input': {
      const typed = normalize(action.text);
      if (!typed) return changed ? SEEN : undefined;
      const editable = after.elements.filter((e) => e.editable && !e.password);
      const pool = editable.length > 0 ? editable : after.elements;
      if (pool.some((e) => normalize(e.text).includes(typed))) return SEEN;
      // Password fields never expose text: a changed screen is all we can see.
      if (after.elements.some((e) => e.password && e.focused)) return changed ? SEEN : undefined;
      if (after.elements.some((e) => normalize(e.text).includes(typed) || normalize(e.desc).includes(typed))) return SEEN;
      return { verified: false, unseen: `the text ${quote(typed)} did not appear` };
    }
    case 'click': {
      const toggles = checkablesAt(before.elements, action.x, action.y);
      if (toggles.length > 0) {
        const afterById = new Map(after.elements.map((e) => [identity(e), e]));
        const flipped = toggles.some((t) => {
          const now = afterById.get(identity(t));
          return now !== undefined && now.checked !== t.checked;
        });
        if (flipped) return SEEN;
        // The row may have opened a sub-screen instead of toggling: that is an effect too.
        if (after.package !== before.package || !toggles.some((t) => afterById.has(identity(t)))) return changed ? SEEN : UNCHANGED;
        return { verified: false, unseen: `${nameToggle(toggles[0])} did not flip` };
      }
      return changed ? SEEN : UNCHANGED;
    }
    case 'open':
      if (after.package === undefined) return undefined;
      return after.package === action.app ? SEEN : { verified: false, unseen: `the app in front is ${after.package}, not ${action.app}` };
    case 'swipe':
      return changed ? SEEN : undefined;
    default:
      return changed ? SEEN : UNCHANGED;
  }
}
