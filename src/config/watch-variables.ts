import { maxIntervalS, networkShareOfMax } from '../watch/index.js';
import { integer, variable } from './environment.js';
import { bearerToken, days, mailbox, networks, portRanges, smtpUrl } from './values.js';

/** The watches' variables (docs/watches.md): intervals, caps, webhooks, the operator and e-mail. */
export const watchVariables = {
  intervalS: variable({
    name: 'WATCH_INTERVAL_S',
    parser: integer(1, maxIntervalS),
    default: '3600',
    meaning:
      "Seconds between a watch's re-checks when it names no interval; at least `WATCH_MIN_INTERVAL_S` ([`watches.md`](watches.md)).",
  }),
  minIntervalS: variable({
    name: 'WATCH_MIN_INTERVAL_S',
    parser: integer(1, maxIntervalS),
    default: '900',
    meaning:
      'The shortest interval a watch may name, in seconds (down to 1 for tests and operators who need it).',
  }),
  perCaller: variable({
    name: 'WATCH_PER_CALLER',
    parser: integer(1, 1_000_000),
    default: '5',
    meaning:
      'Live watches per caller (an IPv4 address, an IPv6 /64); past it a creation is refused (`watch_limit`) ([`watches.md`](watches.md#limits)).',
  }),
  perNetwork: variable({
    name: 'WATCH_PER_NETWORK',
    parser: integer(1, 10_000_000),
    default: '20',
    meaning: `Live watches per network (an IPv4 /24, an IPv6 /48), all its callers together, and never more than ${Math.round(networkShareOfMax * 100)}% of \`WATCH_MAX\`; past it a creation is refused (\`watch_limit\`) ([\`watches.md\`](watches.md#limits)).`,
  }),
  max: variable({
    name: 'WATCH_MAX',
    parser: integer(1, 10_000_000),
    default: '10000',
    meaning: 'Live watches in the whole service; past it a creation is refused (`watch_capacity`).',
  }),
  ttlMs: variable({
    name: 'WATCH_TTL_DAYS',
    parser: days(1, 3650),
    default: '90',
    meaning: 'Days after which a watch not renewed by a PATCH ends.',
  }),
  pendingDeliveries: variable({
    name: 'WATCH_PENDING_DELIVERIES',
    parser: integer(1, 1000),
    default: '20',
    meaning:
      'Deliveries a watch may have waiting at once; past it the oldest is dropped unsent and counted (`reputation_watch_deliveries_dropped_total`, [`watches.md`](watches.md#fair-delivery)).',
  }),
  webhookAllowNetworks: variable({
    name: 'WEBHOOK_ALLOW_NETWORKS',
    parser: networks,
    default: '',
    meaning:
      'Comma list of CIDRs (`10.0.0.0/8,fd00::/8`) a webhook may reach although they are not public, for watches created with `OPERATOR_TOKEN` only; nothing else non-public is ever reached ([`watches.md`](watches.md#safety)).',
  }),
  webhookAllowPorts: variable({
    name: 'WEBHOOK_ALLOW_PORTS',
    parser: portRanges,
    default: '80,443,1024-65535',
    meaning:
      'Comma list of the ports and port ranges a webhook URL may name; any other is refused (`invalid_webhook`) ([`watches.md`](watches.md#safety)).',
  }),
  operatorToken: variable({
    name: 'OPERATOR_TOKEN',
    parser: bearerToken,
    meaning:
      'The operator’s credential: a watch created with `Authorization: Bearer <token>` may deliver into `WEBHOOK_ALLOW_NETWORKS`, and a mail check or mail watch sent with it may probe `PROBE_ALLOW_NETWORKS` (unset, none may); its watches count under `WATCH_MAX` alone: no caller’s or network’s cap, nor their daily confirmation e-mails, bind the operator ([`watches.md`](watches.md#limits)).',
  }),
  smtpUrl: variable({
    name: 'SMTP_URL',
    parser: smtpUrl,
    meaning:
      'Where watches’ e-mails are sent: `smtps://user:password@host:465` (TLS from the start) or `smtp://…:587` (STARTTLS when offered), credentials percent-encoded in URL; unset, `email` is refused (`email_unavailable`); needs `ALERT_FROM` and `PUBLIC_URL`; on Workers over `cloudflare:sockets`, never to port 25 ([`watches.md`](watches.md#e-mail), [`edge.md`](edge.md#e-mail-on-workers)).',
  }),
  alertFrom: variable({
    name: 'ALERT_FROM',
    parser: mailbox,
    meaning:
      'The From of watches’ e-mails: `alerts@example.org` or `Reputation <alerts@example.org>`; required with `SMTP_URL`.',
  }),
  emailConfirmationsPerDay: variable({
    name: 'EMAIL_CONFIRMATIONS_PER_DAY',
    parser: integer(1, 10_000_000),
    default: '500',
    meaning:
      'Confirmation e-mails the whole service sends a UTC day, besides 3 per watch, per mailbox and per caller and 12 per network; past it `email_limit` ([`watches.md`](watches.md#e-mail)).',
  }),
  webhookTimeoutMs: variable({
    name: 'WEBHOOK_TIMEOUT_MS',
    parser: integer(100, 60_000),
    default: '10000',
    meaning:
      "A webhook delivery's whole exchange must end within this, else it is a failed attempt.",
  }),
};
