import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect, sql } from 'kysely';
const t0=Date.now();
const lite = new PGlite();
const pool = new pg.Pool({ ...createPgConfig(lite), max: 1 });
const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
const r = await sql`select now() as n, 1::int8 as big, version() as v`.execute(db);
console.log(r.rows, Date.now()-t0);
await db.transaction().execute(async trx => { await sql`create table x(a int)`.execute(trx); });
try { await db.transaction().execute(async trx => { await sql`insert into x values (1)`.execute(trx); throw new Error('boom'); }); } catch(e){}
console.log((await sql`select count(*) from x`.execute(db)).rows);
const t1=Date.now(); const dump = await lite.dumpDataDir('none'); console.log('dump', dump.size, Date.now()-t1);
const t2=Date.now(); const l2 = new PGlite({loadDataDir: dump}); await l2.waitReady; console.log('load', Date.now()-t2, (await l2.query('select count(*) from x')).rows);
await db.destroy(); await lite.close();
