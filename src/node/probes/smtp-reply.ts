import type { Socket } from 'node:net';

/**
 * SMTP replies read off a socket (RFC 5321 §4.2): lines of a three-digit code, then "-" on every
 * line but the last, which has a space (or nothing) after the code. Reads are bounded: a reply of
 * more than `maxReplyBytes` is an error, so a server cannot make the probe hold megabytes.
 */

export const maxReplyBytes = 16 * 1024;

export interface SmtpReply {
  code: number;
  /** The text of each line, after the code and its separator. */
  lines: string[];
}

export class ReplyError extends Error {
  override name = 'ReplyError';
}

/** One reply reader per socket; `next()` resolves the next whole reply. */
export interface ReplyReader {
  next(): Promise<SmtpReply>;
  /** Stops reading (before the socket is handed to TLS): bytes not yet read are dropped. */
  detach(): void;
}

const replyLine = /^(\d{3})([ -]?)(.*)$/;

export function replyReader(socket: Socket): ReplyReader {
  let buffer = '';
  let lines: string[] = [];
  let code: number | undefined;
  let waiting: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void } | undefined;
  const ready: SmtpReply[] = [];
  let failure: Error | undefined;

  const fail = (error: Error) => {
    failure ??= error;
    waiting?.reject(failure);
    waiting = undefined;
  };
  const deliver = (reply: SmtpReply) => {
    if (waiting) {
      waiting.resolve(reply);
      waiting = undefined;
    } else ready.push(reply);
  };
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      const match = replyLine.exec(line);
      if (!match) return fail(new ReplyError(`not an SMTP reply: ${line.slice(0, 80)}`));
      const lineCode = Number(match[1]);
      if (code !== undefined && lineCode !== code) {
        return fail(new ReplyError(`a reply's lines carry codes ${code} and ${lineCode}`));
      }
      code = lineCode;
      lines.push(match[3]!);
      if (match[2] !== '-') {
        deliver({ code, lines });
        code = undefined;
        lines = [];
      }
    }
    const held = buffer.length + lines.reduce((sum, each) => sum + each.length + 6, 0);
    if (held > maxReplyBytes) fail(new ReplyError(`a reply over ${maxReplyBytes / 1024} KB`));
  };
  socket.on('data', onData);
  return {
    next() {
      const reply = ready.shift();
      if (reply) return Promise.resolve(reply);
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    detach() {
      socket.off('data', onData);
      buffer = '';
      ready.length = 0;
    },
  };
}
