#!/usr/bin/env bash
# Builds syncd_VERSION_ARCH.deb with dpkg-deb: the release binary (Swift runtime linked in) as /usr/bin/syncd, the
# hardened unit from contrib/systemd (ExecStart= pointed at /usr/bin/syncd), contrib/systemd/syncd.toml as the
# conffile /etc/syncd/syncd.toml, the man page syncd(1) that swift-argument-parser's generate-manual tool writes
# from the command's own help, and the bash, zsh and fish completions the binary prints. The maintainer scripts
# beside this file never enable or start the service. The binary is stripped; its symbols and DWARF go into
# syncd-dbgsym_VERSION_ARCH.deb beside it, by build id, as Debian ships debug symbols.
#
#   contrib/debian/build.sh                    builds the binary as the README's "Installing" block does, first
#   SYNCD_BIN=path contrib/debian/build.sh     packages that binary instead (it must link the Swift runtime in)
#   OUT_DIR=folder                             where the .deb goes (default: the repository's root)
#   CHECKOUTS=folder                           the build's package checkouts (default: .build/checkouts), for
#                                              swift-argument-parser's generate-manual and the licenses
#
# Depends: is computed from the binary: each library it links (objdump -p's NEEDED) is mapped to its Debian package
# with dpkg -S, and the lowest version that has every symbol the binary takes from it is read from that package's
# symbols file, as dpkg-shlibdeps does.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

for tool in dpkg-deb dpkg-query objdump objcopy gzip md5sum python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "build.sh needs $tool" >&2; exit 1; }
done

if [ -z "${SYNCD_BIN:-}" ]; then
    echo "--- swift build -c release --static-swift-stdlib --product syncd"
    swift build -c release --static-swift-stdlib --product syncd
    SYNCD_BIN="$(swift build -c release --static-swift-stdlib --show-bin-path)/syncd"
fi
[ -x "$SYNCD_BIN" ] || { echo "no executable syncd at $SYNCD_BIN" >&2; exit 1; }
# (No `grep -q` or `head` after a pipe in this script: with pipefail, the writer's SIGPIPE would fail the pipeline.)
if objdump -p "$SYNCD_BIN" | awk '$1 == "NEEDED" && $2 ~ /^libswiftCore/ { found = 1 } END { exit !found }'; then
    echo "$SYNCD_BIN links the Swift runtime dynamically: build it with --static-swift-stdlib" >&2
    exit 1
fi

version=$("$SYNCD_BIN" --version)
case "$version" in
    [0-9]*) ;;
    *) echo "syncd --version printed '$version', not a version" >&2; exit 1 ;;
esac
arch=$(dpkg --print-architecture)
out_dir=${OUT_DIR:-$repo}
deb="$out_dir/syncd_${version}_${arch}.deb"

stage=$(mktemp -d /tmp/syncd-deb-XXXXXX)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
umask 022

echo "--- staging syncd $version ($arch) in $root"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib/systemd/system" "$root/etc/syncd" \
    "$root/usr/share/man/man1" "$root/usr/share/doc/syncd" "$root/usr/share/bash-completion/completions" \
    "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"

# The binary, stripped as Debian strips (dh_strip: no symbol table, no DWARF, no .comment), and its symbols and DWARF
# in syncd-dbgsym, as /usr/lib/debug/.build-id/xx/yyyy.debug, where gdb and the Swift backtracer's symbolicator
# look them up by the binary's build id. The table and DWARF are most of the file: 200 MB unstripped, 88 MB
# stripped (issue 45).
build_id=$(readelf -n "$SYNCD_BIN" | awk '/Build ID:/ { print $3; exit }')
[ -n "$build_id" ] || { echo "$SYNCD_BIN has no build id (link it with --build-id)" >&2; exit 1; }
debug_root=$stage/dbgsym
debug_file=$debug_root/usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug
install -d "$debug_root/DEBIAN" "${debug_file%/*}" "$debug_root/usr/share/doc"
objcopy --only-keep-debug --compress-debug-sections=zlib "$SYNCD_BIN" "$debug_file"
chmod 644 "$debug_file"
install -m 755 "$SYNCD_BIN" "$root/usr/bin/syncd"
objcopy --strip-unneeded --remove-section=.comment "$root/usr/bin/syncd"

