import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFailingSource, seedDemoInbox } from '../../scripts/demo-reports.js';
import { demoAddresses, demoWorld } from '../../scripts/demo-world.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import type { Summary } from '../../src/tools/reports/schemas.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * The demo's reports inbox (scripts/demo-reports.ts) over the demo's DNS world, as `npm run demo`
 * makes it: verified by the operator's token, a month of reports, one source failing DMARC and
 * one on the demo's blocklists, and a dashboard link that answers.
 */

const operatorToken = 'demo-operator-token-0123456789';
/** One moment for the reports' days and the service's window, whatever the time of the run. */
const now = new Date('2025-06-30T12:00:00Z');
let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    now,
    world: demoWorld(await loadZoneList()),
    env: { REPORTS_ADDRESS: 'dmarc@reports.demo-sender.com', OPERATOR_TOKEN: operatorToken },
  });
});
afterAll(() => service.close());

describe('the demo inbox', () => {
  it('holds a month of reports, a failing source and a listed one, behind a link that answers', async () => {
    const inbox = await seedDemoInbox(service.url(''), operatorToken, now);
    let summary: Summary | undefined;
    for (let attempt = 0; attempt < 100; attempt++) {
      const response = await service.get(`/reports/v1/${inbox.id}`, {
        authorization: `Bearer ${inbox.key}`,
      });
      summary = (await response.json()) as Summary;
      if (summary.sources.every((source) => source.reputation !== null)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(summary).toMatchObject({ domain: 'demo-sender.com', verified: true });
    expect(summary!.dmarc.daily).toHaveLength(30);
    expect(summary!.dmarc.reporters.map((reporter) => reporter.org)).toEqual([
      'google.com',
      'Outlook.com',
    ]);
    const failing = summary!.sources.filter((source) => source.fail > 0).map((source) => source.ip);
    expect(failing).toEqual([demoFailingSource]);
    const listed = summary!.sources
      .filter((source) => (source.reputation?.listed_on.length ?? 0) > 0)
      .map((source) => source.ip);
    expect(listed).toContain(demoAddresses.listed);
    const view = await service.fetch(inbox.viewUrl);
    expect(view.status).toBe(200);
    expect(await view.text()).toContain('1 source fails');
  });
});
