import type { Migration } from 'kysely';
import * as accounts from './20261122120000-accounts.js';
import * as money from './20261122130000-money.js';
import * as photos from './20261122140000-photos.js';
import * as userChangeFeed from './20261122150000-user-change-feed.js';
import * as tasks from './20261122160000-tasks.js';
import * as generations from './20261123100000-generations.js';
import * as paidGenerations from './20261123120000-paid-generations.js';
import * as paymentFromPlan from './20261123130000-payment-from-plan.js';
import * as cleanOriginals from './20261124100000-clean-originals.js';
import * as accountPrivacy from './20261125141730-account-privacy.js';
import * as upgradeProration from './20261125211700-upgrade-proration.js';
import * as billingPeriods from './20261125212500-billing-periods.js';
import * as accountDeletion from './20261125213500-account-deletion.js';
import * as stripeBilling from './20261125221500-stripe-billing.js';
import * as renewalPayUrl from './20261126002600-renewal-pay-url.js';
import * as billingAnchor from './20261126003100-billing-anchor.js';
import * as generationOrderRefundDue from './20261127180000-generation-order-refund-due.js';
import * as refundRequests from './20261127220000-refund-requests.js';
import * as generationRequestFingerprint from './20261127230000-generation-request-fingerprint.js';
import * as adminRole from './20261128010000-admin-role.js';
import * as unfinishedTasksIndex from './20261128020000-unfinished-tasks-index.js';
import * as samePersonConfirmation from './20261128040000-same-person-confirmation.js';

// Listed statically so bundled builds carry every migration. Keys sort in run order.
export const migrations: Record<string, Migration> = {
  '20261122120000-accounts': accounts,
  '20261122130000-money': money,
  '20261122140000-photos': photos,
  '20261122150000-user-change-feed': userChangeFeed,
  '20261122160000-tasks': tasks,
  '20261123100000-generations': generations,
  '20261123120000-paid-generations': paidGenerations,
  '20261123130000-payment-from-plan': paymentFromPlan,
  '20261124100000-clean-originals': cleanOriginals,
  '20261125141730-account-privacy': accountPrivacy,
  '20261125211700-upgrade-proration': upgradeProration,
  '20261125212500-billing-periods': billingPeriods,
  '20261125213500-account-deletion': accountDeletion,
  '20261125221500-stripe-billing': stripeBilling,
  '20261126002600-renewal-pay-url': renewalPayUrl,
  '20261126003100-billing-anchor': billingAnchor,
  '20261127180000-generation-order-refund-due': generationOrderRefundDue,
  '20261127220000-refund-requests': refundRequests,
  '20261127230000-generation-request-fingerprint': generationRequestFingerprint,
  '20261128010000-admin-role': adminRole,
  '20261128020000-unfinished-tasks-index': unfinishedTasksIndex,
  '20261128040000-same-person-confirmation': samePersonConfirmation,
};
