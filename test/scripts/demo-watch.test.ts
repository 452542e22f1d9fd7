import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../fixtures/free-port.js';
import { demoFlapping, demoMail, demoNames } from '../../scripts/demo-world.js';
import { runScript as run, stopScripts, until } from '../support/script-process.js';

/**
 * `npm run demo` as a person runs it, one demo process for the file (with a 3 s cycle and 1 s
 * intervals instead of its 2 min and 30 s).
 *
 * It knows its world: a name outside it is refused as such, naming the demo's names, where it was
 * a 503 telling the caller to try again shortly (docs/results.md, "Errors that guide").
 *
 * Its watch at work, end to end: `npm run demo:receiver` in another process, the watch command
 * the demo prints run as printed by a shell, the answer's webhook_secret pasted into the
 * receiver; then a confirmed watch.listed and a watch.delisted arrive, each signature checked by
 * the receiver with the standardwebhooks package.
 */

let port: number;
let receiverPort: number;
let demo: ReturnType<typeof run>;
// A demo start takes seconds on a machine busy with the rest of the suite.
beforeAll(async () => {
  [port, receiverPort] = await Promise.all([freePort(), freePort()]);
  demo = run('demo.ts', [], {
    PORT: String(port),
    DEMO_RECEIVER_PORT: String(receiverPort),
    DEMO_FLAP_S: '3',
    WATCH_MIN_INTERVAL_S: '1',
    WATCH_INTERVAL_S: '1',
  });
  await until('start', demo.output, (text) => text.includes('Ctrl-C stops it.'));
}, 90_000);
afterAll(stopScripts);

describe('npm run demo, a name outside its world', () => {
  it('refuses it with 400 invalid_target naming the demo’s names, and checks one of them', async () => {
    const post = (path: string, body: object) =>
      fetch(`http://127.0.0.1:${port}/tools/ip-reputation${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const outside = await post('/domain/v1', { domain: 'example.com' });
    expect(outside.status).toBe(400);
    expect(await outside.json()).toMatchObject({
      code: 'invalid_target',
      error: `example.com is outside the DNS this service resolves in, which knows only the names under ${demoNames.domain}, ${demoNames.listedDomain}, ${demoMail.domain} and broadband.demo-isp.net`,
    });
    const inside = await post('/domain/v1', { domain: demoNames.domain });
    expect(inside.status, await inside.clone().text()).toBe(200);
  });
});

describe('npm run demo, a watch at work', () => {
  it('delivers a confirmed watch.listed, then watch.delisted, signed, to the receiver it prints', async () => {
    const printed = demo.output.text.split('\n').map((line) => line.trim());
    const receiverCommand = printed.find((line) => line.startsWith('npm run demo:receiver'));
    expect(receiverCommand).toBe(`npm run demo:receiver -- --port ${receiverPort}`);
    const receiver = run('demo-receiver.ts', receiverCommand!.split(' ').slice(4), {});
    await until('receiver', receiver.output, (text) => text.includes('Receiving webhooks'));

    const watchCommand = printed.find((line) => /^curl .*\/watch\/v1 /.test(line));
    expect(watchCommand).toContain(`"target":"${demoFlapping.address}"`);
    const { stdout } = await promisify(execFile)('sh', ['-c', watchCommand!]);
    const created = JSON.parse(stdout) as {
      id: string;
      webhook_secret: string;
      interval_s: number;
    };
    expect(created.interval_s).toBe(1);
    receiver.child.stdin!.write(`${created.webhook_secret}\n`);
    await until('secret', receiver.output, (text) => text.includes('Checking signatures'));

    // What arrives once the receiver checks signatures: a listing, then its delisting.
    const checked = () => receiver.output.text.split('Checking signatures')[1]!;
    const listed = new RegExp(
      `watch\\.listed ${demoFlapping.address} \\| \\+${demoFlapping.zone} \\(127\\.0\\.0\\.2\\) \\| \\w+ \\d+/100 \\| signature ok`,
    );
    const delisted = new RegExp(
      `watch\\.delisted ${demoFlapping.address} \\| -${demoFlapping.zone} \\(127\\.0\\.0\\.2\\) \\| good 100/100 \\| signature ok`,
    );
    await until('listed then delisted', receiver.output, () => {
      const after = checked().split(listed);
      return after.length > 1 && delisted.test(after.slice(1).join(''));
    });
    expect(checked()).not.toMatch(/signature (WRONG|not checked)/);
    // The watch's page, absolute, once under its first delivery.
    expect(receiver.output.text.match(/the watch's page/g)).toHaveLength(1);
    expect(receiver.output.text).toContain(
      `the watch's page: http://127.0.0.1:${port}/tools/ip-reputation/watch/v1/${created.id}/share`,
    );
    expect(demo.output.text).toContain(`${demoFlapping.address} listed on ${demoFlapping.zone}`);
    expect(demo.output.text).toContain(
      `${demoFlapping.address} delisted from ${demoFlapping.zone}`,
    );
  }, 90_000);
});
