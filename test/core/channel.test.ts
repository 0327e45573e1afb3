import { describe, expect, it } from 'vitest';
import { Channel } from '../../src/core/channel.js';

async function readAll<T>(channel: Channel<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of channel) out.push(item);
  return out;
}

describe('Channel', () => {
  it('yields pushed items in order, waiting for pushes, until closed', async () => {
    const channel = new Channel<number>();
    const read = readAll(channel);
    channel.push(1);
    await Promise.resolve();
    channel.push(2);
    channel.close();
    expect(await read).toEqual([1, 2]);
  });

  it('throws the close error after the items before it', async () => {
    const channel = new Channel<string>();
    channel.push('a');
    channel.close('broken entry');
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const item of channel) seen.push(item);
      })(),
    ).rejects.toThrow('broken entry');
    expect(seen).toEqual(['a']);
  });

  it('drain takes the items a reader left', () => {
    const channel = new Channel<number>();
    channel.push(1);
    channel.push(2);
    expect(channel.drain()).toEqual([1, 2]);
    expect(channel.drain()).toEqual([]);
  });
});
