#!/usr/bin/env bash
# Creates the Bumble virtual environment the interop tests use: .venv-bumble at the repository
# root (or $BUMBLE_VENV), with bumble==0.0.236, and selenium==4.51.0, which drives Chromium in the
# dashboard's browser tests (Tests/BLEDashboardTests). Does nothing when both are already there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${BUMBLE_VENV:-$root/.venv-bumble}"
version="0.0.236"
selenium="4.51.0"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import bumble, importlib.metadata as m; assert m.version('bumble') == '$version'" 2>/dev/null; then
    echo "Bumble $version is ready in $venv"
else
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "bumble==$version"
    echo "Installed Bumble $version in $venv"
fi
if "$venv/bin/python" -c "import selenium, importlib.metadata as m; assert m.version('selenium') == '$selenium'" 2>/dev/null; then
    echo "Selenium $selenium is ready in $venv"
else
    "$venv/bin/pip" install --quiet --disable-pip-version-check "selenium==$selenium"
    echo "Installed Selenium $selenium in $venv"
fi
