import { useState, type FormEvent } from 'react';
import type { TTemplate } from '../../../shared/api/templates';
import { TextField } from '../../components/fields';
import { Button, Card, ProblemAlert } from '../../components/ui';
import { sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';

/** The names as the API takes them: trimmed, with no unnamed roles at the end. */
function namesToSave(names: readonly string[]): string[] {
  const trimmed = names.map((name) => name.trim());
  while (trimmed.length > 0 && trimmed.at(-1) === '') trimmed.pop();
  return trimmed;
}

/** A PDF template's roles by name ("Landlord", "Tenant"): a role left empty is "Party n". */
export function RoleNamesCard({
  template,
  roleCount,
  onChanged,
}: {
  template: TTemplate;
  roleCount: number;
  onChanged: () => Promise<void>;
}) {
  const t = useT();
  const action = useAction<'save'>();
  const [names, setNames] = useState<string[]>(template.role_names);
  const [isSaved, setIsSaved] = useState(false);
  const saved = namesToSave(template.role_names);
  const isChanged = JSON.stringify(namesToSave(names)) !== JSON.stringify(saved);
  const setName = (index: number, value: string) => {
    setIsSaved(false);
    setNames((current) => {
      const next = [...current];
      while (next.length <= index) next.push('');
      next[index] = value;
      return next;
    });
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    void action.run('save', async () => {
      await sendJson('PUT', template.self, { role_names: namesToSave(names) });
      await onChanged();
      setIsSaved(true);
    });
  };
  return (
    <Card title={t('roles.title')} description={t('roles.description')}>
      <form className="role-names" onSubmit={save} noValidate aria-label={t('roles.title')}>
        <ProblemAlert error={action.error} onDismiss={action.dismiss} />
        <div className="form-grid form-grid-3">
          {Array.from({ length: roleCount }, (_, index) => (
            <TextField
              key={index}
              label={t('roles.nameLabel', { n: index + 1 })}
              placeholder={t('roles.unnamed', { n: index + 1 })}
              maxLength={100}
              value={names[index] ?? ''}
              onValue={(value) => setName(index, value)}
            />
          ))}
        </div>
        <div className="form-actions">
          <Button type="submit" isBusy={action.busy === 'save'} disabled={!isChanged}>
            {t('roles.save')}
          </Button>
          {isSaved && !isChanged ? (
            <span className="muted" role="status">
              {t('roles.saved')}
            </span>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
