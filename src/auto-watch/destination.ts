import { type Digest, hashOf, type RandomBytes, sameHash } from '../lib/index.js';
import type { Store } from '../store/index.js';
import {
  checkConfirmCode,
  type CodeCheck,
  isUnsubscribeCode,
  type Watches,
  type WatchFailure,
} from '../watch/index.js';
import { inferWebhookFormat, newWebhookSecret, type WebhookFormat } from '../webhooks/index.js';
import type { Inbox } from '../reports/index.js';
import {
  type Destination,
  destinationSchema,
  keptMs,
  keys,
  readRecord,
  writeRecord,
} from './records.js';
import type { AutoWatchSettings } from './settings.js';

/**
 * Where an inbox's alerts go (docs/reports.md, "Reports meet watches"): set by PATCH from the
 * settings it keeps, with the inbox's own webhook secret (shown once, when the URL is new) and
 * its address's double opt-in (one confirmation for the inbox, not one per watch), and read by
 * each run, which gives every watch of the inbox the same destination.
 */

export interface DestinationDeps {
  store: Store;
  watches: Pick<Watches, 'confirmAddress' | 'notify'>;
  randomBytes: RandomBytes;
  digest: Digest;
  clock: () => Date;
  /** PUBLIC_URL; without it, links are under the origin of the PATCH that set the destination. */
  publicUrl?: string | undefined;
  basePath: string;
  operatorToken?: string | undefined;
}

/** The watch engine's owner of an inbox's watches and notices. */
export function ownerOf(inboxId: string, cap: number, destination?: Pick<Destination, 'operator'>) {
  return {
    subsystem: 'reports',
    id: inboxId,
    cap,
    ...(destination?.operator ? { operator: true } : {}),
  };
}

export type ConfigureOutcome =
  | {
      ok: true;
      /** Shown once: when the webhook URL is new. */
      webhook_secret?: string;
      email?: { address: string; confirmed: boolean };
    }
  | WatchFailure;

/** What a watch is given of the destination: the webhook, and the address once confirmed. */
export interface WatchDestination {
  webhook_url: string | null;
  webhook_format?: WebhookFormat;
  webhook_secret?: string;
  email: string | null;
  email_confirmed?: boolean;
}

export function watchDestination(destination: Destination): WatchDestination {
  const { webhook, email } = destination;
  const confirmed = email?.confirmed === true && !email.unsubscribed;
  return {
    webhook_url: webhook?.url ?? null,
    ...(webhook
      ? {
          webhook_format: webhook.format ?? inferWebhookFormat(webhook.url),
          webhook_secret: webhook.secret,
        }
      : {}),
    email: confirmed ? email.address : null,
    ...(confirmed ? { email_confirmed: true } : {}),
  };
}

/** The hash a watch's destination is recorded as: another one is applied by an update. */
export async function appliedOf(destination: WatchDestination, digest: Digest): Promise<string> {
  return hashOf(JSON.stringify(destination), digest);
}

