import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/index.js';
import { defineTool } from '../common/index.js';
import { addCreateInbox } from './create-inbox.js';
import { addDeleteInbox } from './delete-inbox.js';
import { addAutoWatchRoutes, addAutoWatchWebhooks } from './auto-watch-routes.js';
import type { ReportsToolDeps } from './deps.js';
import { addGetSummary } from './get-summary.js';
import { inboxKeyScheme } from './inbox-key.js';
import { addReceived } from './received.js';
import { createSourceReputations } from './reputation.js';
import { addSourcesCsv } from './sources-csv.js';
import { addUpdateInbox } from './update-inbox.js';
import { addUpload } from './upload.js';
import { addVerifyInbox } from './verify-inbox.js';
import { addView } from './view.js';

/**
 * The reports tool (docs/reports.md): an inbox per domain takes its DMARC aggregate and TLS
 * reports (uploads here; mail through the doors of src/node/ and src/workers/), sums them per
 * period, and shows each sending source with its IP check. Private to the inbox's key holder but
 * for its dashboard's link: no badge, card or share page. Each operation is a file beside this
 * one, one createRoute() definition served by serveRoute (docs/registry.md).
 */

export const reportsTool = defineTool({
  name: 'reports',
  title: 'Reports',
  description:
    'An inbox for a domain’s DMARC aggregate and TLS reports: who sends as it, whether they pass, and each source’s reputation',
  submit: 'check.submit',
  onCheckPage: false,
  serve(app: OpenAPIHono<AppEnv>, deps: ReportsToolDeps): void {
    const { name, scheme } = inboxKeyScheme;
    app.openAPIRegistry.registerComponent('securitySchemes', name, scheme);
    const reputations = createSourceReputations(deps);
    addCreateInbox(app, deps);
    // Before /{id}/...: `view` is a path of its own, never an inbox id.
    addView(app, deps, reputations);
    addGetSummary(app, deps, reputations);
    addUpload(app, deps);
    addReceived(app, deps);
    addSourcesCsv(app, deps, reputations);
    addVerifyInbox(app, deps);
    addUpdateInbox(app, deps);
    addDeleteInbox(app, deps);
    addAutoWatchRoutes(app, deps);
  },
  webhooks: addAutoWatchWebhooks,
});

export type { ReportsServices, ReportsToolDeps } from './deps.js';
