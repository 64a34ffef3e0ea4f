export * from './accounts';
export * from './templates';
export * from './jobs';
export * from './outbox';
export * from './settings';
export * from './contracts';
export * from './signing';
export * from './webhooks';
