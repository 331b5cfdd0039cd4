#!/usr/bin/env bash
# The PostgreSQL back-end against a real server: starts a throw-away cluster
# with Debian's pg_virtualenv (postgresql-common), then runs
#  - the Database contract suite on it (DLTUNE_TEST_POSTGRES=1), and
#  - the CLI on a postgresql:// URL: import, summary, best, export round
#    trip against the SQLite file, the migration of a schema-5 database, report, a small tuning run with its
#    records committed to the server, and a wrong password (refused; the
#    password appears in no output).
# Skipped (exit 77, ctest: skipped) where pg_virtualenv or the server
# binaries are missing.
#   scripts/check-postgres.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
command -v pg_virtualenv > /dev/null || { echo "SKIP: no pg_virtualenv (apt-get install postgresql)"; exit 77; }
ls /usr/lib/postgresql/*/bin/initdb > /dev/null 2>&1 || { echo "SKIP: no PostgreSQL server binaries"; exit 77; }
export DLTUNE_BUILD="$build" DLTUNE_SRC="$src"
exec pg_virtualenv bash -euo pipefail -c '
dltune="$DLTUNE_BUILD/bin/dltune"
work=$(mktemp -d)
trap "rm -rf $work" EXIT
DLTUNE_TEST_POSTGRES=1 "$DLTUNE_BUILD/bin/DLTuneTuningTests" --gtest_filter="*/DatabaseContract.*/Postgres" --gtest_brief=1

url=postgresql:///cli
createdb cli
fixture="$DLTUNE_SRC/test/Report/Inputs/report-two-tasks.jsonl"
"$dltune" db import "$fixture" --db "$url" | grep -q "imported 10 records (0 already present) in 2 tasks, 2 confirmations, 2 baselines, 2 notes, 1 model latencies"
# Importing again adds nothing.
"$dltune" db import "$fixture" --db "$url" | grep -q "imported 0 records (10 already present)"
"$dltune" db summary --db "$url" | grep -q "schema v8, 2 tasks, 1 devices"
# The same file through SQLite exports the same lines.
"$dltune" db import "$fixture" --db "$work/a.db" > /dev/null
"$dltune" db export --db "$url" -o "$work/pg.jsonl" 2> /dev/null
"$dltune" db export --db "$work/a.db" -o "$work/sqlite.jsonl" 2> /dev/null
diff "$work/pg.jsonl" "$work/sqlite.jsonl"
diff <("$dltune" db best --db "$url") <("$dltune" db best --db "$work/a.db")
"$dltune" report --db "$url" -o "$work/r.html" 2> /dev/null
grep -q "data-series=\"best so far\" data-count=\"11\"" "$work/r.html"

# A database of schema 5 (before studies), one of schema 6 (before the
# suspension tables) and one of schema 7 (before the candidates' metered
# energy) are migrated in place, their records kept.
createdb old
"$dltune" db import "$fixture" --db postgresql:///old > /dev/null
drop_energy="ALTER TABLE records DROP COLUMN candidate_energy_j; ALTER TABLE replaced_records DROP COLUMN candidate_energy_j;"
psql -q -v ON_ERROR_STOP=1 -d old -c "DROP TABLE study_model_stops, study_intervals, study_workers, study_models, studies; $drop_energy UPDATE dltune_meta SET value = \$\$5\$\$ WHERE key = \$\$schema_version\$\$"
"$dltune" db summary --db postgresql:///old | grep -q "schema v8, 2 tasks, 1 devices"
"$dltune" study list --db postgresql:///old | grep -q "no study in this database"
[ "$(psql -At -d old -c "select value from dltune_meta where key = \$\$schema_version\$\$")" = 8 ]
[ "$(psql -At -d old -c "select count(*) from study_model_stops")" = 0 ]
psql -q -v ON_ERROR_STOP=1 -d old -c "DROP TABLE study_model_stops, study_intervals; $drop_energy UPDATE dltune_meta SET value = \$\$6\$\$ WHERE key = \$\$schema_version\$\$"
"$dltune" db summary --db postgresql:///old | grep -q "schema v8, 2 tasks, 1 devices"
[ "$(psql -At -d old -c "select count(*) from study_intervals")" = 0 ]
psql -q -v ON_ERROR_STOP=1 -d old -c "$drop_energy UPDATE dltune_meta SET value = \$\$7\$\$ WHERE key = \$\$schema_version\$\$"
"$dltune" db summary --db postgresql:///old | grep -q "schema v8, 2 tasks, 1 devices"
[ "$(psql -At -d old -c "select count(candidate_energy_j) from records")" = 0 ]
[ "$(psql -At -d old -c "select count(*) from records")" = 10 ]

# A tuning run whose records go to the server.
createdb tune
"$dltune" tune "$DLTUNE_SRC/test/Report/Inputs/matmul-32x48.mlir" --threads 1 --trials 4 \
  --min-time-ms 1 --db postgresql:///tune > "$work/tune.txt" 2> "$work/tune.log"
"$dltune" db summary --db postgresql:///tune | grep -q "schema v8, 1 tasks, 1 devices"
[ "$(psql -At -d tune -c "select count(*) from records")" -ge 4 ]
[ "$(psql -At -d tune -c "select count(*) from claims")" = 0 ]

# Credentials: a wrong password is refused, and no output shows it.
bad="postgresql://$PGUSER:NotThePassword42@$PGHOST:$PGPORT/cli"
if "$dltune" db summary --db "$bad" > "$work/bad.txt" 2>&1; then
  echo "FAIL: a wrong password was accepted"; exit 1
fi
grep -q "password authentication failed" "$work/bad.txt"
grep -q ":\*\*\*@" "$work/bad.txt"
if grep -q NotThePassword42 "$work/bad.txt" "$work/tune.txt" "$work/tune.log"; then
  echo "FAIL: the password was printed"; exit 1
fi
# The right password in the URL works, and is not printed either.
good="postgresql://$PGUSER:$PGPASSWORD@$PGHOST:$PGPORT/cli"
PGPASSWORD= "$dltune" db summary --db "$good" > "$work/good.txt" 2>&1
if grep -q "$PGPASSWORD" "$work/good.txt"; then echo "FAIL: the password was printed"; exit 1; fi
echo "PASS: PostgreSQL back-end"
'
