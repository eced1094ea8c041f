#!/usr/bin/env bash
# Creates the Bumble virtual environment the interop tests use: .venv-bumble at the repository
# root (or $BUMBLE_VENV), with bumble==0.0.236. Does nothing when it is already there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${BUMBLE_VENV:-$root/.venv-bumble}"
version="0.0.236"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import bumble, importlib.metadata as m; assert m.version('bumble') == '$version'" 2>/dev/null; then
    echo "Bumble $version is ready in $venv"
    exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "bumble==$version"
echo "Installed Bumble $version in $venv"
