import { messagingSettingsRoutes } from '../api/messaging-settings';
import { outboxRoutes } from '../api/outbox';
import { annotationRoutes } from '../api/annotations';
import { annotationFileRoutes } from '../api/annotation-files';
import { attachmentRoutes } from '../api/attachments';
import { bulkSendRoutes } from '../api/bulk-sends';
import { contractActionRoutes } from '../api/contract-actions';
import { contractEvidenceRoutes } from '../api/contract-evidence';
import { officeLogRoutes } from '../api/office-log';
import { contractPrepRoutes } from '../api/contract-prep';
import { contractRoutes } from '../api/contracts';
import { contractSigningRoutes } from '../api/contract-signing';
import { partnerRoutes } from '../api/partner';
import { subscriptionRoutes } from '../api/subscription';
import { partyRoutes } from '../api/parties';
import { contractRoleRoutes } from '../api/contract-roles';
import { sessionRoutes } from '../api/session';
import { secondFactorRoutes } from '../api/second-factor';
import { ssoRoutes } from '../api/sso';
import { settingsRoutes } from '../api/settings';
import { brandSettingsRoutes } from '../api/brand-settings';
import { timestampSettingsRoutes } from '../api/timestamp-settings';
import { reachSettingsRoutes } from '../api/reach-settings';
import { archiveRenewalRoutes } from '../api/archive-renewal';
import { trustedRootRoutes } from '../api/trusted-roots';
import { backupRoutes } from '../api/backup';
import { acmeSettingsRoutes } from '../api/acme-settings';
import { reminderSettingsRoutes } from '../api/reminder-settings';
import { templateFieldRoutes } from '../api/template-fields';
import { templateRoutes } from '../api/templates';
import { userRoutes } from '../api/users';
import { webhookEventRoutes } from '../api/webhook-events';
import { webhookRoutes } from '../api/webhooks';
import type { AnyRoute } from '../http/route';

/** Every API route in matching order; the OpenAPI document and the API docs are made from this list. */
export const apiRoutes: readonly AnyRoute[] = [
  ...userRoutes,
  ...templateRoutes,
  ...templateFieldRoutes,
  ...bulkSendRoutes,
  ...partnerRoutes,
  ...subscriptionRoutes,
  ...outboxRoutes,
  ...messagingSettingsRoutes,
  ...contractRoutes,
  ...contractActionRoutes,
  ...contractEvidenceRoutes,
  ...officeLogRoutes,
  ...contractSigningRoutes,
  ...contractPrepRoutes,
  ...partyRoutes,
  ...contractRoleRoutes,
  ...annotationRoutes,
  ...annotationFileRoutes,
  ...attachmentRoutes,
  ...webhookRoutes,
  ...webhookEventRoutes,
  ...sessionRoutes,
  ...secondFactorRoutes,
  ...ssoRoutes,
  ...settingsRoutes,
  ...brandSettingsRoutes,
  ...timestampSettingsRoutes,
  ...reachSettingsRoutes,
  ...archiveRenewalRoutes,
  ...trustedRootRoutes,
  ...reminderSettingsRoutes,
  ...backupRoutes,
  ...acmeSettingsRoutes,
];
