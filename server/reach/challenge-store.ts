/**
 * The ACME HTTP-01 challenge answers the party surface serves at
 * `/.well-known/acme-challenge/<token>` (reach-pages.ts). An ACME client puts the key
 * authorization for a token in before it tells the CA to validate, and takes it out after:
 *
 *   ctx.reach.challenges.set(token, keyAuthorization);
 *   ... await the CA's validation ...
 *   ctx.reach.challenges.delete(token);
 *
 * Kept in memory only: a challenge lives for seconds, and a restart starts a new order.
 */
export type ChallengeStore = {
  set(token: string, keyAuthorization: string): void;
  get(token: string): string | undefined;
  delete(token: string): void;
};

export function createChallengeStore(): ChallengeStore {
  const answers = new Map<string, string>();
  return {
    set: (token, keyAuthorization) => void answers.set(token, keyAuthorization),
    get: (token) => answers.get(token),
    delete: (token) => void answers.delete(token),
  };
}
