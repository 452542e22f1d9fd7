import { domainTool } from './domain/index.js';
import { ipTool } from './ip/index.js';
import { mailTool } from './mail/index.js';
import { poolTool } from './pool/index.js';
import { reportsTool } from './reports/index.js';
import { watchTool } from './watch/index.js';

/**
 * Every tool of the service, in the order the tool index, the check page and the OpenAPI
 * document show them. The app, the index, the check page, the share routes and the document walk
 * this list: adding a tool is its folder and one line here (docs/registry.md).
 */
export const tools = [ipTool, domainTool, poolTool, mailTool, watchTool, reportsTool] as const;

export type ToolName = (typeof tools)[number]['name'];

type Intersection<U> = (U extends unknown ? (each: U) => void : never) extends (
  all: infer I,
) => void
  ? I
  : never;

/** What the tools' routes need, all together: the app passes one object that holds it. */
export type ToolsDeps = Intersection<Parameters<(typeof tools)[number]['serve']>[1]>;
