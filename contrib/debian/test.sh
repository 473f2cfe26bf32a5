#!/usr/bin/env bash
# Installs the .deb that contrib/debian/build.sh built on this machine, for real (run as root), checks what it put
# where, then removes and purges it:
#   - lintian finds no error in it or in syncd-dbgsym beside it;
#   - dpkg -i installs both; /usr/bin/syncd --version is the package's version; /usr/bin/syncd is stripped, and
#     syncd-dbgsym's file for its build id holds its symbols and DWARF;
#   - `man -w syncd` finds /usr/share/man/man1/syncd.1.gz and man renders it;
#   - the bash, zsh and fish completions are where those shells look;
#   - `systemd-analyze verify` accepts the installed unit and prints nothing;
#   - /etc/syncd/syncd.toml is a conffile (dpkg-query's Conffiles) and passes `syncd check-config`;
#   - nothing was enabled or started;
#   - dpkg -r removes the binary, man page, completions and unit, and keeps the conffile and /var/lib/syncd;
#   - dpkg -P removes the conffile, /etc/syncd and /var/lib/syncd, and dpkg forgets the package.
#
#   contrib/debian/test.sh [path/to/syncd_VERSION_ARCH.deb]   (default: the one build.sh left in the repository root)
#
# It refuses to run where syncd is installed already or /var/lib/syncd exists: it would purge them.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
[ "$(id -u)" -eq 0 ] || fail "run as root: it installs and removes the package"

deb=${1:-}
if [ -z "$deb" ]; then
    debs=(syncd_*_"$(dpkg --print-architecture)".deb)
    [ -f "${debs[0]}" ] || fail "no syncd_*.deb in $PWD: run contrib/debian/build.sh first"
    [ "${#debs[@]}" -eq 1 ] || fail "more than one syncd_*.deb in $PWD (${debs[*]}): name one"
    deb=${debs[0]}
fi
[ -f "$deb" ] || fail "no such file: $deb"

status=$(dpkg-query -W -f='${db:Status-Status}' syncd 2>/dev/null || true)
[ -z "$status" ] || [ "$status" = not-installed ] || fail "syncd is already known to dpkg ($status): remove it first"
[ ! -e /var/lib/syncd ] && [ ! -e /var/lib/private/syncd ] || fail "/var/lib/syncd exists: the purge would remove it"

# Whatever fails, leave the machine without the package, and without the folders this script made.
installed=no
made=()
for folder in /var/lib/private /etc/systemd/system/multi-user.target.wants; do
    [ -e "$folder" ] || made+=("$folder")
done
cleanup() {
    if [ "$installed" = yes ]; then
        dpkg -P syncd-dbgsym >/dev/null 2>&1 || true
        dpkg -P syncd >/dev/null 2>&1 || true
    fi
    for folder in ${made[@]+"${made[@]}"}; do
        rmdir "$folder" 2>/dev/null || true
    done
}
trap cleanup EXIT

unit=/usr/lib/systemd/system/syncd.service
page=/usr/share/man/man1/syncd.1.gz
completions=(/usr/share/bash-completion/completions/syncd /usr/share/zsh/vendor-completions/_syncd
    /usr/share/fish/vendor_completions.d/syncd.fish)
shipped=(/usr/bin/syncd "$page" "$unit" "${completions[@]}" /usr/share/doc/syncd/copyright)

echo "--- dpkg-deb --info $deb"
dpkg-deb --info "$deb"
version=$(dpkg-deb --field "$deb" Version)
echo "--- dpkg-deb --contents $deb (files)"
contents=$(dpkg-deb --contents "$deb")
printf '%s\n' "$contents" | grep -v '^d'
for path in "${shipped[@]}" /etc/syncd/syncd.toml; do
    grep -q " \.$path\$" <<< "$contents" || fail "$path is not in the package"
done
if printf '%s\n' "$contents" | awk '{ print $2 }' | grep -v '^root/root$'; then
    fail "files not owned by root/root (above)"
fi

# syncd-dbgsym, which build.sh leaves beside the package.
dbgsym=$(dirname "$deb")/syncd-dbgsym_${version}_$(dpkg-deb --field "$deb" Architecture).deb
[ -f "$dbgsym" ] || fail "no $dbgsym beside $deb"

echo "--- lintian $deb $dbgsym"
command -v lintian >/dev/null 2>&1 || fail "lintian is not installed (apt-get install lintian)"
# Errors fail; warnings and the rest are shown (a package built without a source package has some: no changelog).
lintian --fail-on error --no-tag-display-limit "$deb" "$dbgsym" || fail "lintian found errors (above)"

echo "--- dpkg -i $deb $dbgsym"
installed=yes
dpkg -i "$deb" "$dbgsym"

echo "--- the symbols, in syncd-dbgsym by build id"
build_id=$(readelf -n /usr/bin/syncd | awk '/Build ID:/ { print $3; exit }')
debug_file=/usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug
[ -n "$build_id" ] && [ -f "$debug_file" ] || fail "no debug file for /usr/bin/syncd's build id '$build_id'"
[ "$(readelf -n "$debug_file" | awk '/Build ID:/ { print $3; exit }')" = "$build_id" ] \
    || fail "$debug_file is not /usr/bin/syncd's"
