import type { TAnnotation } from '../../../shared/api/annotations';
import type { TContractRole } from '../../../shared/api/contract-roles';
import type { TParty } from '../../../shared/api/parties';
import { DataTable } from '../../components/data-table';
import { Card } from '../../components/ui';
import { idOf } from '../../lib/api';
import { useT } from '../../lib/i18n';
import type { PartyView } from '../../lib/party-state';
import { useLoad } from '../../lib/use-load';
import { readAll } from './use-contract';

/** While the page is open, fields placed or a party's answer show within this long. */
const POLL_MS = 3000;

/** "Signature ×2, Date": the types of some fields, each with its count. */
function useTypeList(): (fields: readonly Pick<TAnnotation, 'type'>[]) => string {
  const t = useT();
  return (fields) => {
    const counts = new Map<string, number>();
    for (const field of fields) counts.set(field.type, (counts.get(field.type) ?? 0) + 1);
    return [...counts]
      .map(([type, n]) => `${t(`fieldType.${type}` as Parameters<typeof t>[0])}${n > 1 ? ` ×${n}` : ''}`)
      .join(', ');
  };
}

/**
 * Per party: its template role, the fields it has to fill in and which still wait (all of them
 * until it answers); and per role no party has taken yet, the fields waiting for one.
 */
export function FieldsPerPartyCard({
  contractPath,
  views,
  roles,
}: {
  contractPath: string;
  views: readonly PartyView[];
  roles: readonly TContractRole[];
}) {
  const t = useT();
  const typeList = useTypeList();
  const partyKey = views.map((view) => view.party.self).join(',');
  const annotations = useLoad(
    (signal) => readAll<TAnnotation>(`${contractPath}/annotations`, signal),
    [contractPath, partyKey],
    { pollMs: POLL_MS },
  );
  // In reading order, as the document has them.
  const fields = [...(annotations.data ?? [])].sort(
    (a, b) => a.pdf_page - b.pdf_page || a.pos_y - b.pos_y || a.pos_x - b.pos_x,
  );
  const byAdding = [...views].sort((a, b) => Number(idOf(a.party.self)) - Number(idOf(b.party.self)));
  const openRoles = roles.filter((role) => role.party === null && role.fields_waiting > 0);
  if (fields.length === 0 && openRoles.length === 0) return null;
  const count = (n: number) => (n === 1 ? t('fieldsWaiting.countOne') : t('fieldsWaiting.count', { n }));
  const roleOf = (party: TParty) =>
    party.role ??
    (party.role_number === null ? t('fieldsWaiting.noRole') : t('roles.unnamed', { n: party.role_number }));
  return (
    <Card title={t('fieldsWaiting.title')} description={t('fieldsWaiting.description')} isFlush>
      <DataTable
        caption={t('fieldsWaiting.title')}
        columns={[
          t('fieldsWaiting.party'),
          t('fieldsWaiting.role'),
          t('fieldsWaiting.fields'),
          t('fieldsWaiting.waiting'),
        ]}
      >
        {byAdding.map(({ party, state }) => {
          const own = fields.filter((field) => field.party_id === party.self);
          const isFilled = state === 'signed' || state === 'approved';
          let waiting: string;
          if (own.length === 0) waiting = t('fieldsWaiting.none');
          else if (isFilled) waiting = t('fieldsWaiting.allFilled');
          else if (state === 'rejected') waiting = t('fieldsWaiting.noRole');
          else waiting = t('fieldsWaiting.waitingCount', { n: own.length });
          return (
            <tr key={party.self} data-testid="fields-of-party">
              <td className="cell-title">{party.name}</td>
              <td>{roleOf(party)}</td>
              <td>{own.length === 0 ? t('fieldsWaiting.none') : `${count(own.length)}: ${typeList(own)}`}</td>
              <td>{waiting}</td>
            </tr>
          );
        })}
        {openRoles.map((role) => (
          <tr key={`role-${role.role_number}`} data-testid="fields-of-role">
            <td className="muted">{t('fieldsWaiting.noParty')}</td>
            <td>{role.name ?? t('roles.unnamed', { n: role.role_number })}</td>
            <td>{count(role.fields_waiting)}</td>
            <td>{t('fieldsWaiting.forRole', { n: role.fields_waiting })}</td>
          </tr>
        ))}
      </DataTable>
    </Card>
  );
}
