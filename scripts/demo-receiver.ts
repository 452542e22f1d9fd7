import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startWebhookReceiver } from '../fixtures/webhook-receiver.js';
import { describeDelivery } from './demo-delivery.js';
import { demoWatchDefaults } from './demo-watch.js';

/**
 * `npm run demo:receiver`: a webhook receiver on 127.0.0.1 for `npm run demo`'s watches. It
 * answers every delivery 204 and prints it on one line (scripts/demo-delivery.ts), checking the
 * signature once it has the watch's `webhook_secret`: from `--secret` or `WEBHOOK_SECRET` at the
 * start, or pasted as a line while it runs (the secret is only known once the watch exists, and
 * the first change comes a re-check or two later). `--port` or `DEMO_RECEIVER_PORT` (default
 * 8788, as `npm run demo` prints) says where it listens.
 */

const { values } = parseArgs({
  options: { port: { type: 'string' }, secret: { type: 'string' } },
});
const port = Number(
  values.port ?? process.env.DEMO_RECEIVER_PORT ?? demoWatchDefaults.receiverPort,
);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error(`demo:receiver: --port must be a port number (1 to 65535), not ${values.port}`);
  process.exit(2);
}
let secret = values.secret ?? (process.env.WEBHOOK_SECRET || undefined);

const receiver = await startWebhookReceiver({ port }).catch((error: unknown) => {
  console.error(`demo:receiver: cannot listen on 127.0.0.1:${port}: ${String(error)}`);
  process.exit(1);
});
/** Watches whose page was shown: once each, under its first delivery. */
const shown = new Set<string>();
receiver.answer((request) => {
  const delivery = describeDelivery(request, secret, new Date());
  console.log(delivery.line);
  if (delivery.watch && !shown.has(delivery.watch.id)) {
    shown.add(delivery.watch.id);
    console.log(`  the watch's page: ${delivery.watch.page_url}`);
  }
  return 204;
});
console.log(
  `Receiving webhooks on ${receiver.url()} (${secret ? 'checking signatures' : 'paste the watch’s webhook_secret here to check signatures'}). Ctrl-C stops it.`,
);

createInterface({ input: process.stdin }).on('line', (line) => {
  const pasted = line.trim();
  if (pasted === '') return;
  if (!pasted.startsWith('whsec_')) {
    console.log('A webhook_secret starts with whsec_; nothing changed.');
    return;
  }
  secret = pasted;
  console.log('Checking signatures with this secret from now on.');
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void receiver.close().then(() => process.exit(0));
  });
}
