/**
 * The routes under BASE_PATH: the three tools, GET /lists, the stored results, the tool index and
 * the OpenAPI document.
 */

export { createDomainTool } from './domain.js';
export { createIpTool } from './ip.js';
export { createListsRoute } from './lists.js';
export { addOpenApiDocument } from './openapi-document.js';
export { createPoolDiscoveries } from './pool-discoveries.js';
export { createPoolTool } from './pool.js';
export { createResultStore } from './results.js';
export { addToolIndex } from './tool-index.js';
