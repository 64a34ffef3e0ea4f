export * from './accounts';
export * from './templates';
export * from './jobs';
export * from './admin';
