import type { Resolver } from '../dns/index.js';
import { base64url, type Digest, hashOf, type RandomBytes, sameHash } from '../lib/index.js';
import { inboxAddress, type InboxDns, readInboxDns, type ReportsMailbox } from './rua/index.js';
import type { Inbox, ReportStore } from './store.js';

/**
 * Inboxes (docs/reports.md, "Inboxes"): made with a key shown once and kept as its hash, compared
 * in constant time as watches' manage keys are (src/lib/secrets.ts), and a view token for the
 * dashboard's link; verified when the domain's DMARC or TLS-RPT record names the inbox's address.
 */

export interface InboxesDeps {
  store: ReportStore;
  resolver: Resolver;
  randomBytes: RandomBytes;
  digest: Digest;
  clock: () => Date;
  /** REPORTS_ADDRESS read; absent: inboxes have no address and take uploads only. */
  mailbox?: ReportsMailbox;
  /** The deadline of one inbox's DNS reads (CHECK_DEADLINE_MS). */
  deadlineMs: number;
  /** OPERATOR_TOKEN: an inbox created with it is verified at once. */
  operatorToken?: string;
}

/** What the DNS says of a new or re-verified inbox; null without REPORTS_ADDRESS. */
export type InboxDnsAnswer = InboxDns | null;

export type KeyCheck = { ok: true; inbox: Inbox } | { ok: false; why: 'not_found' | 'wrong' };

export interface Inboxes {
  /** A new inbox for `domain` (ASCII, lower case), its key, and what the DNS says of it. */
  create(request: {
    domain: string;
    lang: 'en' | 'ru';
    /** The bearer token the request sent, if any: OPERATOR_TOKEN makes it verified. */
    credential?: string;
  }): Promise<{ inbox: Inbox; key: string; dns: InboxDnsAnswer }>;
  /** The inbox under `id`, if `key` is its key. */
  checkKey(id: string, key: string): Promise<KeyCheck>;
  /** Asks the DNS again; a newly verified inbox is kept so (verification is never taken back). */
  verify(inbox: Inbox): Promise<{ inbox: Inbox; dns: InboxDnsAnswer }>;
  /** The inbox's address, or null without REPORTS_ADDRESS. */
  addressOf(inbox: Pick<Inbox, 'id'>): string | null;
}

/** 128 random bits, base64url (22 characters): an inbox's id and its view token, as tokens are. */
const newId = (random: RandomBytes) => base64url(random(16));
/** 256 random bits, base64url (43 characters): shown once, stored only as its hash. */
const newKey = (random: RandomBytes) => base64url(random(32));

export function createInboxes(deps: InboxesDeps): Inboxes {
  const { store, mailbox } = deps;
  const addressOf = (inbox: Pick<Inbox, 'id'>) =>
    mailbox ? inboxAddress(mailbox, inbox.id) : null;

  async function readDns(inbox: Pick<Inbox, 'id' | 'domain'>): Promise<InboxDnsAnswer> {
    if (!mailbox) return null;
    return readInboxDns(deps.resolver, {
      domain: inbox.domain,
      address: inboxAddress(mailbox, inbox.id),
      mailbox,
      deadlineMs: deps.deadlineMs,
    });
  }

  async function isOperator(credential: string | undefined): Promise<boolean> {
    if (credential === undefined || deps.operatorToken === undefined) return false;
    const [sent, kept] = await Promise.all([
      hashOf(credential, deps.digest),
      hashOf(deps.operatorToken, deps.digest),
    ]);
    return sameHash(sent, kept);
  }

  return {
    addressOf,

    async create(request) {
      const key = newKey(deps.randomBytes);
      const draft = { id: newId(deps.randomBytes), domain: request.domain };
      const [dns, operator, keyHash] = await Promise.all([
        readDns(draft),
        isOperator(request.credential),
        hashOf(key, deps.digest),
      ]);
      const inbox: Inbox = {
        ...draft,
        keyHash,
        viewToken: newId(deps.randomBytes),
        lang: request.lang,
        verified: operator || (dns?.verified ?? false),
        createdAt: deps.clock().getTime(),
        autoWatch: null,
      };
      await store.createInbox(inbox);
      return { inbox, key, dns };
    },

    async checkKey(id, key) {
      const inbox = await store.inbox(id);
      if (!inbox) return { ok: false, why: 'not_found' };
      const sent = await hashOf(key, deps.digest);
      return sameHash(sent, inbox.keyHash) ? { ok: true, inbox } : { ok: false, why: 'wrong' };
    },

    async verify(inbox) {
      const dns = await readDns(inbox);
      if (dns?.verified && !inbox.verified) {
        const updated = await store.updateInbox(inbox.id, { verified: true });
        return { inbox: updated ?? { ...inbox, verified: true }, dns };
      }
      return { inbox, dns };
    },
  };
}
