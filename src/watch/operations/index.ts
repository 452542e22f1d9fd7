/**
 * The watch's operations (docs/watch-engine.md, "Operations"), one file each, as functions of the
 * context the face builds and of plain inputs: create, update (renew), remove, the test event, the
 * e-mail links, and what is read. Who acts is an explicit owner: a caller of the HTTP API, or
 * another subsystem with its own id and cap.
 */
export type { OperationContext } from './context.js';
export { type CreateOutcome, createWatch, type WatchInput } from './create.js';
export { confirmEmail, emailCode, unsubscribeEmail } from './email-links.js';
export { type Confirmation, confirmAddress } from './email-confirmation.js';
export { fail, type WatchError, watchErrors, type WatchFailure } from './errors.js';
export { type NoticeInput, notify } from './notify.js';
export type { WatchOwner } from './owner.js';
export { checkManageKey, countLive, deliveryQueue, type KeyCheck, viewWatch } from './reads.js';
export { removeWatch } from './remove.js';
export { sendTest } from './send-test.js';
export { type UpdateOutcome, updateWatch, type WatchChanges } from './update.js';
