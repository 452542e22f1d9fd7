import type { CorsState } from './cors.js';

/** What the app's middleware leaves on every request for the routes below it. */
export interface AppEnv {
  Variables: {
    /** The caller's address (after TRUST_PROXY) and the subject its quota is counted under. */
    caller: { address: string; subject: string };
    /** Set on a tool's check (POST) routes only, so their errors carry that tool's quota status. */
    tool: string;
    /** The CORS headers of the answer, and whether the route has put them in already. */
    cors: CorsState;
  };
}
