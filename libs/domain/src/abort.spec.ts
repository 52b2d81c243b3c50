import { settleOrAbort } from './abort';

describe('settleOrAbort', () => {
  it('settles like the work when the signal does not fire', async () => {
    const controller = new AbortController();
    await expect(settleOrAbort(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(settleOrAbort(Promise.reject(new Error('boom')), controller.signal)).rejects.toThrow('boom');
  });

  it('rejects at once with the signal reason, or the mapped error, while the work still runs', async () => {
    const never = new Promise<number>(() => undefined);
    const controller = new AbortController();
    const waiting = settleOrAbort(never, controller.signal);
    controller.abort(new Error('canceled by a caller'));
    await expect(waiting).rejects.toThrow('canceled by a caller');
    await expect(settleOrAbort(never, controller.signal, () => new Error('mapped'))).rejects.toThrow('mapped');
  });

  it('handles the work’s rejection when the signal had fired before: no unhandled rejection', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    const work = Promise.reject(new Error('planning was canceled'));
    const then = jest.spyOn(work, 'then');
    await expect(settleOrAbort(work, controller.signal)).rejects.toThrow('gone');
    expect(then).toHaveBeenCalled();
  });
});
