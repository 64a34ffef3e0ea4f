/** The API paths of a contract's sub-resources (their `self`), the same on the server and in docs. */
export const partyPath = (party: { contractId: number; id: number }) =>
  `/api/contracts/${party.contractId}/parties/${party.id}`;

export const attachmentPath = (attachment: { contractId: number; id: number }) =>
  `/api/contracts/${attachment.contractId}/attachments/${attachment.id}`;

export const annotationPath = (annotation: { contractId: number; id: number }) =>
  `/api/contracts/${annotation.contractId}/annotations/${annotation.id}`;
