import type { CommandResult, UiNode, UiTreeData } from '@mobileclaw/domain';

/** Monotonic time and pauses for the settle wait; tests pass one whose pauses return at once. */
export interface SettleTimer {
  /** A monotonic time in ms. */
  now(): number;
  /** Resolves after `ms` ms; rejects with `signal.reason` as soon as `signal` fires (at once if it already has). */
  pause(ms: number, signal: AbortSignal): Promise<void>;
}

/** `performance.now()` and Node's `setTimeout`. */
export const SYSTEM_SETTLE_TIMER: SettleTimer = Object.freeze({
  now: () => performance.now(),
  pause: (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    }),
});

/** Reads the phone's UI tree once (a `ui_tree` command). */
export type UiTreeRead = () => Promise<CommandResult<UiTreeData>>;

/** What a wait for the UI to settle found. */
export interface SettledUi {
  /** The last tree read: the settled screen when `settled`, the latest frame of a screen still changing when not. */
  tree: CommandResult<UiTreeData>;
  /** True when the last two trees read were equal (the UI was still), false when the wait ran out while it was changing. */
  settled: boolean;
  /** Time spent waiting, in ms: the tree reads and the pauses between them. */
  settleMs: number;
}

/**
 * How the task loop waits for a phone's UI to settle before it observes the screen, so that a plan is
 * never made on a half-drawn or animating screen. An abstract class so that it doubles as the Nest DI
 * token: a host may provide another way to wait (e.g. an idle signal from the phone, should the wire
 * protocol get one); by default the loop uses a {@link StableTreeSettler} built from its options.
 */
export abstract class ScreenSettler {
  /**
   * Waits until the UI is still, or until the wait runs out.
   * @param read reads the current UI tree; each call is one `ui_tree` command.
   * @param before the tree the last action was planned on, when an action ran since the last
   *   observation: a screen still showing it may not have begun to react yet (an app that takes a
   *   moment to open), so it does not end the wait early.
   * @returns what it found, or undefined when it does not wait at all (settling is off).
   * @throws what `read` throws (the command's `MobileClawError`); `signal.reason` when `signal` fires.
   */
  abstract settle(read: UiTreeRead, signal: AbortSignal, before?: UiTreeData): Promise<SettledUi | undefined>;
}

/** Settings of a {@link StableTreeSettler}, in ms. */
export interface StableTreeSettlerOptions {
  /** Longest wait; 0 turns settling off. */
  timeoutMs: number;
  /** Pause between two tree reads (shortened so that the wait ends by `timeoutMs`). */
  pollMs: number;
}

/**
 * Settles on two consecutive equal UI trees: reads the tree, then again every `pollMs`, until a read
 * equals the one before ({@link canonicalUiTree}) and differs from the tree before the action, or
 * until `timeoutMs` has passed. A screen that still shows the tree before the action thus waits the
 * whole `timeoutMs` for the action to show (an action without visible effect costs that much). It
 * reads only trees, the cheap half of an observation: the screenshot is taken once the tree is still.
 */
export class StableTreeSettler extends ScreenSettler {
  /** @throws RangeError when `timeoutMs` is negative or `pollMs` is not positive (a loop of reads without pauses). */
  constructor(
    private readonly options: StableTreeSettlerOptions,
    private readonly timer: SettleTimer = SYSTEM_SETTLE_TIMER,
  ) {
    super();
    if (!(options.timeoutMs >= 0) || !(options.pollMs > 0)) throw new RangeError(`settling needs timeoutMs ≥ 0 and pollMs > 0, got ${options.timeoutMs} and ${options.pollMs}`);
  }

  override async settle(read: UiTreeRead, signal: AbortSignal, before?: UiTreeData): Promise<SettledUi | undefined> {
    const { timeoutMs, pollMs } = this.options;
    if (timeoutMs === 0) return undefined;
    const unchanged = before === undefined ? undefined : canonicalUiTree(before);
    const started = this.timer.now();
    const elapsed = (): number => this.timer.now() - started;
    let tree = await read();
    let last = canonicalUiTree(tree.data);
    let still = false;
    for (;;) {
      const remaining = timeoutMs - elapsed();
      if (remaining <= 0) return { tree, settled: still, settleMs: Math.round(elapsed()) };
      await this.timer.pause(Math.min(pollMs, remaining), signal);
      tree = await read();
      const next = canonicalUiTree(tree.data);
      still = next === last;
      if (still && next !== unchanged) return { tree, settled: true, settleMs: Math.round(elapsed()) };
      last = next;
    }
  }
}

/**
 * A UI tree in a form two reads of the same screen share: the screen and, for every node in tree
 * order with its nesting, class, text, description, hint, resource id, package, bounds and states. Node ids
 * (and `labeledBy`, which names one) are left out: a phone numbers the nodes of each tree afresh.
 */
export function canonicalUiTree(data: UiTreeData): string {
  const screen = data.screen ? [data.screen.width, data.screen.height, data.screen.rotation ?? 0] : null;
  return JSON.stringify([screen, (data.nodes ?? []).map(canonicalNode)]);
}

function canonicalNode(n: UiNode): unknown[] {
  return [
    n.class ?? null,
    n.text ?? null,
    n.desc ?? null,
    n.hint ?? null,
    n.resourceId ?? null,
    n.package ?? null,
    n.bounds,
    [n.clickable, n.longClickable, n.focusable, n.editable, n.checkable, n.checked, n.enabled, n.focused, n.scrollable, n.selected, n.password].map((flag) => flag ?? null),
    (n.children ?? []).map(canonicalNode),
  ];
}
