import { KeyedSerialQueue } from './keyed-serial-queue';

describe('KeyedSerialQueue', () => {
  it('runs the tasks of one key one after the other, of different keys side by side', async () => {
    const queue = new KeyedSerialQueue();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = queue.run('a', async () => {
      log.push('a1 start');
      await gate;
      log.push('a1 end');
      return 1;
    });
    const second = queue.run('a', async () => {
      log.push('a2');
      return 2;
    });
    const other = queue.run('b', async () => {
      log.push('b1');
      return 3;
    });
    expect(await other).toBe(3);
    expect(log).toEqual(['a1 start', 'b1']);
    release();
    expect([await first, await second]).toEqual([1, 2]);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });

  it('fails only the failing task; the next one of the key still runs', async () => {
    const queue = new KeyedSerialQueue();
    const failed = queue.run('a', async () => {
      throw new Error('boom');
    });
    const next = queue.run('a', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
    await queue.idle();
  });
});
