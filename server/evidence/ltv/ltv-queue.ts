export const LTV_QUEUE = 'ltv';
