import type { HttpClient } from './http.js';
import { type PoolRun, runPool } from './stats.js';

/**
 * Uncached IP checks through the service's HTTP API. Keeps the token of each result (the cached
 * and share sections ask for them) and the size of the answers (the memory section's estimate of
 * what the store holds).
 */

interface CheckAnswer {
  token: string;
  from_cache: boolean;
  ip_score: {
    answered: number;
    total: number;
    /** Lists waiting for a key (the bench sets none): counted in total, never asked. */
    needs_key: number;
    listed: number;
    rdns: { fcrdns: string };
  };
}

export interface IpChecks {
  /**
   * One uncached check through HTTP; false when it did not come back as a fresh result in which
   * every list answered but `unanswered` of them.
   */
  check(
    address: string,
    expectListed?: boolean,
    base?: string,
    unanswered?: number,
  ): Promise<boolean>;
  /** `check` of addresses listed nowhere, `concurrency` in flight, never past `maxMs`. */
  checkAll(addresses: readonly string[], maxMs: number, base?: string): Promise<PoolRun>;
  /** Tokens of results made during the run, by address. */
  tokens: ReadonlyMap<string, string>;
  /** The mean size of the answers so far, in bytes; 0 before the first. */
  averageAnswerBytes(): number;
}

/** `serviceBase` is where checks go unless a call names another service. */
export function createIpChecks(
  http: HttpClient,
  serviceBase: string,
  concurrency: number,
): IpChecks {
  const tokens = new Map<string, string>();
  let answerBytes = 0;
  let answers = 0;

  async function check(address: string, expectListed = false, base = serviceBase, unanswered = 0) {
    const answer = await http.postJson(`${base}/ip/v1`, { target: address });
    if (answer.status !== 200) return false;
    answerBytes += answer.body.length;
    answers++;
    const body = JSON.parse(answer.body.toString()) as CheckAnswer;
    tokens.set(address, body.token);
    const score = body.ip_score;
    return (
      !body.from_cache &&
      score.answered === score.total - score.needs_key - unanswered &&
      score.rdns.fcrdns === 'pass' &&
      score.listed > 0 === expectListed
    );
  }

  return {
    check,
    checkAll: (addresses, maxMs, base = serviceBase) =>
      runPool(addresses, concurrency, maxMs, (address) => check(address, false, base)),
    tokens,
    averageAnswerBytes: () => (answers > 0 ? Math.round(answerBytes / answers) : 0),
  };
}
