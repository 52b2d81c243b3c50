import type { CommandResult, UiNode, UiTreeData } from '@mobileclaw/domain';
import { SYSTEM_SETTLE_TIMER, StableTreeSettler, canonicalUiTree } from './screen-settling';
import { InstantSettleTimer } from './testing/instant-settle-timer';

const node = (over: Partial<UiNode> = {}): UiNode => ({ id: 'n1', class: 'android.widget.TextView', text: 'Wi-Fi', package: 'com.android.settings', bounds: [0, 0, 100, 50], ...over });
const tree = (nodes: UiNode[], frameId = 'f1'): UiTreeData => ({ frameId, screen: { width: 100, height: 200, rotation: 0 }, nodes });

/** Reads that answer `trees` in order (the last one again after them) and count themselves. */
function scriptedReads(trees: UiTreeData[]) {
  let count = 0;
  const read = async (): Promise<CommandResult<UiTreeData>> => {
    const data = trees[Math.min(count, trees.length - 1)];
    count++;
    return { requestId: `r${count}`, deviceId: 'phone-1', command: 'ui_tree', status: 'success', data, durationMs: 5, queuedMs: 0 };
  };
  return { read, count: () => count };
}

describe('canonicalUiTree', () => {
  it('is the same for two reads of one screen whose node ids (and labeledBy) differ', () => {
    const first = tree([node({ id: 'a1', children: [node({ id: 'a2', labeledBy: 'a1' })] })], 'f1');
    const second = tree([node({ id: 'b7', children: [node({ id: 'b8', labeledBy: 'b7' })] })], 'f2');
    expect(canonicalUiTree(first)).toBe(canonicalUiTree(second));
  });

  it('differs when a text, a description, a hint, bounds, a state, the nesting or the screen differ', () => {
    const base = canonicalUiTree(tree([node(), node({ id: 'n2' })]));
    for (const changed of [
      tree([node({ text: 'Wi-Fi ' }), node({ id: 'n2' })]),
      tree([node({ desc: 'Wi-Fi' }), node({ id: 'n2' })]),
      tree([node({ hint: 'Search' }), node({ id: 'n2' })]),
      tree([node({ bounds: [0, 1, 100, 50] }), node({ id: 'n2' })]),
      tree([node({ checked: false }), node({ id: 'n2' })]),
      tree([node({ focused: true }), node({ id: 'n2' })]),
      tree([node({ resourceId: 'android:id/title' }), node({ id: 'n2' })]),
      tree([node({ children: [node({ id: 'n2' })] })]),
      { ...tree([node(), node({ id: 'n2' })]), screen: { width: 100, height: 200, rotation: 2 } },
    ]) {
      expect(canonicalUiTree(changed)).not.toBe(base);
    }
  });
});

