import { z } from 'zod';
import { ZTimestampSchema } from './common';
import type { WebhookEventType } from './webhooks';

/**
 * What a webhook consumer receives: the body of each event POST and the headers that sign it.
 * The OpenAPI document's `webhooks` section and the API docs are made from these.
 */
const contractPath = z.string().meta({
  description: 'The contract the event is about; GET it through the API for its full state',
  example: '/api/contracts/1',
});

/** Added to the interface's data: the party's path stays when a delegation or correction makes it someone else. */
const partyName = z.string().optional().meta({
  description:
    "The party's name when the event happened (for a delegation: the person who handed over; for a correction: the name before it)",
  example: 'Signe Svensson',
});

const payloadOf = <T extends WebhookEventType>(type: T, id: string, description: string, data: z.ZodObject) =>
  z
    .object({
      type: z.literal(type).meta({ description: 'The event kind' }),
      timestamp: ZTimestampSchema.meta({
        description: 'When the event happened: YYYY-MM-DD HH:MM:SS, time zone Europe/Stockholm',
        example: '2026-11-22 15:30:00',
      }),
      data,
    })
    .meta({ id, description });

export const ZContractSignedEventSchema = payloadOf(
  'contract.signed',
  'ContractSignedEvent',
  'Every party has accepted: the contract is signed and its signed PDF can be downloaded. Never follows contract.rejected.',
  z.object({ id: contractPath }).meta({ description: 'Paths of the resources the event is about' }),
);

export const ZContractRejectedEventSchema = payloadOf(
  'contract.rejected',
  'ContractRejectedEvent',
  'A party rejected the contract (its reject_cause says why). Never follows contract.signed.',
  z.object({ id: contractPath }).meta({ description: 'Paths of the resources the event is about' }),
);

export const ZContractPartySignedEventSchema = payloadOf(
  'contract.party_signed',
  'ContractPartySignedEvent',
  'One party accepted the contract; repeats for each party, and is no promise that the contract will be signed.',
  z
    .object({
      id: contractPath,
      party: z.string().meta({ description: 'The party that accepted', example: '/api/contracts/1/parties/1' }),
      party_name: partyName,
    })
    .meta({ description: 'Paths of the resources the event is about' }),
);

const contractOnly = () =>
  z.object({ id: contractPath }).meta({ description: 'Paths of the resources the event is about' });
const contractAndParty = (party: string) =>
  z
    .object({
      id: contractPath,
      party: z.string().meta({ description: party, example: '/api/contracts/1/parties/1' }),
      party_name: partyName,
    })
    .meta({ description: 'Paths of the resources the event is about' });

export const ZContractSentEventSchema = payloadOf(
  'contract.sent',
  'ContractSentEvent',
  'Opt-in. The draft was sent: it is read-only and its first parties are invited.',
  contractOnly(),
);

export const ZContractPartyOpenedEventSchema = payloadOf(
  'contract.party_opened',
  'ContractPartyOpenedEvent',
  "Opt-in. A party opened its signing link in a browser: the signing page reported it (a mail scanner fetching the link does not count). Once per person: after a correction or delegation the party has a new link, and its first opening raises the event again. The activity log's party.opened entry names who opened it.",
  contractAndParty('The party that opened its link'),
);

export const ZContractPartyChangedEventSchema = payloadOf(
  'contract.party_changed',
  'ContractPartyChangedEvent',
  'Opt-in. The office corrected a party of the sent contract (name, e-mail, mobile, delivery): the party has a new link and, if it was invited, a new invitation. The activity log says what changed and why.',
  contractAndParty('The party corrected'),
);

export const ZContractPartyDelegatedEventSchema = payloadOf(
  'contract.party_delegated',
  'ContractPartyDelegatedEvent',
  "Opt-in. A party of a contract that allows delegation (allow_delegation) handed its turn to another person from its signing page: the party now has that person's name and contact details and a new link, and the new person is invited. The activity log (party.delegated) says who handed over to whom and why.",
  contractAndParty('The party delegated (the same party path, now the new person)'),
);

