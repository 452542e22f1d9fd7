import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { type AppEnv, errorResponses, serveRoute, storeErrors } from '../../http/index.js';
import { dnsAnswer } from './create-inbox.js';
import type { ReportsToolDeps } from './deps.js';
import { inboxKeyErrors, inboxKeySecurity, keyedInbox } from './inbox-key.js';
import { inboxIdParams, tags, verifiedInboxSchema } from './schemas.js';

/**
 * POST /reports/v1/{id}/verify: asks the DNS again whether the domain's DMARC or TLS-RPT record
 * names the inbox's address, and answers what the creation answered of it. Verification is never
 * taken back: a record changed later, or a DNS that does not answer, leaves a verified inbox so.
 */
export function addVerifyInbox(app: OpenAPIHono<AppEnv>, deps: ReportsToolDeps): void {
  const { inboxes } = deps.reports;
  serveRoute(
    app,
    createRoute({
      method: 'post',
      path: '/{id}/verify',
      operationId: 'verifyReportsInbox',
      tags,
      summary: 'Ask the DNS again whether the domain names this inbox’s address',
      description:
        'With the inbox’s key: the domain’s DMARC and TLS-RPT records are asked again, past any cache; the inbox is verified once one names its address in `rua=`, and only then takes reports by mail. The answer says whether it is, and the records to publish for it.',
      security: inboxKeySecurity,
      request: { params: inboxIdParams },
      responses: {
        200: {
          description: 'Whether the inbox is verified, and the records to publish',
          content: { 'application/json': { schema: verifiedInboxSchema } },
        },
        ...errorResponses('verifyReportsInbox', [...inboxKeyErrors, ...storeErrors]),
      },
    }),
    async (c) => {
      const { inbox, dns } = await inboxes.verify(await keyedInbox(c, inboxes));
      return c.json(
        { id: inbox.id, domain: inbox.domain, ...dnsAnswer(inbox, inboxes.addressOf(inbox), dns) },
        200,
      );
    },
  );
}
