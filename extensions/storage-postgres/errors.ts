/** storage-postgres's coded errors (each defined once here); a newer schema is storage's SchemaTooNew, a held session the engine's SessionBusy. */
import { defineError } from "../../kernel/api.js";

/** The database cannot be used and retrying will not heal it (no URL, a newer schema, refused credentials, no such database). */
export const PgUnusable = defineError("storage-postgres", "OC_ERR_PG_UNUSABLE", "{message}");
export const PgMigrateDb = defineError(
  "storage-postgres",
  "OC_ERR_PG_MIGRATE_DB",
  "--db names an oceancode.db file; storage-postgres migrates the database of storage.url / OC_DATABASE_URL ({url}): run oceancode migrate without --db",
  { exitCode: 2 },
);
export const PgCopyNotOceancode = defineError("storage-postgres", "OC_ERR_PG_COPY_NOT_OCEANCODE", "{file}: not an oceancode database (schema version 0)", { hint: "name the oceancode.db to copy from" });
