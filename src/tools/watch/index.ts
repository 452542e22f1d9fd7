import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/index.js';
import { addArtefactRoutes, defineTool } from '../common/index.js';
import { addCreateWatch } from './create-watch.js';
import { addDeleteWatch } from './delete-watch.js';
import { addEmailRoutes } from './email-routes.js';
import type { WatchToolDeps } from './deps.js';
import { addGetWatch } from './get-watch.js';
import { addHistoryRoutes } from './history-routes.js';
import { manageKeyScheme } from './manage-key.js';
import { watchPage } from './page.js';
import { summariseWatch } from './summary.js';
import { addTestWebhook } from './test-webhook.js';
import { addUpdateWatch } from './update-watch.js';
import { watchArtefacts } from './views.js';
import { addWatchWebhooks } from './webhooks.js';

/**
 * The watch (docs/watches.md): a target re-checked on a schedule, with a live badge, card and
 * share page and a signed webhook on every change. Not a snapshot tool: its routes are its own,
 * one file per operation, each one createRoute() definition served by serveRoute
 * (docs/registry.md), over the engine's face (`createWatches`, src/watch/watches.ts), which the
 * routes call with the caller as the owner.
 */

export const watchTool = defineTool({
  name: 'watch',
  title: 'Watch',
  description:
    'A target re-checked on a schedule: a live badge, card and page, and a signed webhook on every listing and delisting',
  submit: 'check.submit',
  onCheckPage: false,
  summarise: summariseWatch,
  page: watchPage,
  serve(app: OpenAPIHono<AppEnv>, deps: WatchToolDeps): void {
    const { name, scheme } = manageKeyScheme;
    app.openAPIRegistry.registerComponent('securitySchemes', name, scheme);
    addCreateWatch(app, deps);
    addGetWatch(app, deps);
    addHistoryRoutes(app, deps);
    addUpdateWatch(app, deps);
    addDeleteWatch(app, deps);
    addTestWebhook(app, deps);
    addEmailRoutes(app, deps);
    addArtefactRoutes(app, watchArtefacts(watchTool, deps), deps);
  },
  webhooks: addWatchWebhooks,
});
