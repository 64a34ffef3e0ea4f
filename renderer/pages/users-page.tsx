import { useState } from 'react';
import { useConfirm } from '../components/confirm';
import { PERMISSION_TEMPLATES, type PermissionTemplate } from '../../shared/api/enums';
import type { TUser } from '../../shared/api/users';
import { PagedTable } from '../components/data-table';
import { SelectField, TextField } from '../components/fields';
import { FormDialog } from '../components/form-dialog';
import { Badge, Button, EmptyState, PageHeader, ProblemAlert } from '../components/ui';
import { sendJson } from '../lib/api';
import { useFormState } from '../lib/forms';
import { useT } from '../lib/i18n';
import { useSignedIn } from '../lib/session';
import { useAction } from '../lib/use-action';
import { readableErrors } from '../lib/problem-lines';
import { usePagedList } from '../lib/use-paged-list';

type Form = {
  firstname: string;
  lastname: string;
  username: string;
  email: string;
  password: string;
  permission_template: PermissionTemplate;
  active: boolean;
};

const EMPTY: Form = {
  firstname: '',
  lastname: '',
  username: '',
  email: '',
  password: '',
  permission_template: 'CUSTOMER_USER',
  active: true,
};

function UserDialog({ user, onClose, onSaved }: { user: TUser | undefined; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const { form, setForm, bind } = useFormState<Form>(() => (user ? { ...user, password: '' } : EMPTY));
  const save = useAction();
  const labels = {
    fields: {
      firstname: t('field.firstname'),
      lastname: t('field.lastname'),
      username: t('field.username'),
      email: t('field.email'),
      password: t('field.password'),
      permission_template: t('field.role'),
    },
  };
  const errors = readableErrors(save.errors, labels);
  const submit = save.submit('save', async () => {
    const { password, ...rest } = form;
    await sendJson(user ? 'PUT' : 'POST', user ? user.self : '/api/users', password ? { ...rest, password } : rest);
    onSaved();
  });
  const roles = PERMISSION_TEMPLATES.map((value) => ({
    value,
    label: value === 'CUSTOMER_ADMIN_USER' ? t('role.admin') : t('role.user'),
  }));
  return (
    <FormDialog
      title={user ? t('users.edit', { name: user.username }) : t('users.new')}
      onClose={onClose}
      onSubmit={submit}
      error={save.error}
      isBusy={save.busy === 'save'}
      submitLabel={user ? t('action.save') : t('action.create')}
      labels={labels}
    >
      <div className="form-grid">
        <TextField
          label={t('field.firstname')}
          error={errors.firstname}
          {...bind('firstname')}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- a modal dialog puts the focus on its first field (WAI-ARIA dialog pattern)
          autoFocus
        />
        <TextField label={t('field.lastname')} error={errors.lastname} {...bind('lastname')} />
        <TextField
          label={t('field.username')}
          error={errors.username}
          {...bind('username')}
          required
          autoComplete="off"
        />
        <TextField label={t('field.email')} error={errors.email} {...bind('email')} type="email" required />
        <TextField
          label={user ? t('field.newPassword') : t('field.password')}
          hint={user ? t('users.passwordKeep') : t('field.passwordHint')}
          error={errors.password}
          {...bind('password')}
          type="password"
          autoComplete="new-password"
        />
        <SelectField
          label={t('field.role')}
          error={errors.permission_template}
          options={roles}
          {...bind('permission_template')}
        />
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={form.active}
          onChange={(event) => setForm({ ...form, active: event.target.checked })}
        />
        <span>{t('users.activeLabel')}</span>
      </label>
    </FormDialog>
  );
}

export function UsersPage() {
  const t = useT();
  const session = useSignedIn();
  const list = usePagedList<TUser>('/api/users?per_page=20');
  const [editing, setEditing] = useState<TUser | 'new'>();
  const action = useAction();
  const confirm = useConfirm();

  const remove = async (user: TUser) => {
    if (
      !(await confirm({
        title: t('confirm.title'),
        body: t('users.confirmDelete', { name: user.username }),
        confirmLabel: t('action.delete'),
      }))
    )
      return;
    void action.run(user.self, async () => {
      await sendJson('DELETE', user.self);
      await list.reload();
    });
  };

  return (
    <>
      <PageHeader
        title={t('users.title')}
        description={t('users.description')}
        actions={
          <Button variant="primary" onClick={() => setEditing('new')}>
            {t('users.new')}
          </Button>
        }
      />
      <ProblemAlert error={action.error ?? list.error} onDismiss={action.error ? action.dismiss : undefined} />
      <PagedTable
        list={list}
        caption={t('users.title')}
        columns={[
          t('field.name'),
          t('field.username'),
          t('field.email'),
          t('field.role'),
          t('field.state'),
          t('field.created'),
        ]}
        hasActions
        empty={<EmptyState title={t('users.emptyTitle')} />}
      >
        {(user) => (
          <tr key={user.self}>
            <td>
              {[user.firstname, user.lastname].filter(Boolean).join(' ') || '—'}
              {user.self === session.user.self ? <span className="you-tag">{t('users.you')}</span> : null}
            </td>
            <td className="mono">{user.username}</td>
            <td>{user.email}</td>
            <td>
              {user.permission_template === 'CUSTOMER_ADMIN_USER' ? (
                <Badge tone="info">{t('role.admin')}</Badge>
              ) : (
                <Badge>{t('role.user')}</Badge>
              )}
            </td>
            <td>
              {user.active ? (
                <Badge tone="success">{t('state.active')}</Badge>
              ) : (
                <Badge tone="warning">{t('state.inactive')}</Badge>
              )}
            </td>
            <td className="numeric">{user.created_time}</td>
            <td className="row-actions">
              <Button
                size="small"
                onClick={() => setEditing(user)}
                aria-label={t('users.edit', { name: user.username })}
              >
                {t('action.edit')}
              </Button>
              {/* Deleting one's own account would end the session mid-work: another administrator does it. */}
              {user.self === session.user.self ? null : (
                <Button
                  size="small"
                  variant="ghost"
                  onClick={() => remove(user)}
                  aria-label={t('users.delete', { name: user.username })}
                >
                  {t('action.delete')}
                </Button>
              )}
            </td>
          </tr>
        )}
      </PagedTable>
      {editing ? (
        <UserDialog
          user={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            void list.reload();
          }}
        />
      ) : null}
    </>
  );
}
