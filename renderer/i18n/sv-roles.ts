import type { enRoles } from './en-roles';

/** Svenska för mallroller, fälten som väntar på varje part och uppladdningsgränser. Del av `sv`. */
export const svRoles: Record<keyof typeof enRoles, string> = {
  'roles.title': 'Roller',
  'roles.description':
    'Namnge mallens parter, till exempel Hyresvärd och Hyresgäst. En part som läggs till i ett avtal från mallen kan då ta sin roll med namn; roller utan namn går till parterna i den ordning de läggs till.',
  'roles.nameLabel': 'Namn på roll {n}',
  'roles.unnamed': 'Part {n}',
  'roles.save': 'Spara namnen',
  'roles.saved': 'Sparat.',
  'roles.pdfDescription':
    'En PDF med fält för varje roll. Ett avtal från mallen får PDF:en och dess fält; varje part som läggs till tar den roll den anger, annars nästa roll i ordning.',
  'roles.partyRole': 'Roll',
  'roles.nextInOrder': 'Nästa roll i ordning',
  'roles.taken': '{role} (tagen)',
  'fieldsWaiting.title': 'Fält per part',
  'fieldsWaiting.description': 'Vad varje part ska fylla i, och vad som fortfarande väntar.',
  'fieldsWaiting.party': 'Part',
  'fieldsWaiting.role': 'Roll',
  'fieldsWaiting.fields': 'Fält',
  'fieldsWaiting.waiting': 'Väntar',
  'fieldsWaiting.noRole': '—',
  'fieldsWaiting.noParty': 'Ingen part än',
  'fieldsWaiting.count': '{n} fält',
  'fieldsWaiting.countOne': '1 fält',
  'fieldsWaiting.none': 'Inga',
  'fieldsWaiting.waitingCount': '{n} väntar',
  'fieldsWaiting.allFilled': 'Alla ifyllda',
  'fieldsWaiting.forRole': '{n} väntar på parten som tar rollen',
  'fieldsWaiting.empty': 'Inga fält än.',
  'upload.tooLargeTitle': 'Filen är för stor',
  'upload.tooLargePdf': 'PDF:en är {size}; gränsen är {limit}.',
  'upload.tooLargeAttachment': 'Bilagan är {size}; gränsen är {limit}.',
  'upload.tooLargeCsv': 'CSV-filen är {size}; gränsen är {limit}.',
  'upload.tooLargeFile': 'Filen är {size}; gränsen är {limit}.',
};
