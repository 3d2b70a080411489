#!/usr/bin/env bash
# clang-format over every C/C++ source of the repository (.clang-format at the top).
#   scripts/format.sh           rewrites the files in place
#   scripts/format.sh --check   changes nothing; lists the files that differ and fails (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h' '*.hpp')
if [ "${1:-}" = "--check" ]; then
  if ! clang-format --dry-run -Werror "${files[@]}" 2>/tmp/embark-format.$$; then
    grep -o '^[^:]*:[0-9]*:[0-9]*: error' /tmp/embark-format.$$ | cut -d: -f1 | sort -u | sed 's/^/not formatted: /' >&2
    rm -f /tmp/embark-format.$$
    echo "scripts/format.sh --check: run 'bash scripts/format.sh' and commit the result" >&2
    exit 1
  fi
  rm -f /tmp/embark-format.$$
  exit 0
fi
clang-format -i "${files[@]}"
