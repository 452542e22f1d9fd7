/**
 * The reports tool on Workers (docs/edge.md, "Reports on Workers"): the report store in Durable
 * Objects, one per inbox and a directory, and the email() handler of Email Routing.
 */

export {
  createDurableReportStore,
  type DurableReportStoreBindings,
  type DurableReportStoreOptions,
} from './durable-report-store.js';
export { ReportDirectoryObject } from './directory-object.js';
export { ReportInboxObject } from './inbox-object.js';
export { type RoutedMessage, takeRoutedMail } from './email.js';
