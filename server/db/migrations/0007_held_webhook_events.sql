-- Hand-written: deliveries that an older version left pending for a disabled consumer are held
-- (sent in event order once it is enabled), and their jobs go.
DELETE FROM `jobs` WHERE `queue` = 'webhook' AND `status` = 'queued' AND `ref_id` IN (
  SELECT d.`id` FROM `webhook_deliveries` d JOIN `webhook_consumers` c ON c.`id` = d.`consumer_id`
  WHERE d.`state` = 'pending' AND c.`disabled_at` IS NOT NULL
);--> statement-breakpoint
UPDATE `webhook_deliveries` SET `state` = 'held', `next_attempt_at` = NULL
WHERE `state` = 'pending' AND `consumer_id` IN (SELECT `id` FROM `webhook_consumers` WHERE `disabled_at` IS NOT NULL);