# The unit, for /usr/bin/syncd. Its header comment's install lines are the manual install's, so they are replaced.
unit=$root/usr/lib/systemd/system/syncd.service
awk '
    /^# Install:$/ { skipping = 1; next }
    skipping && /^#$/ {
        print "# Installed by the syncd package, which starts nothing: edit /etc/syncd/syncd.toml, then"
        print "#   systemctl enable --now syncd"
        print "# An upgrade replaces this file: change it with `systemctl edit syncd` (a drop-in in"
        print "# /etc/systemd/system/syncd.service.d/), e.g. for the LoadCredential= lines below."
        print "#"
        skipping = 0; replaced = 1; next
    }
    skipping { next }
    { print }
    END { if (!replaced) exit 1 }' contrib/systemd/syncd.service > "$unit" \
    || { echo "contrib/systemd/syncd.service has no '# Install:' comment block to replace" >&2; exit 1; }
[ "$(grep -c '^ExecStart=/usr/local/bin/syncd ' "$unit")" -eq 1 ] \
    || { echo "contrib/systemd/syncd.service has not exactly one ExecStart=/usr/local/bin/syncd" >&2; exit 1; }
sed -i 's#^ExecStart=/usr/local/bin/syncd #ExecStart=/usr/bin/syncd #' "$unit"
grep -q '/usr/local/' "$unit" && { echo "the packaged unit still names /usr/local" >&2; exit 1; }
chmod 644 "$unit"

# The example configuration, a conffile: dpkg keeps an edited copy across upgrades and removes it only on purge.
install -m 644 contrib/systemd/syncd.toml "$root/etc/syncd/syncd.toml"
if ! check=$("$root/usr/bin/syncd" check-config --config "$root/etc/syncd/syncd.toml" 2>&1); then
    echo "$check" >&2
    exit 1
fi

# Completions, from the binary itself.
"$root/usr/bin/syncd" --generate-completion-script bash > "$root/usr/share/bash-completion/completions/syncd"
"$root/usr/bin/syncd" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_syncd"
"$root/usr/bin/syncd" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/syncd.fish"
# A completion file is sourced, not run: the bash one's `#!/bin/bash` line goes (lintian:
# bash-completion-with-hashbang).
sed -i '1{/^#!/d}' "$root/usr/share/bash-completion/completions/syncd"
chmod 644 "$root"/usr/share/*/*completion*/*

# The Swift packages the build resolved (Package.resolved), checked out in CHECKOUTS (default .build/checkouts).
checkouts=${CHECKOUTS:-.build/checkouts}
[ -f Package.resolved ] && [ -d "$checkouts" ] \
    || { echo "no Package.resolved or no $checkouts: build first, or set CHECKOUTS to the build's checkouts" >&2; exit 1; }
python3 -c 'import json, sys
for pin in json.load(open(sys.argv[1]))["pins"]:
    print(pin["identity"], pin["location"], pin["state"].get("version") or pin["state"].get("revision"))' \
    Package.resolved > "$stage/pins"

# The man page: swift-argument-parser's generate-manual tool, which its `generate-manual` command plugin runs, reads
# the packaged binary's own help (`syncd --experimental-dump-help`). The plugin itself would first build every product
# of the package in one configuration (`swift package plugin generate-manual` recompiled the whole release build, about
# 25 minutes on 2 cores), so the tool is built alone (in debug, about a minute), from the swift-argument-parser
# checkout this build resolved. The page is dated by the last commit, so that one commit gives one page.
manual_date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
parser=$checkouts/swift-argument-parser
[ -f "$parser/Package.swift" ] || { echo "no swift-argument-parser checkout in $checkouts" >&2; exit 1; }
echo "--- generate-manual, from $parser ($(awk '$1 == "swift-argument-parser" { print $3 }' "$stage/pins"))"
manual_build=(swift build --package-path "$parser" --scratch-path "$repo/.build-generate-manual" --product generate-manual)
# Its build log (the checkout's own deprecation warnings) is shown only when the build fails.
"${manual_build[@]}" > "$stage/generate-manual-build.log" 2>&1 \
    || { cat "$stage/generate-manual-build.log" >&2; echo "building generate-manual failed" >&2; exit 1; }
generate_manual="$("${manual_build[@]}" --show-bin-path)/generate-manual"
mkdir "$stage/man"
"$generate_manual" "$root/usr/bin/syncd" --output-directory "$stage/man" --date "$manual_date" \
    --authors "syncd maintainers"
[ -f "$stage/man/syncd.1" ] || { echo "generate-manual wrote no syncd.1" >&2; exit 1; }
gzip -9 -n -c "$stage/man/syncd.1" > "$root/usr/share/man/man1/syncd.1.gz"
chmod 644 "$root/usr/share/man/man1/syncd.1.gz"

