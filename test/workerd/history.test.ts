import {
  createExecutionContext,
  createScheduledController,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/worker.js';
import type { WorkerEnv } from '../../src/workers/app.js';
import { variablesOf } from '../../src/workers/edge-apps.js';
import { parseCsv } from '../support/csv.js';
import { basePath, startWorld } from './support/service.js';

/**
 * A watch's history on Workers (docs/watches.md, "History export"): re-checked on the Cron
 * Trigger while the fixture world lists its address, then read back through the Worker as
 * history.json and RFC 4180 history.csv, from the Durable Object store.
 */

const target = '185.220.101.9';
let lists: Awaited<ReturnType<typeof startWorld>>;
let vars: Record<string, string>;

beforeAll(async () => {
  lists = await startWorld({ listings: {} });
  vars = { DOH_URL: lists.dohUrl, WATCH_MIN_INTERVAL_S: '1' };
});
afterAll(async () => {
  // The clock of this configuration would go on claiming with the world closed.
  const variables = variablesOf({ ...(env as unknown as WorkerEnv), ...vars });
  const clocks = (env as unknown as WorkerEnv).WATCH_CLOCK;
  await runInDurableObject(
    clocks.get(clocks.idFromName(JSON.stringify(variables))),
    async (_, state) => {
      await state.storage.deleteAlarm();
      await state.storage.deleteAll();
    },
  );
  await lists.close();
});

async function call(path: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`http://edge.test${basePath}${path}`, init);
  request.headers.set('cf-connecting-ip', '192.0.2.91');
  const response = await worker.fetch(
    request as Parameters<typeof worker.fetch>[0],
    { ...(env as unknown as WorkerEnv), ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

async function scheduled(): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: Date.now(), cron: '* * * * *' }),
    { ...(env as unknown as WorkerEnv), ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

describe('a watch’s history inside workerd', () => {
  it('answers history.json and history.csv with the listing its re-checks recorded', async () => {
    const created = await call('/watch/v1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target, interval_s: 1, confirmations: 1 }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    await lists.setWorld({ listings: { [target]: { 'bl.spamcop.net': ['127.0.0.2'] } } });
    const historyOf = async () => {
      await scheduled();
      const answer = await call(`/watch/v1/${id}/history.json`);
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { history: unknown[] }).history;
    };
    await expect.poll(historyOf, { timeout: 15_000, interval: 250 }).toHaveLength(1);

    const json = (await (await call(`/watch/v1/${id}/history.json`)).json()) as {
      id: string;
      history: { at: string; added: { zone: string; name: string }[]; score: number }[];
    };
    expect(json).toMatchObject({ id, target, kind: 'ip' });
    expect(json.history[0]!.added).toEqual([
      expect.objectContaining({ zone: 'bl.spamcop.net', name: 'SpamCop Blocking List' }),
    ]);

    const csv = await call(`/watch/v1/${id}/history.csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    // The target and the date of the watch's last check.
    expect(csv.headers.get('content-disposition')).toMatch(
      new RegExp(
        `^attachment; filename="${target.replaceAll('.', '\\.')}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`,
      ),
    );
    const rows = parseCsv(await csv.text());
    expect(rows[0]).toEqual([
      'time',
      'event',
      'zone',
      'list',
      'code',
      'meaning',
      'verdict',
      'score',
      'address',
      'target',
      'time_utc',
      'listed_for',
      'listed_for_s',
    ]);
    expect(rows.slice(1)).toEqual([
      [
        json.history[0]!.at,
        'listed',
        'bl.spamcop.net',
        'SpamCop Blocking List',
        '127.0.0.2',
        expect.any(String),
        expect.any(String),
        String(json.history[0]!.score),
        '',
        target,
        json.history[0]!.at.slice(0, 19).replace('T', ' '),
        '',
        '',
      ],
    ]);
  }, 30_000);

  it('answers 404 for an unknown watch’s history', async () => {
    for (const file of ['history.csv', 'history.json']) {
      const response = await call(`/watch/v1/AAAAAAAAAAAAAAAAAAAAAA/${file}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'not_found' });
    }
  });
});
