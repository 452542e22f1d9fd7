import { createServer } from 'node:http';
import { listenAndReport } from './listening.js';

/**
 * Section 4's ceiling: a bare node:http server, no framework, that answers every POST (after
 * reading and parsing its JSON body) and every GET with the exact bytes and headers the service
 * answered. What it does per second on this machine, beside the same load generator, is the most
 * any Node service can do for those requests here. Run as its own process by bare-http.ts; it
 * reads the answers from BARE_ANSWERS and prints its port once listening.
 */

interface Answer {
  headers: Record<string, string>;
  body: string;
}

const answers = JSON.parse(process.env.BARE_ANSWERS ?? '') as { post: Answer; get: Answer };

const server = createServer((request, response) => {
  if (request.method !== 'POST') {
    response.writeHead(200, answers.get.headers).end(answers.get.body);
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString());
    response.writeHead(200, answers.post.headers).end(answers.post.body);
  });
});
listenAndReport(server);
