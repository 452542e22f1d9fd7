/**
 * The datagrams queries write during one run of JavaScript, sent back to back once it ends (a
 * microtask). A check asks its 20 or so questions in one synchronous fan-out, but between two
 * sends each query passes the resolver's layers (cache, in-flight caps, observers): sent as they
 * come, a few microseconds apart, each datagram found the DNS server's thread asleep again and its
 * `sendmsg()` paid for waking it (on loopback the sender's system call delivers the datagram and
 * wakes the receiver). Sent together, one wake-up serves the burst, as for the bare `node:dgram`
 * client of the benchmark: docs/benchmarks.md, "The datagrams' wake-ups", has the measurement.
 */

/** What the batch sends on: a ServerSocket, which drops the datagram once it is closed. */
export interface BatchedSender {
  sendNow(message: Uint8Array): void;
}

export class SendBatch {
  #senders: BatchedSender[] = [];
  #messages: Uint8Array[] = [];
  readonly #flush = () => this.flush();

  send(sender: BatchedSender, message: Uint8Array): void {
    this.#senders.push(sender);
    this.#messages.push(message);
    if (this.#senders.length === 1) queueMicrotask(this.#flush);
  }

  /** Sends what is queued, in order. */
  flush(): void {
    const senders = this.#senders;
    const messages = this.#messages;
    this.#senders = [];
    this.#messages = [];
    for (let index = 0; index < senders.length; index++) {
      senders[index]!.sendNow(messages[index]!);
    }
  }
}
