import { useState, type FormEvent } from 'react';
import { PERMISSION_TEMPLATES, type PermissionTemplate } from '../../shared/api/enums';
import type { TUser } from '../../shared/api/users';
import { Badge, Button, Dialog, EmptyState, Field, Loading, PageHeader, Pagination, ProblemAlert } from '../components/ui';
import { getPage, sendJson, type ApiError } from '../lib/api';
import { asApiError, fieldErrors } from '../lib/forms';
import { useT } from '../lib/i18n';
import { useSignedIn } from '../lib/session';
import { useLoad } from '../lib/use-load';

type Form = { firstname: string; lastname: string; username: string; email: string; password: string; permission_template: PermissionTemplate; active: boolean };

const EMPTY: Form = { firstname: '', lastname: '', username: '', email: '', password: '', permission_template: 'CUSTOMER_USER', active: true };

function UserDialog({ user, onClose, onSaved }: { user: TUser | undefined; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const [form, setForm] = useState<Form>(() => (user ? { ...user, password: '' } : EMPTY));
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);
  const errors = fieldErrors(error);
  const set = (name: keyof Form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    try {
      const { password, ...rest } = form;
      const body = password ? { ...rest, password } : rest;
      await sendJson(user ? 'PUT' : 'POST', user ? user.self : '/api/users', body);
      onSaved();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Dialog title={user ? t('users.edit', { name: user.username }) : t('users.new')} isOpen onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <ProblemAlert error={error} />
        <div className="form-grid">
          <Field label={t('field.firstname')} error={errors.firstname}>
            {(id) => <input id={id} className="input" value={form.firstname} onChange={set('firstname')} autoFocus />}
          </Field>
          <Field label={t('field.lastname')} error={errors.lastname}>
            {(id) => <input id={id} className="input" value={form.lastname} onChange={set('lastname')} />}
          </Field>
          <Field label={t('field.username')} error={errors.username}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" value={form.username} onChange={set('username')} required autoComplete="off" />}
          </Field>
          <Field label={t('field.email')} error={errors.email}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="email" value={form.email} onChange={set('email')} required />}
          </Field>
          <Field label={user ? t('field.newPassword') : t('field.password')} hint={user ? t('users.passwordKeep') : t('field.passwordHint')} error={errors.password}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="password" value={form.password} onChange={set('password')} autoComplete="new-password" />}
          </Field>
          <Field label={t('field.role')} error={errors.permission_template}>
            {(id) => (
              <select id={id} className="input" value={form.permission_template} onChange={set('permission_template')}>
                {PERMISSION_TEMPLATES.map((value) => (
                  <option key={value} value={value}>
                    {value === 'CUSTOMER_ADMIN_USER' ? t('role.admin') : t('role.user')}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={form.active} onChange={(event) => setForm({ ...form, active: event.target.checked })} />
          <span>{t('users.activeLabel')}</span>
        </label>
        <div className="form-actions">
          <Button onClick={onClose}>{t('action.cancel')}</Button>
          <Button type="submit" variant="primary" isBusy={isBusy}>
            {user ? t('action.save') : t('action.create')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function UsersPage() {
  const t = useT();
  const session = useSignedIn();
  const [pagePath, setPagePath] = useState('/api/users?per_page=20');
  const list = useLoad((signal) => getPage<TUser>(pagePath, signal), [pagePath]);
  const [editing, setEditing] = useState<TUser | 'new'>();
  const [error, setError] = useState<ApiError>();

  const remove = async (user: TUser) => {
    if (!window.confirm(t('users.confirmDelete', { name: user.username }))) return;
    try {
      await sendJson('DELETE', user.self);
      await list.reload();
    } catch (err) {
      setError(asApiError(err));
    }
  };

  const page = list.data;
  return (
    <>
      <PageHeader title={t('users.title')} description={t('users.description')} actions={<Button variant="primary" onClick={() => setEditing('new')}>{t('users.new')}</Button>} />
      <ProblemAlert error={error ?? list.error} onDismiss={error ? () => setError(undefined) : undefined} />
      {list.isLoading && !page ? <Loading /> : null}
      {page && page.items.length === 0 ? <EmptyState title={t('users.emptyTitle')} /> : null}
      {page && page.items.length > 0 ? (
        <div className="card">
          <div className="table-wrap" tabIndex={0}>
            <table className="table">
              <caption className="visually-hidden">{t('users.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('field.name')}</th>
                  <th scope="col">{t('field.username')}</th>
                  <th scope="col">{t('field.email')}</th>
                  <th scope="col">{t('field.role')}</th>
                  <th scope="col">{t('field.state')}</th>
                  <th scope="col">{t('field.created')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('field.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((user) => (
                  <tr key={user.self}>
                    <td>
                      {[user.firstname, user.lastname].filter(Boolean).join(' ') || '—'}
                      {user.self === session.user.self ? <span className="you-tag">{t('users.you')}</span> : null}
                    </td>
                    <td className="mono">{user.username}</td>
                    <td>{user.email}</td>
                    <td>{user.permission_template === 'CUSTOMER_ADMIN_USER' ? <Badge tone="info">{t('role.admin')}</Badge> : <Badge>{t('role.user')}</Badge>}</td>
                    <td>{user.active ? <Badge tone="success">{t('state.active')}</Badge> : <Badge tone="warning">{t('state.inactive')}</Badge>}</td>
                    <td className="numeric">{user.created_time}</td>
                    <td className="row-actions">
                      <Button size="small" onClick={() => setEditing(user)} aria-label={t('users.edit', { name: user.username })}>
                        {t('action.edit')}
                      </Button>
                      <Button size="small" variant="ghost" onClick={() => void remove(user)} aria-label={t('users.delete', { name: user.username })}>
                        {t('action.delete')}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={page.page}
            pages={page.pages}
            total={page.total}
            onPrevious={page.previous ? () => setPagePath(page.previous as string) : undefined}
            onNext={page.next ? () => setPagePath(page.next as string) : undefined}
          />
        </div>
      ) : null}
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