export const ZContractRemindedEventSchema = payloadOf(
  'contract.reminded',
  'ContractRemindedEvent',
  'Opt-in. A reminder went to a party (asked for with notify, or on the automatic schedule); one event per party.',
  contractAndParty('The party reminded'),
);

export const ZContractExpiredEventSchema = payloadOf(
  'contract.expired',
  'ContractExpiredEvent',
  'Opt-in. The expire_time passed before every party answered: the signing links are closed. The status stays sent.',
  contractOnly(),
);

export const ZContractWithdrawnEventSchema = payloadOf(
  'contract.withdrawn',
  'ContractWithdrawnEvent',
  'Opt-in. The office withdrew the sent contract: the signing links are closed.',
  contractOnly(),
);

export const ZContractTimestampedEventSchema = payloadOf(
  'contract.timestamped',
  'ContractTimestampedEvent',
  "Opt-in. The signed PDF got its trusted timestamp from the office's timestamp authority (after an outage of the authority, this comes later than contract.signed).",
  contractOnly(),
);

export const WEBHOOK_PAYLOAD_SCHEMAS = {
  'contract.signed': ZContractSignedEventSchema,
  'contract.rejected': ZContractRejectedEventSchema,
  'contract.party_signed': ZContractPartySignedEventSchema,
  'contract.sent': ZContractSentEventSchema,
  'contract.party_opened': ZContractPartyOpenedEventSchema,
  'contract.party_changed': ZContractPartyChangedEventSchema,
  'contract.party_delegated': ZContractPartyDelegatedEventSchema,
  'contract.reminded': ZContractRemindedEventSchema,
  'contract.expired': ZContractExpiredEventSchema,
  'contract.withdrawn': ZContractWithdrawnEventSchema,
  'contract.timestamped': ZContractTimestampedEventSchema,
} as const satisfies Record<WebhookEventType, z.ZodType>;

/** The headers of every event POST (RFC 9421 signature, RFC 9530 digest) and the de-duplication id. */
export const ZWebhookRequestHeadersSchema = z.object({
  Date: z.string().meta({ description: 'HTTP date of the attempt', example: 'Sun, 22 Nov 2026 14:30:00 GMT' }),
  'Content-Type': z.literal('application/json').meta({ description: 'Always application/json' }),
  'Content-Digest': z.string().meta({
    description:
      'SHA-256 of the body (RFC 9530): sha-256=:<base64>:. Compare it with the digest of the bytes you received.',
    example: 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:',
  }),
  'Signature-Input': z.string().meta({
    description:
      'RFC 9421 signature parameters, label sig1: the covered components "@method" "@path" "host" "date" "content-digest", then keyid (your consumer\'s key_id), alg "ed25519", created and expires (UNIX seconds; expires = created + 300). Each attempt is signed afresh.',
    example:
      'sig1=("@method" "@path" "host" "date" "content-digest");keyid="ed25519-1";alg="ed25519";created=1795357800;expires=1795358100',
  }),
  Signature: z.string().meta({
    description:
      "sig1=:<base64 Ed25519 signature>: over the RFC 9421 signature base; verify it with your consumer's public_key",
    example: 'sig1=:rW2M1SCEHpr6niiYqHIy6XmDT4+qsQ+MygAqAFTcmgXw/I37cHq2naRUErQ8RSBXgNPr5McEuf56LEiJrSXl6A==:',
  }),
  'Webhook-Id': z.string().meta({
    description:
      "The event's id: the same on every attempt (and retry) of one event, so a receiver that has handled it can answer 200 again without acting twice",
    example: '42',
  }),
});

export type TWebhookPayload = z.infer<(typeof WEBHOOK_PAYLOAD_SCHEMAS)[WebhookEventType]>;
