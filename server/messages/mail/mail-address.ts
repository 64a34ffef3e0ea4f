import addressparser from 'nodemailer/lib/addressparser';

export type Mailbox = { name: string; address: string };

const ADDRESS_PATTERN = /^[^\s@<>",;]+@[^\s@<>",;]+$/;

/** Every mailbox of an address list (`a@x.se, Name <b@y.se>`), groups flattened, each one checked. */
export function parseAddressList(list: string): Mailbox[] {
  return addressparser(list, { flatten: true })
    .map((mailbox) => ({ name: mailbox.name.trim(), address: mailbox.address.trim() }))
    .filter((mailbox) => ADDRESS_PATTERN.test(mailbox.address));
}

/** `Office <office@example.com>` or `office@example.com`, with the message's own sender name winning. */
export function senderOf(mailFrom: string, fromName: string | null | undefined): Mailbox | undefined {
  const [first] = parseAddressList(mailFrom);
  if (!first) return undefined;
  return { name: fromName?.trim() || first.name, address: first.address };
}
