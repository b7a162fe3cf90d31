/**
 * Users and their roles (GET /v1/admin/users, PATCH /v1/admin/users/{id}/role). A super_admin picks any
 * role; an admin may only switch listener and artist (the server refuses the rest, so the selector offers
 * only what the caller may give, on accounts the caller may change).
 */
import { useState, type FormEvent } from 'react';
import { type Page, query } from '../shared/api';
import { Alert, Field, useAction, useLoad, when } from '../shared/ui';
import { api, session } from './session';

const ROLES = ['listener', 'artist', 'developer', 'admin', 'super_admin'] as const;
const OPEN_TO_ADMINS = new Set<string>(['listener', 'artist']);

interface AdminUser {
  id: string;
  email: string;
  role: string;
  status: string;
  display_name: string;
  created_at: string;
}

export function UsersSection({ callerRole }: { callerRole: string | null }) {
  const callerId = session.user()?.id;
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const users = useLoad(() => api.get<Page<AdminUser>>(`/v1/admin/users${query({ search: applied || undefined, limit: 50 })}`), [applied]);
  const action = useAction();
  const superAdmin = callerRole === 'super_admin';
  const choices = superAdmin ? ROLES : ROLES.filter((role) => OPEN_TO_ADMINS.has(role));

  const find = (event: FormEvent) => {
    event.preventDefault();
    setApplied(search.trim());
  };
  const setRole = async (user: AdminUser, role: string) => {
    const changed = await action.run(() => api.patch<AdminUser>(`/v1/admin/users/${encodeURIComponent(user.id)}/role`, { role }));
    if (changed) users.reload();
  };

  return (
    <section className="card" aria-labelledby="users-title">
      <h2 id="users-title">Users and roles</h2>
      <p className="muted">A new staff role holds its station scopes once its holder has set up an authenticator and logged in with it.</p>
      <form onSubmit={find} aria-label="Find users">
        <Field label="Search e-mail or name">{(id) => <input id={id} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />}</Field>
        <button type="submit">Search</button>
      </form>
      <Alert>{users.error ?? action.error}</Alert>
      <table>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Since</th>
            <th scope="col">Role</th>
          </tr>
        </thead>
        <tbody>
          {(users.data?.data ?? []).map((user) => {
            const editable = user.id !== callerId && (superAdmin || OPEN_TO_ADMINS.has(user.role));
            return (
              <tr key={user.id}>
                <td>{user.email}</td>
                <td>{user.display_name}</td>
                <td>{user.status}</td>
                <td>{when(user.created_at)}</td>
                <td>
                  {editable ? (
                    <select aria-label={`Role of ${user.email}`} value={user.role} disabled={action.busy} onChange={(e) => void setRole(user, e.target.value)}>
                      {choices.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </select>
                  ) : (
                    user.role
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
