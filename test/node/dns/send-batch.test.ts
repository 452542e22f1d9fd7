import { describe, expect, it } from 'vitest';
import { type BatchedSender, SendBatch } from '../../../src/node/dns/send-batch.js';

/** A sender that records what it sent, by name, into one shared log. */
function recorder(name: string, log: string[]): BatchedSender {
  return { sendNow: (message) => log.push(`${name}:${message[0]}`) };
}

describe('SendBatch', () => {
  it('sends nothing while the JavaScript runs, then everything queued, in order, once it ends', async () => {
    const log: string[] = [];
    const batch = new SendBatch();
    const [a, b] = [recorder('a', log), recorder('b', log)];
    batch.send(a, Uint8Array.of(1));
    batch.send(b, Uint8Array.of(2));
    batch.send(a, Uint8Array.of(3));
    expect(log).toEqual([]);
    await Promise.resolve();
    expect(log).toEqual(['a:1', 'b:2', 'a:3']);
  });

  it('starts a new burst for what is queued after a flush, and sends each datagram once', async () => {
    const log: string[] = [];
    const batch = new SendBatch();
    const a = recorder('a', log);
    batch.send(a, Uint8Array.of(1));
    await Promise.resolve();
    batch.send(a, Uint8Array.of(2));
    await Promise.resolve();
    expect(log).toEqual(['a:1', 'a:2']);
  });

  it('queues a datagram a sender writes while the batch is being sent for the next burst', async () => {
    const log: string[] = [];
    const batch = new SendBatch();
    const b = recorder('b', log);
    const a: BatchedSender = {
      sendNow(message) {
        log.push(`a:${message[0]}`);
        if (message[0] === 1) batch.send(b, Uint8Array.of(9));
      },
    };
    batch.send(a, Uint8Array.of(1));
    batch.send(a, Uint8Array.of(2));
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['a:1', 'a:2', 'b:9']);
  });
});
