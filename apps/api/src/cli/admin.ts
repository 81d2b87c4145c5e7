import { createDb } from '@studioshot/db';

/**
 * The one way to make an operator: `admin grant <email>`, `admin revoke <email>`, `admin list`.
 * No request body reaches the role column; whoever runs this holds the database's credentials.
 * A revoke takes effect on the next request: the console checks the role on every call.
 */
const USAGE = 'usage: admin grant <email> | admin revoke <email> | admin list';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set');
  process.exit(1);
}
const [command, email] = process.argv.slice(2);
if (!(command === 'list' || ((command === 'grant' || command === 'revoke') && email))) {
  console.error(USAGE);
  process.exit(2);
}

const db = createDb(url, { max: 1 });
try {
  if (command === 'list') {
    const admins = await db
      .selectFrom('users')
      .select('email')
      .where('role', '=', 'admin')
      .where('deletion_requested_at', 'is', null)
      .orderBy('email')
      .execute();
    console.log(admins.length ? admins.map((a) => a.email).join('\n') : 'no admins');
  } else {
    const role = command === 'grant' ? 'admin' : 'user';
    const changed = await db
      .updateTable('users')
      .set({ role, updated_at: new Date() })
      .where('email', '=', email!.trim().toLowerCase())
      .where('deletion_requested_at', 'is', null)
      .returning('email')
      .executeTakeFirst();
    if (!changed) {
      console.error(`no account with the address ${email}`);
      process.exitCode = 1;
    } else {
      console.log(
        `${changed.email} is ${role === 'admin' ? 'now an admin' : 'no longer an admin'}`,
      );
    }
  }
} finally {
  await db.destroy();
}
