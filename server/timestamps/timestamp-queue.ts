export const TIMESTAMP_QUEUE = 'timestamp';
