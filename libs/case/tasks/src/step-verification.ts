import { boundsContain, type AgentAction, type PlanDecision, type UiElement } from '@mobileclaw/domain';

/** What the loop saw on one screen, as needed to judge an action's effect. */
export interface ScreenSnapshot {
  elements: UiElement[];
  package?: string;
}

function normalize(text: string | undefined): string {
  return (text ?? '').normalize('NFKC').replace(/\s+/g, ' ').trim();
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

/**
 * Judges whether the observation after an action confirms its effect (the step's `verified`):
 * - `input`: the typed text now appears in an editable field (or anywhere on screen) → true, else false;
 * - `click` on a switch/checkbox (or on the row that holds one): its `checked` flipped → true, else false;
 * - `open`: the foreground package is the app → true, else false;
 * - `back`, `home`, other clicks, `long_press`: the screen changed → true; unchanged → false;
 * - `swipe`: the screen changed → true; unchanged → undefined (the end of a list is not a failure).
 * Returns undefined when it cannot tell (no action, or no observation after it).
 */
export function verifyAction(decision: PlanDecision | undefined, before: ScreenSnapshot, after: ScreenSnapshot): boolean | undefined {
  if (!decision || decision.type !== 'action') return undefined;
  const action: AgentAction = decision.action;
  const changed = signature(before) !== signature(after);
  switch (action.command) {
    case 'input': {
      const typed = normalize(action.text);
      if (!typed) return changed ? true : undefined;
      const editable = after.elements.filter((e) => e.editable && !e.password);
      const pool = editable.length > 0 ? editable : after.elements;
      if (pool.some((e) => normalize(e.text).includes(typed))) return true;
      // Password fields never expose text: a changed screen is all we can see.
      if (after.elements.some((e) => e.password && e.focused)) return changed ? true : undefined;
      return after.elements.some((e) => normalize(e.text).includes(typed) || normalize(e.desc).includes(typed));
    }
    case 'click': {
      const toggles = checkablesAt(before.elements, action.x, action.y);
      if (toggles.length > 0) {
        const afterById = new Map(after.elements.map((e) => [identity(e), e]));
        const flipped = toggles.some((t) => {
          const now = afterById.get(identity(t));
          return now !== undefined && now.checked !== t.checked;
        });
        if (flipped) return true;
        // The row may have opened a sub-screen instead of toggling: that is an effect too.
        return after.package !== before.package || !toggles.some((t) => afterById.has(identity(t))) ? changed : false;
      }
      return changed;
    }
    case 'open':
      return after.package === undefined ? undefined : after.package === action.app;
    case 'swipe':
      return changed ? true : undefined;
    default:
      return changed;
  }
}
