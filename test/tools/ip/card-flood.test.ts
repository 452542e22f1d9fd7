import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../../support/service.js';

/**
 * Cards are drawn off the event loop (docs/http-hardening.md#cards-off-the-event-loop): a flood of
 * distinct cards leaves the other routes answering at once, and past the renderer's queue a card is
 * a 503 `busy` with Retry-After.
 */

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A busy machine (the whole suite runs in parallel) must not turn a check into a 503. */
const patientChecks = { DAILY_LIMIT: '1000', DNS_TIMEOUT_MS: '1000', CHECK_DEADLINE_MS: '8000' };

/** Distinct results, one card each: IP checks of public addresses no list lists. */
async function tokens(running: TestService, count: number): Promise<string[]> {
  const made: string[] = [];
  for (let start = 0; start < count; start += 4) {
    const batch = Array.from({ length: Math.min(4, count - start) }, async (_, offset) => {
      const response = await running.post('/ip/v1', { target: `9.9.${start + offset}.9` });
      expect(response.status).toBe(200);
      return ((await response.json()) as { token: string }).token;
    });
    made.push(...(await Promise.all(batch)));
  }
  return made;
}

/** Width and height from a PNG's IHDR chunk (PNG spec §11.2.2), read from the bytes as sent. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(new TextDecoder().decode(bytes.subarray(12, 16))).toBe('IHDR');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('a flood of distinct cards', () => {
  it('leaves GET /status answering between the cards while 24 are drawn 12 at a time', async () => {
    const running = (service = await startTestService({ env: patientChecks }));
    const cardTokens = await tokens(running, 25);
    // One card first: the drawing thread's start-up (fonts, renderer) is not what is measured.
    expect((await running.get(`/ip/v1/share/${cardTokens[0]}/card`)).status).toBe(200);

    let flooding = true;
    const cards: Uint8Array[] = [];
    const flood = (async () => {
      const queue = cardTokens.slice(1);
      await Promise.all(
        Array.from({ length: 12 }, async () => {
          for (let token = queue.shift(); token; token = queue.shift()) {
            const response = await running.get(`/ip/v1/share/${token}/card`);
            expect(response.status).toBe(200);
            cards.push(new Uint8Array(await response.arrayBuffer()));
          }
        }),
      );
      flooding = false;
    })();
    let statusAnswers = 0;
    while (flooding) {
      const response = await running.get('/ip/v1/status');
      statusAnswers += 1;
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await flood;

    expect(cards).toHaveLength(24);
    for (const png of cards) expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
    // Drawn on the event loop, the status reads waited behind the cards: 5 answered in the whole
    // flood. Off it they keep answering between the cards; how fast is measured by `npm run bench`
    // (section 7), not here.
    expect(statusAnswers).toBeGreaterThan(20);
  }, 90_000);

  it('answers 503 busy with Retry-After past the queue, and draws those cards when asked again', async () => {
    const running = (service = await startTestService({
      env: { ...patientChecks, CARD_RENDER_THREADS: '1', CARD_RENDER_QUEUE: '1' },
    }));
    const cardTokens = await tokens(running, 6);
    const responses = await Promise.all(
      cardTokens.map((token) => running.get(`/ip/v1/share/${token}/card`)),
    );
    const statuses = responses.map((response) => response.status);
    // One card drawing and one waiting; the others are refused at once.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(2);
    const refused = responses.filter((response) => response.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const response of refused) {
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await response.json()).toEqual({
        status: 'error',
        code: 'busy',
        error: expect.any(String),
      });
    }
    for (const response of responses.filter((answer) => answer.status === 200)) {
      const png = new Uint8Array(await response.arrayBuffer());
      expect(await sharp(png).metadata()).toMatchObject({ width: 1200, height: 630 });
    }
    // A refused card is not remembered as a failure: asked again, it is drawn.
    const again = await running.get(`/ip/v1/share/${cardTokens[statuses.indexOf(503)]}/card`);
    expect(again.status).toBe(200);
    expect(pngSize(new Uint8Array(await again.arrayBuffer()))).toEqual({
      width: 1200,
      height: 630,
    });
  }, 60_000);
});
