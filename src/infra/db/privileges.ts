/**
 * Least privilege on PostgreSQL (DATABASE_MIGRATION_URL set): the owner role runs the migrations, then
 * grants the app's role (DATABASE_URL's) what the product needs and no more. In particular the registry is
 * append-only by privilege, not only by trigger: the app may SELECT and INSERT it and UPDATE its four
 * mutable columns, but not DELETE, TRUNCATE, UPDATE other columns, or drop/disable the trigger (only an
 * owner may alter a table). The grants follow the schema, so they are applied after every migration.
 */
import pg from 'pg';
import { getTableColumns, getTableName } from 'drizzle-orm';
import { registryTracks } from './schema/index.js';

const REGISTRY = getTableName(registryTracks);
const columns = getTableColumns(registryTracks);

/** The registry columns an update may change (the trigger of drizzle/0001 allows the same four). */
export const REGISTRY_MUTABLE_COLUMNS = [columns.reuseEligible, columns.flagForReview, columns.firstPlayedAt, columns.playbackCount].map((c) => c.name);

/** The statements the owner runs for the app's role (also shown in the README). */
export function appRoleGrants(role: string): string[] {
  const app = pg.escapeIdentifier(role);
  const registry = pg.escapeIdentifier(REGISTRY);
  return [
    `GRANT USAGE ON SCHEMA public TO ${app}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${app}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${app}`,
    // Revoking the table's privileges also revokes its column privileges; then exactly these are granted back.
    `REVOKE ALL ON TABLE ${registry} FROM PUBLIC, ${app}`,
    `GRANT SELECT, INSERT ON TABLE ${registry} TO ${app}`,
    `GRANT UPDATE (${REGISTRY_MUTABLE_COLUMNS.map((c) => pg.escapeIdentifier(c)).join(', ')}) ON TABLE ${registry} TO ${app}`,
  ];
}

export class LeastPrivilegeError extends Error {
  constructor(message: string) {
    super(`${message}. See "Least-privilege database setup" in the README.`);
    this.name = 'LeastPrivilegeError';
  }
}

interface RoleFacts {
  role: string;
  database: string;
}

export async function roleFacts(client: pg.ClientBase | pg.Pool): Promise<RoleFacts> {
  const { rows } = await client.query<RoleFacts>('select current_user as role, current_database() as database');
  return rows[0];
}

/**
 * Refuses to go on when DATABASE_URL's role could rewrite the registry: a superuser, the owner (or a
 * member of the owner's role), or a role holding DELETE, TRUNCATE, TRIGGER or UPDATE of a recorded column.
 */
export async function assertAppRoleLeastPrivilege(app: pg.Pool): Promise<void> {
  const { rows } = await app.query<{
    role: string;
    superuser: boolean;
    owner: boolean;
    forbidden: string[];
  }>(
    `select r.rolname as role, r.rolsuper as superuser, pg_has_role(current_user, c.relowner, 'MEMBER') as owner,
            array_remove(array[
              case when has_table_privilege(c.oid, 'DELETE') then 'DELETE' end,
              case when has_table_privilege(c.oid, 'TRUNCATE') then 'TRUNCATE' end,
              case when has_table_privilege(c.oid, 'TRIGGER') then 'TRIGGER' end,
              case when exists (
                select 1 from pg_attribute a
                where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                  and not (a.attname = any($1::text[])) and has_column_privilege(c.oid, a.attnum, 'UPDATE')
              ) then 'UPDATE of recorded columns' end
            ], null) as forbidden
       from pg_class c, pg_roles r
      where c.oid = to_regclass($2) and r.rolname = current_user`,
    [REGISTRY_MUTABLE_COLUMNS, `public.${REGISTRY}`],
  );
  const facts = rows[0];
  if (!facts) throw new LeastPrivilegeError(`the table ${REGISTRY} is missing after the migrations`);
  const role = JSON.stringify(facts.role);
  if (facts.superuser) throw new LeastPrivilegeError(`DATABASE_URL's role ${role} is a superuser: it could rewrite the registry`);
  if (facts.owner)
    throw new LeastPrivilegeError(`DATABASE_URL's role ${role} owns ${REGISTRY} (or may act as its owner): it could drop the append-only trigger`);
  if (facts.forbidden.length > 0) {
    throw new LeastPrivilegeError(
      `DATABASE_URL's role ${role} holds ${facts.forbidden.join(', ')} on ${REGISTRY}: revoke them (the owner's grants at start leave only SELECT, INSERT and UPDATE of ${REGISTRY_MUTABLE_COLUMNS.join(', ')})`,
    );
  }
}
