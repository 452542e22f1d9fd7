import { randomBytes } from 'node:crypto';
import { confirmingCheckS } from '../src/watch/model/index.js';
import { demoFlapping } from './demo-world.js';

/**
 * `npm run demo`'s watch at work: the settings that let a watch on the flapping address deliver
 * to a receiver on the same machine within minutes, and the commands it prints to try it. These
 * are the demo's settings, not the service's defaults (docs/watches.md, "Safety": a webhook
 * reaches a loopback address only for the operator's watches; the shortest interval is 900 s).
 */

export const demoWatchDefaults = {
  /** WATCH_MIN_INTERVAL_S and WATCH_INTERVAL_S: a change heard within 30 s, confirmed 30 s on. */
  intervalS: 30,
  /** DEMO_FLAP_S: how long the flapping address stays listed, then unlisted. */
  flapS: 120,
  /** DEMO_RECEIVER_PORT: where `npm run demo:receiver` listens. */
  receiverPort: 8788,
} as const;

export interface DemoWatchSettings {
  operatorToken: string;
  /** The interval the printed watch names: WATCH_INTERVAL_S as the service will read it. */
  intervalS: number;
  minIntervalS: number;
  flapMs: number;
  receiverPort: number;
}

type Env = Record<string, string | undefined>;

/** The configuration's rule: empty means unset, so an empty variable takes the demo's value too. */
function setUnlessGiven(env: Env, name: string, value: () => string): string {
  const given = env[name];
  if (given !== undefined && given !== '') return given;
  env[name] = value();
  return env[name];
}

function seconds(env: Env, name: string, fallback: number): number {
  const value = Number(env[name] || fallback);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number of seconds, not ${env[name]}`);
  }
  return value;
}

function port(env: Env, name: string, fallback: number): number {
  const value = Number(env[name] || fallback);
  if (!Number.isInteger(value) || value < 1 || value > 65_535) {
    throw new Error(`${name} must be a port from 1 to 65535, not ${env[name]}`);
  }
  return value;
}

/**
 * Sets in `env` (the process's, before the service reads it) what the user has not set:
 * WEBHOOK_ALLOW_NETWORKS loopback, a random OPERATOR_TOKEN, and 30 s intervals (never against
 * an interval or a minimum the user set). Returns what the printed commands need.
 */
export function applyDemoWatchSettings(env: Env): DemoWatchSettings {
  setUnlessGiven(env, 'WEBHOOK_ALLOW_NETWORKS', () => '127.0.0.0/8,::1/128');
  const operatorToken = setUnlessGiven(
    env,
    'OPERATOR_TOKEN',
    () => `demo-${randomBytes(18).toString('base64url')}`,
  );
  // Neither default may contradict a value the user gave: the minimum never above their interval,
  // the interval never below their minimum (the configuration refuses both).
  const givenIntervalS = Number(env.WATCH_INTERVAL_S || Number.NaN);
  const minIntervalS = Number(
    setUnlessGiven(env, 'WATCH_MIN_INTERVAL_S', () =>
      String(
        Number.isInteger(givenIntervalS) && givenIntervalS > 0
          ? Math.min(demoWatchDefaults.intervalS, givenIntervalS)
          : demoWatchDefaults.intervalS,
      ),
    ),
  );
  const intervalS = Number(
    setUnlessGiven(env, 'WATCH_INTERVAL_S', () =>
      String(
        Number.isInteger(minIntervalS)
          ? Math.max(demoWatchDefaults.intervalS, minIntervalS)
          : demoWatchDefaults.intervalS,
      ),
    ),
  );
  return {
    operatorToken,
    intervalS,
    minIntervalS,
    flapMs: seconds(env, 'DEMO_FLAP_S', demoWatchDefaults.flapS) * 1000,
    receiverPort: port(env, 'DEMO_RECEIVER_PORT', demoWatchDefaults.receiverPort),
  };
}

/** "2 min", "30 s", "1.5 s": a duration as the printed text says it. */
function spoken(seconds: number): string {
  return seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

/**
 * The lines `npm run demo` prints for a watch at work: the receiver to start, the watch to
 * create on it, and when to expect what. The confirming re-check comes `min(60 s, the interval,
 * WATCH_MIN_INTERVAL_S)` after the re-check that first heard the change
 * (src/watch/model/schedule.ts).
 */
export function watchInstructions(base: string, settings: DemoWatchSettings): string {
  const { operatorToken, intervalS, minIntervalS, flapMs, receiverPort } = settings;
  const receiverUrl = `http://127.0.0.1:${receiverPort}/hook`;
  const receiverCommand =
    receiverPort === demoWatchDefaults.receiverPort
      ? 'npm run demo:receiver'
      : `npm run demo:receiver -- --port ${receiverPort}`;
  const body = { target: demoFlapping.address, webhook_url: receiverUrl, interval_s: intervalS };
  const confirmS = Math.min(confirmingCheckS, intervalS, minIntervalS);
  const flap = spoken(flapMs / 1000);
  return `  # a watch at work: ${demoFlapping.address} is listed on ${demoFlapping.zone} for ${flap}, then not for ${flap},
  # over and over (first listed ${flap} after the start). The demo sets WEBHOOK_ALLOW_NETWORKS
  # and OPERATOR_TOKEN, so the operator's watches may deliver to 127.0.0.1. In another
  # terminal, a receiver that prints each delivery:
  ${receiverCommand}
  # then a watch on that address, re-checked every ${spoken(intervalS)}, with the operator's token:
  curl -s -X POST ${base}/watch/v1 -H 'content-type: application/json' -H 'authorization: Bearer ${operatorToken}' -d '${JSON.stringify(body)}'
  # paste the answer's webhook_secret into the receiver to check signatures. A change is heard
  # within ${spoken(intervalS)} and confirmed by a re-check ${spoken(confirmS)} later (confirmations 2): watch.listed
  # ${spoken(confirmS)} to ${spoken(intervalS + confirmS)} after each listing, watch.delisted as long after each delisting.`;
}
