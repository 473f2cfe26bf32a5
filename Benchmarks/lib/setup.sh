# Sourced by the benchmarks, from the package's root: what each needs before it measures.

# install_missing COMMAND:PACKAGE…: installs, from Debian's packages, those whose command is not on the PATH
# (`time:time` checks /usr/bin/time, which bash's keyword of the same name hides).
install_missing() {
    local missing=() pair command
    for pair in "$@"; do
        command=${pair%%:*}
        if [ "$command" = time ]; then [ -x /usr/bin/time ] && continue
        else command -v "$command" >/dev/null 2>&1 && continue
        fi
        missing+=("${pair##*:}")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

# build_release: builds syncd and sample-upstream as the README installs syncd (release, the Swift runtime linked
# statically), in one scratch path that every benchmark shares, and sets BIN to the folder that holds them.
# SYNCD_BIN, when set, is a folder holding a syncd and a sample-upstream built already (an A/B: the build before a
# change against this one, both measured by the same script); nothing is built then.
build_release() {
    if [ -n "${SYNCD_BIN:-}" ]; then
        BIN=$SYNCD_BIN
        echo "using the builds in $BIN: $("$BIN/syncd" --version 2>/dev/null || echo syncd)" >&2
        return
    fi
    echo "building (release, static Swift runtime)…" >&2
    local build=(swift build -c release --static-swift-stdlib --scratch-path .build-release-static)
    "${build[@]}" --product syncd >&2
    "${build[@]}" --product sample-upstream >&2
    BIN=$("${build[@]}" --show-bin-path)
}

# users_columns: the [endpoint.columns] of the benchmarks' jsonplaceholder-shaped users (the key, seven columns).
users_columns() {
    cat <<'TOML'
[endpoint.columns]
id = { path = "id", type = "integer" }
name = "name"
username = "username"
email = "email"
city = "address.city"
lat = { path = "address.geo.lat", type = "real" }
lng = { path = "address.geo.lng", type = "real" }
company = "company.name"
TOML
}

# start_nginx WORK PORT WORKERS [HTTP_LINES] [SERVER_LINES]: starts nginx serving WORK/www as static files with ETags
# on 127.0.0.1:PORT, its pid (WORK/nginx.pid: stop it with `kill -QUIT`), logs and temporary files in WORK;
# HTTP_LINES go into its http block, SERVER_LINES into its server block, as they are.
start_nginx() {
    local work=$1 port=$2 workers=$3 http=${4:-} server=${5:-}
    mkdir -p "$work/tmp"
    cat > "$work/nginx.conf" <<NGINX
worker_processes $workers;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    default_type application/json;
    client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp;
    uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
    keepalive_requests 100000;
    $http
    server {
        listen 127.0.0.1:$port; root $work/www; etag on;
        $server
    }
}
NGINX
    chmod -R a+rX "$work"   # nginx workers run as nobody
    nginx -c "$work/nginx.conf"
}
