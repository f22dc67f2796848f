#!/usr/bin/env bash
# make torture: builds the driver and the fault shim into build/torture/, then runs Tests/torture/run.py.
# Knobs: TORTURE_KILLS, TORTURE_FAULTS, TORTURE_SEED, TORTURE_TIME_LIMIT (see Tests/torture/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
CC=${CC:-cc}
mkdir -p build/torture
"$CC" -std=c99 -Wall -Wextra -Werror -O1 -g -Iinclude -o build/torture/driver Tests/torture/driver.c -ldl
"$CC" -Wall -Wextra -Werror -O1 -shared -fPIC -o build/torture/faultshim.so Tests/torture/faultshim.c -ldl
exec python3 Tests/torture/run.py