# The copyright file: syncd's statement (contrib/debian/copyright), then each Swift package the build resolved, with
# its license and, as the Apache License asks, its NOTICE file.
copyright=$root/usr/share/doc/syncd/copyright
cp contrib/debian/copyright "$copyright"
while read -r identity location pinned; do
    folder=$checkouts/$identity
    license_file=$(find "$folder" -maxdepth 1 -iname 'licen[cs]e*' -print -quit)
    first_line=$(awk 'NF { sub(/^[[:space:]]+/, ""); print; exit }' "$license_file")
    [ -n "$license_file" ] || { echo "$identity has no license file in $folder" >&2; exit 1; }
    {
        printf '\nFiles: Swift package %s %s (%s)\n' "$identity" "$pinned" "$location"
        printf 'Copyright: the authors of %s\n' "$identity"
        if grep -q 'Runtime Library Exception' "$license_file"; then
            printf 'License: Apache-2.0 with Runtime Library Exception\n'
        elif [ "$first_line" = "Apache License" ]; then
            printf 'License: Apache-2.0\n'
        elif [ "$first_line" = "MIT License" ]; then
            printf 'License: MIT\n'
            sed -e 's/^[[:space:]]*$/./' -e 's/^/ /' "$license_file"
        else
            printf 'License: %s\n' "$first_line"
            sed -e 's/^[[:space:]]*$/./' -e 's/^/ /' "$license_file"
        fi
        for notice in "$folder"/NOTICE*; do
            [ -f "$notice" ] || continue
            printf 'Comment: its %s:\n' "${notice##*/}"
            sed -e 's/^[[:space:]]*$/./' -e 's/^/ /' "$notice"
        done
    } >> "$copyright"
done < "$stage/pins"
printf '\nLicense: Apache-2.0\n The full text is in /usr/share/common-licenses/Apache-2.0.\n' >> "$copyright"
chmod 644 "$copyright"

# The Debian changelog of a native package: one entry for this version, dated by the last commit, pointing at the
# project's own history (git log; CHANGELOG.md in the source).
changelog_date=$(git log -1 --format=%aD 2>/dev/null || date -uR)
cat > "$stage/changelog" <<EOF
syncd ($version) unstable; urgency=medium

  * syncd $version, built from the source's commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown).
    Its history is the source's git log.

 -- syncd maintainers <maintainers@users.noreply.a-seed-173866da.example>  $changelog_date
EOF
gzip -9 -n -c "$stage/changelog" > "$root/usr/share/doc/syncd/changelog.gz"
chmod 644 "$root/usr/share/doc/syncd/changelog.gz"

# Lintian's overrides, each with its reason: what Debian's checker flags that is so on purpose.
install -d "$root/usr/share/lintian/overrides"
cat > "$root/usr/share/lintian/overrides/syncd" <<EOF
# swift-nio-extras compiles its own copy of zlib, with its symbols renamed (cnioextras_z_*), into NIOHTTPCompression,
# which decompresses the upstreams' gzip and deflate responses; the Swift packages are linked statically, so it is in
# the binary, not a second libz.so. Debian's zlib1g is linked too (for the Swift runtime's own use).
syncd: embedded-library zlib [usr/bin/syncd]
EOF
chmod 644 "$root/usr/share/lintian/overrides/syncd"

# Depends, from the libraries the binary links.
needed=$(objdump -p "$root/usr/bin/syncd" | awk '$1 == "NEEDED" { print $2 }')
# Every symbol the binary takes from a shared library, as name@version ("Base" when unversioned).
objdump -T "$root/usr/bin/syncd" | awk '/\*UND\*/ {
    name = $NF; version = "Base"
    if ($(NF - 1) ~ /^\(.*\)$/) { version = substr($(NF - 1), 2, length($(NF - 1)) - 2) }
    print name "@" version
}' | sort -u > "$stage/undefined"
ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
library_cache=$("$ldconfig" -p)
: > "$stage/minimums"
for soname in $needed; do
    path=$(awk -v so="$soname" '$1 == so && /x86-64/ && !found { print $NF; found = 1 }' <<< "$library_cache")
    [ -n "$path" ] || path=$(awk -v so="$soname" '$1 == so && !found { print $NF; found = 1 }' <<< "$library_cache")
    [ -n "$path" ] || { echo "no $soname in the ldconfig cache" >&2; exit 1; }
    # dpkg knows a library by the path its package ships; with merged /usr that may be /lib or /usr/lib.
    package=""
    for candidate in "$path" "${path#/usr}" "/usr$path" "$(readlink -f "$path")"; do
        package=$(dpkg-query -S "$candidate" 2>/dev/null | awk -F: 'NR == 1 { print $1 }' || true)
        [ -n "$package" ] && break
    done
    [ -n "$package" ] || { echo "no Debian package ships $path ($soname)" >&2; exit 1; }
    symbols=""
    for candidate in "/var/lib/dpkg/info/$package:$arch.symbols" "/var/lib/dpkg/info/$package.symbols"; do
        [ -f "$candidate" ] && { symbols=$candidate; break; }
    done
    # The minimum versions of the symbols the binary uses, from the symbols file's section for this soname.
    minimum=""
    if [ -n "$symbols" ]; then
        for v in $(awk -v so="$soname" '/^[^ |*#]/ { inside = ($1 == so); next } inside && /^ / { print $1, $2 }' \
            "$symbols" | awk 'NR == FNR { used[$1] = 1; next } ($1 in used) { print $2 }' "$stage/undefined" - \
            | sort -u); do
            if [ -z "$minimum" ] || dpkg --compare-versions "$v" gt "$minimum"; then minimum=$v; fi
        done
    fi
    echo "$soname -> $package${minimum:+ (>= $minimum)}"
    echo "$package $minimum" >> "$stage/minimums"