export function createDestinations(deps: DestinationDeps) {
  const { store } = deps;
  const hashing = { hashOf: (text: string) => hashOf(text, deps.digest), sameHash };
  const read = (inboxId: string) => readRecord(store, keys.destination(inboxId), destinationSchema);
  const write = (inboxId: string, destination: Destination) =>
    writeRecord(store, keys.destination(inboxId), destination);
  /** Links are absolute: under PUBLIC_URL, else the origin the PATCH came from. */
  const rootOf = (destination: Pick<Destination, 'origin'>) =>
    `${deps.publicUrl ?? destination.origin}${deps.basePath}/reports/v1`;

  return {
    read,
    write,
    rootOf,
    viewUrl: (destination: Destination, inbox: Pick<Inbox, 'viewToken'>) =>
      `${rootOf(destination)}/view/${inbox.viewToken}`,
    unsubscribeUrl: (destination: Destination, inboxId: string, code: string) =>
      `${rootOf(destination)}/${encodeURIComponent(inboxId)}/email/unsubscribe?code=${code}`,

    /** The inbox was made with OPERATOR_TOKEN (compared as hashes): its destination is the operator's. */
    async markOperator(inboxId: string, credential: string | undefined): Promise<void> {
      const token = deps.operatorToken;
      if (credential === undefined || token === undefined) return;
      const [sent, kept] = await Promise.all([hashing.hashOf(credential), hashing.hashOf(token)]);
      if (sameHash(sent, kept)) await store.set(keys.operator(inboxId), '1', keptMs);
    },

    async isOperator(inboxId: string): Promise<boolean> {
      return (await store.get(keys.operator(inboxId))) !== undefined;
    },

    /**
     * The destination of settings PATCH just judged: the webhook keeps its secret while its URL
     * stays, a new URL gets a new one; an address new to the inbox (or not confirmed yet, or
     * stopped) is sent a confirmation within the day's limits, a confirmed one stays confirmed.
     * Null settings forget the destination.
     */
    async configure(
      inbox: Inbox,
      settings: AutoWatchSettings | null,
      origin: string,
      cap: number,
    ): Promise<ConfigureOutcome> {
      if (settings === null) {
        await store.delete(keys.destination(inbox.id));
        return { ok: true };
      }
      const previous = await read(inbox.id);
      const operator = await this.isOperator(inbox.id);
      const url = settings.webhook_url;
      const kept = url !== null && previous?.webhook?.url === url ? previous.webhook : undefined;
      const webhook = url
        ? {
            url,
            secret: kept?.secret ?? newWebhookSecret(deps.randomBytes),
            ...(settings.webhook_format
              ? { format: settings.webhook_format as WebhookFormat }
              : {}),
          }
        : null;
      const owner = ownerOf(inbox.id, cap, { operator });
      let email = settings.email === null ? null : (previous?.email ?? null);
      let code: string | undefined;
      if (settings.email !== null && !(email?.address === settings.email && isLive(email))) {
        const same = email?.address === settings.email ? email : undefined;
        const confirmation = await deps.watches.confirmAddress(
          settings.email,
          owner,
          same?.unsubscribe,
        );
        if ('error' in confirmation) return confirmation;
        email = confirmation.email;
        code = confirmation.code;
      }
      const destination: Destination = { webhook, email, origin, operator };
      await write(inbox.id, destination);
      if (email && code) {
        const sent = await deps.watches.notify(
          {
            lang: inbox.lang,
            email: {
              to: email.address,
              confirm: {
                domain: inbox.domain,
                url: `${rootOf(destination)}/${encodeURIComponent(inbox.id)}/email/confirm?code=${code}`,
                expires_at: email.code_expires_at!,
              },
            },
          },
          owner,
        );
        if (!sent.ok) return sent;
      }
      return {
        ok: true,
        ...(webhook && webhook.secret !== previous?.webhook?.secret
          ? { webhook_secret: webhook.secret }
          : {}),
        ...(email ? { email: { address: email.address, confirmed: email.confirmed } } : {}),
      };
    },

    /** What a confirmation link's code finds now, changing nothing (the page its GET shows). */
    async emailCode(inboxId: string, code: string): Promise<CodeCheck | 'not_found'> {
      const destination = await read(inboxId);
      if (!destination) return 'not_found';
      return checkConfirmCode(destination.email, code, hashing, deps.clock().getTime());
    },

    /** The confirmation link's POST: the address is the inbox's from now on. */
    async confirmEmail(inboxId: string, code: string): Promise<CodeCheck | 'not_found'> {
      const destination = await read(inboxId);
      if (!destination) return 'not_found';
      const check = await checkConfirmCode(
        destination.email,
        code,
        hashing,
        deps.clock().getTime(),
      );
      if (check !== 'ok') return check;
      const { code_hash: _hash, code_expires_at: _expires, ...email } = destination.email!;
      await write(inboxId, { ...destination, email: { ...email, confirmed: true } });
      return 'ok';
    },

    /**
     * The one-click unsubscribe (RFC 8058): no more e-mail to the address, from the inbox's notices
     * at once and from its watches at the next run; a PATCH that names it again asks again.
     */
    async unsubscribeEmail(inboxId: string, code: string): Promise<'ok' | 'wrong' | 'not_found'> {
      const destination = await read(inboxId);
      if (!destination) return 'not_found';
      const { email } = destination;
      if (!email || email.unsubscribed) return 'ok';
      if (!(await isUnsubscribeCode(email, code, hashing))) return 'wrong';
      await write(inboxId, { ...destination, email: stopped(email) });
      return 'ok';
    },
  };
}

export type Destinations = ReturnType<typeof createDestinations>;

/** Confirmed and not stopped: alerts go to it. */
function isLive(email: NonNullable<Destination['email']>): boolean {
  return email.confirmed && !email.unsubscribed;
}

/** An address its one-click link stopped: nothing goes to it until a PATCH names it again. */
export function stopped(
  email: NonNullable<Destination['email']>,
): NonNullable<Destination['email']> {
  const { code_hash: _hash, code_expires_at: _expires, ...kept } = email;
  return { ...kept, confirmed: false, unsubscribed: true };
}
