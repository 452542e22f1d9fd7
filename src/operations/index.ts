/**
 * What the operator sees of the service (docs/operations.md): the metrics face the core reports
 * to, the request id and the one log line of each request, GET /healthz, /readyz and /metrics.
 */

export { type CallerHash, createCallerHash } from './caller-hash.js';
export { type CallerIds, createCallerIds } from './caller-ids.js';
export { listStateSamples, observeDnsbl } from './list-metrics.js';
export {
  type CardRender,
  type CheckAnswer,
  type DeliveryQueueSample,
  type ListLookup,
  type ListStateSample,
  type Metrics,
  noMetrics,
  type SideLabel,
  type StoreOperation,
  type WatchDelivery,
  type WatchBoundLabel,
  watchBoundLabels,
  type WatchDeliveryDrop,
} from './metrics.js';
export type { MetricsAccess } from './metrics-access.js';
export { observeCardRender } from './observed-cards.js';
export { observeStore } from './observed-store.js';
export { addOperatorRoutes, type MetricsEndpoint } from './operator-routes.js';
export { createReadiness, type Readiness } from './readiness.js';
export { acceptedRequestId, newRequestId } from './request-id.js';
export { requestLog } from './request-log.js';
