import type { z } from 'zod';
import type { ErrorCode, quotaStatusSchema } from '../../src/http/index.js';
import type {
  DomainCheckResult,
  IpCheckResult,
  ListHealth,
  PoolCheckResult,
  PoolDiscoverResult,
  ServiceReadiness,
} from '../../src/reputation/index.js';
import type { postFields } from '../../src/tools/common/index.js';
import type {
  createdWatchSchema,
  publicWatchSchema,
  updatedWatchSchema,
} from '../../src/tools/watch/schemas.js';
import type { WatchEvent } from '../../src/watch/index.js';

/**
 * The bodies the routes answer, as the types of the zod schemas the routes and the OpenAPI
 * document are built from (src/reputation/results/, src/tools/watch/schemas.ts), so a test reads
 * a field by the name and type the service sends, and a renamed field fails the typecheck.
 */

/** A caller's quota: every status answer, and every POST answer besides its result. */
export type QuotaStatus = z.infer<typeof quotaStatusSchema>;

/** A POST's answer: its tool's result, its token and `from_cache`, and the caller's quota. */
export type Posted<Result> = Result & z.infer<z.ZodObject<typeof postFields>> & QuotaStatus;

export type IpCheckAnswer = Posted<IpCheckResult>;
export type DomainCheckAnswer = Posted<DomainCheckResult>;
export type PoolDiscoverAnswer = Posted<PoolDiscoverResult>;
export type PoolCheckAnswer = Posted<PoolCheckResult>;

/** `GET /lists`: the readiness and every list's health (src/tools/lists.ts). */
export type ListsAnswer = ServiceReadiness & { lists: ListHealth[] };

/** `POST /watch/v1`: the watch, the secrets shown once, its links and the caller's quota. */
export type CreatedWatch = z.infer<typeof createdWatchSchema>;

/** `GET /watch/v1/{id}`: what anyone may read of a watch. */
export type PublicWatch = z.infer<typeof publicWatchSchema>;

/** `PATCH /watch/v1/{id}`: the watch, and a new secret with a new webhook_url. */
export type UpdatedWatch = z.infer<typeof updatedWatchSchema>;

/** The body of a webhook delivery (src/watch/model/schemas.ts). */
export type { WatchEvent };

/** An error answer (src/http/error-responses.ts); a check's carries the caller's quota. */
export type ErrorAnswer = {
  status: 'error';
  code: ErrorCode;
  error: string;
} & Partial<QuotaStatus>;
