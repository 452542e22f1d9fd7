/** The watches' e-mail on Workers: SMTP over `cloudflare:sockets` (docs/edge.md, "E-mail on Workers"). */
export { createWorkersMailSender } from './mail-sender.js';