describe('StableTreeSettler', () => {
  const still = tree([node()]);
  const frame = (n: number): UiTreeData => tree([node(), node({ id: 'p', class: 'android.widget.ProgressBar', bounds: [0, 150, n, 160] })]);

  it('settles on the first read equal to the one before it, pausing pollMs between reads', async () => {
    const timer = new InstantSettleTimer();
    const reads = scriptedReads([frame(1), frame(2), still, still]);
    const settled = await new StableTreeSettler({ timeoutMs: 2000, pollMs: 150 }, timer).settle(reads.read, new AbortController().signal);
    expect(settled).toEqual({ tree: expect.objectContaining({ requestId: 'r4', data: still }), settled: true, settleMs: 450 });
    expect(reads.count()).toBe(4);
    expect(timer.pauses).toEqual([150, 150, 150]);
  });

  it('gives up after timeoutMs with the last read, shortening the last pause to end on time', async () => {
    const timer = new InstantSettleTimer();
    const reads = scriptedReads([frame(1), frame(2), frame(3), frame(4)]);
    const settled = await new StableTreeSettler({ timeoutMs: 500, pollMs: 200 }, timer).settle(reads.read, new AbortController().signal);
    expect(settled).toEqual({ tree: expect.objectContaining({ requestId: 'r4', data: frame(4) }), settled: false, settleMs: 500 });
    expect(timer.pauses).toEqual([200, 200, 100]);
  });

  it('waits on while the screen still shows the tree before the action, then settles on its change', async () => {
    const timer = new InstantSettleTimer();
    const reads = scriptedReads([still, still, still, frame(9), frame(9)]);
    const settled = await new StableTreeSettler({ timeoutMs: 2000, pollMs: 100 }, timer).settle(reads.read, new AbortController().signal, still);
    expect(settled).toEqual({ tree: expect.objectContaining({ requestId: 'r5', data: frame(9) }), settled: true, settleMs: 400 });

    // A screen that never changes from it is still, after the whole wait.
    const unchanged = new InstantSettleTimer();
    const stillReads = scriptedReads([still]);
    expect(await new StableTreeSettler({ timeoutMs: 450, pollMs: 100 }, unchanged).settle(stillReads.read, new AbortController().signal, tree([node()], 'f0'))).toEqual({
      tree: expect.objectContaining({ data: still }),
      settled: true,
      settleMs: 450,
    });
    expect(stillReads.count()).toBe(6);
    expect(unchanged.pauses).toEqual([100, 100, 100, 100, 50]);
  });

  it('counts the time the reads take against the wait', async () => {
    const timer = new InstantSettleTimer();
    let count = 0;
    const slow = async (): Promise<CommandResult<UiTreeData>> => {
      timer.ms += 400;
      count++;
      return { requestId: `r${count}`, deviceId: 'phone-1', command: 'ui_tree', status: 'success', data: frame(count), durationMs: 400, queuedMs: 0 };
    };
    const settled = await new StableTreeSettler({ timeoutMs: 1000, pollMs: 200 }, timer).settle(slow, new AbortController().signal);
    // Reads end at 400, 1000 (after a 200 ms pause) and then the wait is over.
    expect(settled).toMatchObject({ settled: false, settleMs: 1000 });
    expect(count).toBe(2);
    expect(timer.pauses).toEqual([200]);
  });

  it('does not wait at all with timeoutMs 0, and refuses settings that would loop without pauses', async () => {
    const reads = scriptedReads([still]);
    expect(await new StableTreeSettler({ timeoutMs: 0, pollMs: 200 }).settle(reads.read, new AbortController().signal)).toBeUndefined();
    expect(reads.count()).toBe(0);
    expect(() => new StableTreeSettler({ timeoutMs: 2000, pollMs: 0 })).toThrow(new RangeError('settling needs timeoutMs ≥ 0 and pollMs > 0, got 2000 and 0'));
    expect(() => new StableTreeSettler({ timeoutMs: -1, pollMs: 200 })).toThrow(RangeError);
    expect(() => new StableTreeSettler({ timeoutMs: Number.NaN, pollMs: 200 })).toThrow(RangeError);
  });

  it('passes the signal to its pauses: a stop ends the wait with the signal\'s reason', async () => {
    const stop = new AbortController();
    const reason = new Error('canceled');
    const reads = scriptedReads([frame(1), frame(2)]);
    let paused!: () => void;
    const pausing = new Promise<void>((resolve) => (paused = resolve));
    const hanging = {
      now: () => 0,
      pause: (_ms: number, signal: AbortSignal) =>
        new Promise<void>((_, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
          paused();
        }),
    };
    const waiting = new StableTreeSettler({ timeoutMs: 2000, pollMs: 200 }, hanging).settle(reads.read, stop.signal);
    await pausing;
    stop.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(reads.count()).toBe(1);
  });
});

describe('SYSTEM_SETTLE_TIMER', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('resolves a pause after its time, and rejects with the reason when its signal fires first or already has', async () => {
    let resolved = false;
    const pause = SYSTEM_SETTLE_TIMER.pause(200, new AbortController().signal).then(() => (resolved = true));
    await jest.advanceTimersByTimeAsync(199);
    expect(resolved).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await pause;
    expect(resolved).toBe(true);

    const stop = new AbortController();
    const stopped = SYSTEM_SETTLE_TIMER.pause(200, stop.signal);
    stop.abort(new Error('stop'));
    await expect(stopped).rejects.toThrow('stop');
    expect(jest.getTimerCount()).toBe(0);
    await expect(SYSTEM_SETTLE_TIMER.pause(200, stop.signal)).rejects.toThrow('stop');
  });
});
