#!/bin/sh
# Before the fast tier: the system packages the tests need, then the build, the type check, ESLint and Prettier.
# The four are independent, so they run side by side; any failure fails the tests (exit 1). The build emits without
# checking types (--noCheck): tsconfig.json checks every file the build compiles, with the same options, and more.
set -u
sh scripts/ensure-system-packages.sh || exit 1
tsc -p tsconfig.build.json --noCheck & build=$!
tsc -p tsconfig.json & types=$!
eslint . & lint=$!
prettier --check . --log-level warn & format=$!
status=0
for pid in $build $types $lint $format; do
  wait "$pid" || status=1
done
exit $status
