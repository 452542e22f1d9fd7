import { connect, type Socket } from 'node:net';

/**
 * A plain SMTP client on a raw socket, one command at a time, for the tests that look at what a
 * server says line by line (its greeting, EHLO keywords, a refusal's exact reply) or that hold
 * connections open without a library in between.
 */

export interface SmtpReplyLines {
  code: number;
  /** The text of each line, after the code and its separator. */
  lines: string[];
}

export interface SmtpSession {
  /** The next whole reply (RFC 5321 §4.2.1: `code-text` lines, then `code text`). */
  reply(): Promise<SmtpReplyLines>;
  /** Sends one line (CRLF added) and reads the reply. */
  command(line: string): Promise<SmtpReplyLines>;
  /** Writes bytes as they are. */
  write(bytes: string | Uint8Array): void;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
  close(): void;
}

export async function openSmtpSession(port: number, host = '127.0.0.1'): Promise<SmtpSession> {
  const socket: Socket = connect(port, host);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => {});
  let buffered = '';
  let waiting: (() => void) | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    waiting?.();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closed.then(() => waiting?.());

  async function reply(): Promise<SmtpReplyLines> {
    const lines: string[] = [];
    for (;;) {
      const end = buffered.indexOf('\r\n');
      if (end < 0) {
        if (socket.destroyed) throw new Error(`the server closed the connection after ${lines}`);
        await new Promise<void>((resolve) => (waiting = resolve));
        continue;
      }
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      lines.push(line.slice(4));
      if (line[3] !== '-') return { code: Number(line.slice(0, 3)), lines };
    }
  }

  return {
    reply,
    async command(line) {
      socket.write(`${line}\r\n`);
      return reply();
    },
    write: (bytes) => void socket.write(bytes),
    closed,
    close: () => socket.destroy(),
  };
}
