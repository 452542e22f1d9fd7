/**
 * The routes under BASE_PATH, built from the registry of tools: each tool's routes, GET /lists,
 * the check page and its files, the tool index and the OpenAPI document.
 */

export { createToolsApi } from './api.js';
export { type ToolName, tools, type ToolsDeps } from './registry.js';
export { createResultStore } from './common/index.js';
export type { ReportsServices } from './reports/index.js';
