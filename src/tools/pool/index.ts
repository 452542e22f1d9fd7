import { defineTool, snapshotTool } from '../common/index.js';
import { checkRoute } from './check.js';
import type { PoolToolDeps } from './deps.js';
import { discoverRoute } from './discover.js';
import { createPoolDiscoveries } from './discoveries.js';
import { poolPage } from './page.js';
import { storedResult } from './schemas.js';
import { summarisePool } from './summary.js';

/** The pool tool: discover every address a DNS pool hands out, then check the ones selected. */

export const poolTool = defineTool({
  name: 'pool',
  title: 'Pool',
  description: 'The addresses behind a DNS pool name, then the chosen ones on the blocklists',
  submit: 'check.discover',
  summarise: summarisePool,
  page: poolPage,
  serve(app, deps: PoolToolDeps): void {
    const discoveries = createPoolDiscoveries(deps.store, deps.tokenTtlMs);
    const tool = snapshotTool(app, poolTool, deps);
    tool.status();
    tool.check(discoverRoute(deps, discoveries));
    tool.check(checkRoute(deps, discoveries, poolTool.name));
    tool.tokenRoutes(storedResult);
  },
});
