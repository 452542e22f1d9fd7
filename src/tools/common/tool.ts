import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/index.js';
import type { MessageKey, ToolTextKey } from '../../i18n/index.js';
import type { ResultContext, ResultView } from '../../pages/index.js';
import type { ShareSummary } from '../../share/index.js';

/**
 * What a tool is, as its folder declares it (src/tools/<name>/index.ts) and the registry lists it
 * (src/tools/registry.ts): the app, the tool index, the check page, the share routes and the
 * OpenAPI document are built by walking the registry, so adding a tool is one folder and one line
 * (docs/registry.md). `Deps` is what the tool's routes need; the app passes one object that
 * holds what every tool of the registry needs.
 */
export interface ToolDefinition<Name extends string = string, Deps = never> {
  /** The path segment (`/{name}/v1`) and the key of its texts in the catalogs (`tool.{name}`). */
  name: Name;
  /** `IP`, `Domain`, `Pool`: the OpenAPI tag and the stem of operationIds (`getIpResult`). */
  title: string;
  /** What the tool does, in a line: the tag's description and the tool index's summary. */
  description: string;
  /** The check page's button for its first check. */
  submit: MessageKey;
  /**
   * Its stored result read as what the badge, card and share page show. Absent for a tool whose
   * answers are private to a key holder (the reports): it has no badge, card or share page.
   */
  summarise?(stored: Record<string, unknown>): ShareSummary;
  /** Its stored result drawn as the share page's (and the check page's) result section. */
  page?(stored: Record<string, unknown>, context: ResultContext): ResultView;
  /** Documents and serves the tool's routes on `app`, which the app mounts at `/{name}/v1`. */
  serve(app: OpenAPIHono<AppEnv>, deps: Deps): void;
  /**
   * False for a tool the check page does not offer as a choice (the watch: it is offered after a
   * result instead). Offered when absent.
   */
  onCheckPage?: false;
  /**
   * False for a tool whose checks ask no blocklist they cannot do without (the mail tool: its
   * sender addresses' listings are one finding of many): they run while no list is proven, and
   * the check page offers the tool then. Absent: the checks wait for a proven list (503
   * `not_configured`).
   */
  needsLists?: false;
  /**
   * Documents what the tool sends rather than serves (the watch's events) under the document's
   * `webhooks`, on the API itself: a tool's own app would prefix its path.
   */
  webhooks?(api: OpenAPIHono<AppEnv>): void;
}

/** A tool whose results are shared: its badge, card and share page read these. */
export type SharingTool = Pick<ToolDefinition, 'name' | 'title' | 'onCheckPage'> &
  Required<Pick<ToolDefinition, 'summarise' | 'page'>>;

/** The keys of a tool's texts that no catalog holds: `never` when both hold all of them. */
type MissingTexts<Name extends string> = Exclude<ToolTextKey<Name>, MessageKey>;

/** The compiler's demand for the texts a tool's name lacks in the catalogs: none when both hold them. */
type TextsChecked<Name extends string> = [MissingTexts<Name>] extends [never]
  ? unknown
  : { missingTexts: MissingTexts<Name> };

/**
 * A tool's definition, checked: its name must have every one of its texts in the catalogs (the
 * compiler names the missing keys). A tool with `summarise` and `page` is a `SharingTool`.
 */
export function defineTool<const Name extends string, Deps>(
  tool: ToolDefinition<Name, Deps> &
    Required<Pick<ToolDefinition<Name, Deps>, 'summarise' | 'page'>> &
    TextsChecked<Name>,
): ToolDefinition<Name, Deps> & Required<Pick<ToolDefinition<Name, Deps>, 'summarise' | 'page'>>;
export function defineTool<const Name extends string, Deps>(
  tool: ToolDefinition<Name, Deps> & TextsChecked<Name>,
): ToolDefinition<Name, Deps>;
export function defineTool<const Name extends string, Deps>(
  tool: ToolDefinition<Name, Deps>,
): ToolDefinition<Name, Deps> {
  return tool;
}
/** `IP` -> `Ip`: the stem of operationIds and error schema names (`getIpStatus`). */
export function operationStem(title: string): string {
  return title.charAt(0) + title.slice(1).toLowerCase();
}
