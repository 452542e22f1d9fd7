import { aggregateXml, gzipped, type Row, tlsJson } from '../fixtures/report-files.js';
import { demoAddresses, demoNames } from './demo-world.js';

/**
 * The demo's reports inbox (`npm run demo`, docs/reports.md): an inbox for the demo's sending
 * domain, made over HTTP as any caller makes one (with the operator's token, so it is verified),
 * filled with a month of the reports two receivers would send: its mail host and the address its
 * SPF includes pass, a relay passes SPF only, an address nobody authorised fails, and the
 * included address is on the demo world's blocklists. Its dashboard link is printed.
 */

export const demoReportsAddress = 'dmarc@reports.demo-sender.com';

/** An address the demo world lists nowhere and the domain's SPF does not name: it fails DMARC. */
export const demoFailingSource = '192.0.3.77';

/** A day's rows as one receiver reports them; `scale` makes the two receivers differ. */
function rowsOf(day: number, scale: number): Row[] {
  // Weekdays send more than weekends, so the chart has a shape.
  const weekday = day % 7 < 5 ? 1 : 0.6;
  const n = (count: number) => Math.max(1, Math.round(count * scale * weekday));
  return [
    { ip: demoAddresses.clean, count: n(1200), dkim: true, spf: true },
    { ip: demoAddresses.ipv6, count: n(90), dkim: true, spf: true },
    { ip: demoAddresses.listed, count: n(150), dkim: true, spf: true },
    { ip: demoAddresses.dynamic, count: n(60), spf: true },
    { ip: demoFailingSource, count: n(25), disposition: 'quarantine' },
  ];
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Makes the inbox at `base` (the service's URL under BASE_PATH) and uploads the reports of the 30
 * days the dashboard shows: Google's and Outlook's aggregate reports, and Google's TLS reports, a
 * receiver's report of a day coming the day after (today's, the last, is still partial).
 */
export async function seedDemoInbox(
  base: string,
  operatorToken: string,
  now = new Date(),
): Promise<{ id: string; key: string; viewUrl: string }> {
  const created = await fetch(`${base}/reports/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify({ domain: demoNames.domain }),
  });
  if (created.status !== 201) {
    throw new Error(`POST /reports/v1: ${created.status} ${await created.text()}`);
  }
  const inbox = (await created.json()) as { id: string; key: string; view_url: string };
  const send = async (body: Uint8Array | string, type: string) => {
    const response = await fetch(`${base}/reports/v1/${inbox.id}/upload`, {
      method: 'POST',
      headers: { 'content-type': type, authorization: `Bearer ${inbox.key}` },
      body,
    });
    if (response.status !== 201) {
      throw new Error(`upload: ${response.status} ${await response.text()}`);
    }
  };
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let back = 29; back >= 0; back--) {
    const date = day(today - back * 86_400_000);
    for (const [org, scale] of [
      ['google.com', 1],
      ['Outlook.com', 0.4],
    ] as const) {
      const xml = aggregateXml({
        org,
        reportId: `${org}!${demoNames.domain}!${date}`,
        domain: demoNames.domain,
        date,
        rows: rowsOf(back, scale),
      });
      await send(gzipped(xml), 'application/gzip');
    }
    const tls = tlsJson({
      org: 'google.com',
      reportId: `${date}T00:00:00Z_${demoNames.domain}`,
      domain: demoNames.domain,
      date,
      success: 1400,
      failure: back % 6 === 0 ? 4 : 0,
      failures:
        back % 6 === 0
          ? [
              {
                resultType: 'certificate-expired',
                mx: demoNames.host,
                mta: '209.85.220.41',
                count: 4,
              },
            ]
          : [],
    });
    await send(tls, 'application/tlsrpt+json');
  }
  // The summary starts the sources' IP checks: by the time the link is opened they are done.
  await fetch(`${base}/reports/v1/${inbox.id}`, {
    headers: { authorization: `Bearer ${inbox.key}` },
  });
  return { id: inbox.id, key: inbox.key, viewUrl: inbox.view_url };
}

/** Waits until the service at `base` answers, for a script that started it in its own process. */
export async function untilServing(base: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${base}/openapi.json`)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > until) throw new Error(`${base} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What the demo prints of its inbox. */
export function reportsInstructions(
  base: string,
  inbox: { id: string; key: string; viewUrl: string },
): string {
  const auth = `-H 'authorization: Bearer ${inbox.key}'`;
  return `  # a reports inbox for ${demoNames.domain} with a month of DMARC and TLS reports: its dashboard
  # (${demoFailingSource} fails DMARC, ${demoAddresses.listed} is on the demo's blocklists)
  open ${inbox.viewUrl}
  # its summary, its sources as CSV, and a report of your own uploaded (gzip, zip, XML, JSON, a message)
  curl -s ${auth} ${base}/reports/v1/${inbox.id}
  curl -s ${auth} ${base}/reports/v1/${inbox.id}/sources.csv
  curl -s ${auth} ${base}/reports/v1/${inbox.id}/upload -H 'content-type: application/gzip' --data-binary @report.xml.gz`;
}