# (Each listing is kept first: `grep -q` ends a pipe early, and pipefail would take the writer's SIGPIPE.)
debug_sections=$(readelf -S -W "$debug_file" 2>/dev/null)
binary_sections=$(readelf -S -W /usr/bin/syncd)
grep -q ' \.debug_info ' <<< "$debug_sections" || fail "$debug_file holds no DWARF"
grep -q ' \.symtab ' <<< "$debug_sections" || fail "$debug_file holds no symbol table"
if grep -qE ' \.symtab | \.debug_' <<< "$binary_sections"; then fail "/usr/bin/syncd is not stripped"; fi
echo "$debug_file: /usr/bin/syncd's symbols and DWARF; the binary stripped"

echo "--- the binary"
got=$(/usr/bin/syncd --version)
[ "$got" = "$version" ] || fail "/usr/bin/syncd --version printed '$got', the package is $version"
echo "/usr/bin/syncd --version: $got"

echo "--- the man page"
where=$(man -w syncd)
[ "$where" = "$page" ] || fail "man -w syncd found '$where', not $page"
rendered=$(MANWIDTH=80 man -P cat syncd 2>/dev/null)
grep -q 'check-config' <<< "$rendered" || fail "man syncd does not show check-config"
echo "man -w syncd: $where"

echo "--- the completions"
for file in "${completions[@]}"; do
    [ -s "$file" ] || fail "no completion file $file"
    echo "$file: $(wc -c < "$file") bytes"
done
bash -n /usr/share/bash-completion/completions/syncd || fail "the bash completion does not parse"
grep -q '^complete .*syncd' /usr/share/bash-completion/completions/syncd || fail "the bash completion completes nothing"
if command -v zsh >/dev/null 2>&1; then zsh -n /usr/share/zsh/vendor-completions/_syncd; fi
if command -v fish >/dev/null 2>&1; then fish --no-execute /usr/share/fish/vendor_completions.d/syncd.fish; fi

echo "--- systemd-analyze verify $unit"
grep -q '^ExecStart=/usr/bin/syncd run --config /etc/syncd/syncd.toml$' "$unit" || fail "the unit does not run /usr/bin/syncd"
verify=$(systemd-analyze verify "$unit" 2>&1) || fail "systemd-analyze verify failed: $verify"
[ -z "$verify" ] || fail "systemd-analyze verify printed: $verify"
echo "systemd-analyze verify: no output, exit 0"

echo "--- the conffile"
conffiles=$(dpkg-query -W -f='${Conffiles}\n' syncd)
echo "Conffiles:$conffiles"
grep -q '^ /etc/syncd/syncd.toml [0-9a-f]\{32\}$' <<< "$conffiles" || fail "/etc/syncd/syncd.toml is not a conffile"
/usr/bin/syncd check-config --config /etc/syncd/syncd.toml

echo "--- nothing enabled or started"
[ ! -e /etc/systemd/system/multi-user.target.wants/syncd.service ] || fail "the postinst enabled syncd.service"
for exe in /proc/[0-9]*/exe; do
    [ "$(readlink "$exe" 2>/dev/null || true)" != /usr/bin/syncd ] || fail "a syncd runs: ${exe%/exe}"
done
echo "no wants link, no /usr/bin/syncd process"

# What a started service would have left: systemd's state directory for DynamicUser=yes, and the link of an enable.
mkdir -p /var/lib/private/syncd
chmod 700 /var/lib/private /var/lib/private/syncd
ln -s private/syncd /var/lib/syncd
echo 'not really a database' > /var/lib/private/syncd/cache.db
mkdir -p /etc/systemd/system/multi-user.target.wants
ln -s "$unit" /etc/systemd/system/multi-user.target.wants/syncd.service

echo "--- dpkg -r syncd-dbgsym syncd"
dpkg -r syncd-dbgsym syncd
[ ! -e "$debug_file" ] || fail "dpkg -r left $debug_file"
for path in "${shipped[@]}"; do
    [ ! -e "$path" ] || fail "dpkg -r left $path"
done
[ "$(dpkg-query -W -f='${db:Status-Status}' syncd)" = config-files ] || fail "syncd is not in config-files state"
[ -f /etc/syncd/syncd.toml ] || fail "dpkg -r removed the conffile"
[ -f /var/lib/syncd/cache.db ] || fail "dpkg -r removed the database"
echo "binary, man page, completions and unit gone; /etc/syncd/syncd.toml and /var/lib/syncd/cache.db kept"

echo "--- dpkg -P syncd"
dpkg -P syncd
installed=no
for path in /etc/syncd /var/lib/syncd /var/lib/private/syncd /etc/systemd/system/multi-user.target.wants/syncd.service; do
    [ ! -e "$path" ] && [ ! -L "$path" ] || fail "dpkg -P left $path"
done
status=$(dpkg-query -W -f='${db:Status-Status}' syncd 2>/dev/null || true)
[ -z "$status" ] || [ "$status" = not-installed ] || fail "dpkg still lists syncd ($status)"
echo "/etc/syncd, /var/lib/syncd and the wants link gone; dpkg no longer lists syncd"
echo "contrib/debian/test.sh: $deb passed"
