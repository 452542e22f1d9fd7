import { describe, expect, it } from 'vitest';
import { demoWorld, demoZones } from '../../scripts/demo-world.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';

/**
 * The names `npm run demo` knows, which it names when it refuses one outside its world (the
 * running demo refusing one: test/scripts/demo-watch.test.ts).
 */

describe('the demo world’s names', () => {
  it('cover every zone of the demo world that is not a blocklist’s or a reverse zone', async () => {
    const lists = new Set((await loadZoneList()).flatMap((zone) => [zone.zone, zone.ipv6?.zone]));
    const own = demoWorld(await loadZoneList())
      .map((zone) => zone.origin)
      .filter((origin) => !lists.has(origin) && !origin.endsWith('.arpa'));
    expect([...own].sort()).toEqual([...demoZones].sort());
  });
});
