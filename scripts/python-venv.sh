# Sourced by scripts/maplibre-check, scripts/tiles-consumers and scripts/serve-peer/setup: `setup_python [VENV
# REQUIREMENTS]` makes the venv VENV (default .build/python) with the pinned packages of REQUIREMENTS (default
# scripts/python-requirements.txt), installed again only when that file changes, and sets $python.
# The sourcing script defines `missing MESSAGE`, which exits 2.
setup_python() {
    local venv=${1:-.build/python} requirements=${2:-scripts/python-requirements.txt}
    local stamp=$venv/installed-requirements.txt
    if [ ! -x "$venv/bin/python" ] || ! cmp -s "$requirements" "$stamp"; then
        command -v python3 >/dev/null || missing "python3 is not installed (Debian: apt-get install python3 python3-venv)"
        python3 -m venv "$venv" || missing "python3 cannot make a venv (Debian: apt-get install python3-venv)"
        "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" \
            || missing "pip could not install $requirements into $venv"
        cp "$requirements" "$stamp"
    fi
    python="$venv/bin/python"
}
