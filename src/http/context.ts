import type { CorsState } from './cors.js';
import type { ErrorCode } from './errors.js';

/** What the app's middleware leaves on every request for the routes below it. */
export interface AppEnv {
  Variables: {
    /** The request's id (X-Request-Id): the caller's when well formed, else a new one. */
    requestId: string;
    /** The caller's address (after TRUST_PROXY) and the subject its quota is counted under. */
    caller: { address: string; subject: string };
    /** Set on a tool's check (POST) routes only, so their errors carry that tool's quota status. */
    tool: string;
    /** How a check that answered 200 was answered: afresh, or from the result cache. */
    checkAnswer: 'fresh' | 'cached';
    /** The code of the error answered, set by the app's error handler (logs and metrics). */
    errorCode: ErrorCode;
    /** The CORS headers of the answer, and whether the route has put them in already. */
    cors: CorsState;
  };
}
