import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../fixtures/free-port.js';
import { demoMail, demoNames, demoWorld, demoZones } from '../../scripts/demo-world.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { runScript, stopScripts, until } from '../support/script-process.js';

/**
 * `npm run demo` knows its world: a name outside it is refused as such, naming the demo's names,
 * where it was a 503 telling the caller to try again shortly (docs/results.md, "Errors that
 * guide").
 */

afterEach(stopScripts);

describe('the demo world’s names', () => {
  it('cover every zone of the demo world that is not a blocklist’s or a reverse zone', async () => {
    const lists = new Set((await loadZoneList()).flatMap((zone) => [zone.zone, zone.ipv6?.zone]));
    const own = demoWorld(await loadZoneList())
      .map((zone) => zone.origin)
      .filter((origin) => !lists.has(origin) && !origin.endsWith('.arpa'));
    expect([...own].sort()).toEqual([...demoZones].sort());
  });
});

describe('npm run demo, a name outside its world', () => {
  it('refuses it with 400 invalid_target naming the demo’s names, and checks one of them', async () => {
    const port = await freePort();
    const demo = runScript('demo.ts', [], { PORT: String(port) });
    await until('start', demo.output, (text) => text.includes('Ctrl-C stops it.'));
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
  }, 90_000);
});