done
# One entry per package, with the highest minimum (libc.so.6 and libm.so.6 are both libc6's).
depends=""
for package in $(cut -d' ' -f1 "$stage/minimums" | sort -u); do
    minimum=""
    for v in $(awk -v p="$package" '$1 == p && NF > 1 { print $2 }' "$stage/minimums"); do
        if [ -z "$minimum" ] || dpkg --compare-versions "$v" gt "$minimum"; then minimum=$v; fi
    done
    depends=${depends:+$depends, }$package${minimum:+ (>= $minimum)}
done
echo "Depends: $depends"

installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: syncd
Version: $version
Architecture: $arch
Maintainer: syncd maintainers <maintainers@users.noreply.a-seed-173866da.example>
Installed-Size: $installed_size
Depends: $depends
Suggests: bash-completion
Section: net
Priority: optional
Description: SQLite cache of JSON APIs, kept fresh by a daemon
 syncd polls the JSON endpoints it is configured with, using conditional
 requests (ETag / Last-Modified), decodes each response into records, and
 upserts them into plain SQLite tables, which it serves on loopback through
 a read API with ETags. The cache can be read whether the upstream is
 reachable or not.
 .
 This package installs the syncd command, its man page and shell
 completions, a hardened systemd unit (syncd.service, which uses
 DynamicUser= and keeps its database in /var/lib/syncd) and an example
 configuration, /etc/syncd/syncd.toml. Nothing is enabled or started:
 edit the configuration, then run "systemctl enable --now syncd".
EOF
printf '/etc/syncd/syncd.toml\n' > "$root/DEBIAN/conffiles"
for script in postinst prerm postrm; do
    install -m 755 "contrib/debian/$script" "$root/DEBIAN/$script"
done
# md5sums of every file but the conffiles (dpkg keeps those elsewhere).
(cd "$root" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\n' | LC_ALL=C sort \
    | xargs md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

# syncd-dbgsym, as debhelper makes it: the debug file, and the documentation folder a link to syncd's.
ln -s syncd "$debug_root/usr/share/doc/syncd-dbgsym"
cat > "$debug_root/DEBIAN/control" <<EOF
Package: syncd-dbgsym
Source: syncd
Version: $version
Auto-Built-Package: debug-symbols
Architecture: $arch
Maintainer: syncd maintainers <maintainers@users.noreply.a-seed-173866da.example>
Installed-Size: $(du -sk --apparent-size --exclude=DEBIAN "$debug_root" | cut -f1)
Depends: syncd (= $version)
Section: debug
Priority: optional
Description: debug symbols for syncd
Build-Ids: $build_id
EOF
(cd "$debug_root" && find . -type f ! -path './DEBIAN/*' -printf '%P\n' | LC_ALL=C sort | xargs md5sum) \
    > "$debug_root/DEBIAN/md5sums"
chmod 644 "$debug_root/DEBIAN/control" "$debug_root/DEBIAN/md5sums"

mkdir -p "$out_dir"
dbgsym="$out_dir/syncd-dbgsym_${version}_${arch}.deb"
# xz at its highest level: the binary is most of the package.
dpkg-deb --root-owner-group -Zxz -z9 --build "$root" "$deb"
dpkg-deb --root-owner-group -Zxz -z9 --build "$debug_root" "$dbgsym"
echo "built $deb ($(du -h "$deb" | cut -f1), $(dpkg-deb --field "$deb" Installed-Size) KiB installed)"
echo "built $dbgsym ($(du -h "$dbgsym" | cut -f1))"
